/**
 * Catalog text (file names, descriptions, the seed's words) made safe for the place it lands
 * in a generated file. Names are safe by the catalog's name rules; free text is not, and a
 * file name reaches every banner.
 */

/** `\u{…}` for a code point: visible, and means the same to a reader of any of the outputs. */
const escapeCodePoint = (char: string): string => `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}`;

/**
 * Control characters (line breaks among them), the Unicode line and paragraph separators
 * (JavaScript ends a `//` comment at either) and invisible format characters (bidirectional
 * overrides that make code read differently from how it runs).
 */
const NOT_ON_ONE_LINE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/**
 * Text for a one-line comment (`// …` in JavaScript and TypeScript, `# …` in YAML, `<!-- … -->`
 * in Markdown): whatever it holds, the comment cannot end before the text does.
 */
export function commentText(text: string): string {
  return text.replace(NOT_ON_ONE_LINE, escapeCodePoint);
}

/**
 * Text for Markdown (and AsyncAPI's CommonMark descriptions): its Markdown is kept, but no
 * HTML (a tag, a comment that hides the rest of the page) and no control characters. Code
 * spans are left as they are: CommonMark reads no HTML and no entity inside them, so
 * `&lt;` there would show as written.
 */
export function markdownText(text: string): string {
  const kept = text.replace(NOT_ON_ONE_LINE, (char) => (char === '\n' || char === '\t' ? char : escapeCodePoint(char)));
  let out = '';
  let from = 0;
  for (const span of codeSpans(kept)) {
    out += escapeHtml(kept.slice(from, span.start)) + kept.slice(span.start, span.end);
    from = span.end;
  }
  return out + escapeHtml(kept.slice(from));
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * The code spans of a Markdown text, as CommonMark finds them: a run of backticks opens one,
 * and the next run of exactly as many closes it; a run that nothing closes is plain text.
 */
function codeSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  const runs = [...text.matchAll(/`+/g)].map((m) => ({ start: m.index, length: m[0].length }));
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i]!;
    const close = runs.findIndex((run, j) => j > i && run.length === open.length);
    if (close === -1) continue;
    spans.push({ start: open.start, end: runs[close]!.start + open.length });
    i = close;
  }
  return spans;
}
