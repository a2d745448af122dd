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
 * HTML (a tag, a comment that hides the rest of the page) and no control characters.
 */
export function markdownText(text: string): string {
  const kept = text.replace(NOT_ON_ONE_LINE, (char) => (char === '\n' || char === '\t' ? char : escapeCodePoint(char)));
  return kept.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}
