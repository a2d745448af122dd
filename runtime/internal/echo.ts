/**
 * Text copied from a message into an error (an event type, a version, a property name) is
 * cut to a bounded length with a visible marker, so a hostile message cannot make its error
 * larger than itself many times over.
 */

/** Most characters (UTF-16 code units) of one message string kept in an error's fields (`type`, `version`, a name in `path`). */
export const ECHO_LIMIT = 200;
/** Most characters of one message string quoted inside a sentence (`message`): JSON escaping may still make each up to six. */
export const QUOTE_LIMIT = 64;

/** `text`, or its first `limit` characters and a marker saying how many were cut. */
export function clip(text: string, limit = ECHO_LIMIT): string {
  if (text.length <= limit) return text;
  // Never keep half of a surrogate pair.
  const end = isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
  return `${text.slice(0, end)}…[${(text.length - end).toLocaleString('en-US')} more characters]`;
}

/** Printable ASCII but `"` and `\`: text that JSON escaping leaves as it is. */
const NOTHING_TO_ESCAPE = /^[ !#-[\]-~]*$/;

/** A message string in double quotes for an error message: clipped, escaped, safe to log. */
export const quote = (text: string): string =>
  // Most names (property names, event types) need neither: skip the serializer for them.
  text.length <= QUOTE_LIMIT && NOTHING_TO_ESCAPE.test(text) ? `"${text}"` : JSON.stringify(clip(text, QUOTE_LIMIT));

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
