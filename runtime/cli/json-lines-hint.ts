/**
 * When `validate` is given one JSON document (a pretty-printed message, a JSON array of
 * messages) instead of JSON Lines, every line fails as a fragment of it, and "5 of 5 lines
 * rejected" alone does not say why. The rule, cheap and without holding the input:
 *
 * - the first counted line opens a document: it starts with `[` (an array, whether the
 *   whole array is on that line or it goes on over many), or it is a lone `{` (an object as
 *   pretty-printers write it: `jq .`, `JSON.stringify(…, null, 2)`, Python's `indent=`);
 *   a message of JSON Lines is one object on one line, so it does neither;
 * - and most counted lines were rejected (an array with one message per line leaves its
 *   last message valid, so "every line" would miss it).
 *
 * Only the first counted line's first bytes are looked at, whatever its length: a huge
 * one-line array (longer than `--max-line-length`) is recognised from the bytes kept of it.
 */

/** What the first counted line opens, when it opens one JSON document. */
export type DocumentOpening = 'array' | 'object';

/** JSON's white space, and a byte-order mark at the very start. */
const EDGE_SPACE = /^[\ufeff \t\r\n]+|[ \t\r\n]+$/g;

export function documentOpening(firstLine: string): DocumentOpening | undefined {
  const text = firstLine.replace(EDGE_SPACE, '');
  if (text.startsWith('[')) return 'array';
  if (text === '{') return 'object';
  return undefined;
}

/** A file name a reader may paste into a shell as it is; other names are written as FILE. */
const PLAIN_NAME = /^[\w./-]+$/;

/**
 * The hint, or `undefined` when the input does not look like one JSON document. `inputFile`
 * is the file read, `undefined` for standard input.
 */
export function jsonLinesHint(opening: DocumentOpening | undefined, counts: { lines: number; valid: number }, inputFile: string | undefined): string | undefined {
  if (opening === undefined || counts.lines - counts.valid <= counts.valid) return undefined;
  const jq = opening === 'array' ? `jq -c '.[]'` : 'jq -c .';
  const what = opening === 'array' ? 'one JSON array' : 'pretty-printed JSON';
  let convert: string;
  if (inputFile === undefined) convert = `… | ${jq} | event-catalog validate`;
  else {
    const name = PLAIN_NAME.test(inputFile) && !inputFile.startsWith('-') ? inputFile : 'FILE';
    convert = `${jq} ${name} > ${name.replace(/\.json$/, '')}.jsonl`;
  }
  return `the input looks like ${what}, not JSON Lines: validate reads one message per line. Convert it first: ${convert}`;
}
