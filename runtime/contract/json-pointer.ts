/**
 * JSON Pointers (RFC 6901), the one place their tokens are escaped and unescaped: the event
 * and REST issues, the payload search, the error body and the generator's `$ref`s all use it.
 */

/** One reference token escaped: `a/b` → `a~1b`, `a~b` → `a~0b`. */
export const pointerToken = (token: string): string =>
  // Most names need no escaping: test before building new strings.
  token.includes('~') || token.includes('/') ? token.replace(/~/g, '~0').replace(/\//g, '~1') : token;

/** One reference token unescaped: `a~1b` → `a/b`. */
export const unescapeToken = (token: string): string => (token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token);

/** The unescaped reference tokens of a pointer: `/a~1b/0` → `['a/b', '0']`; `''` (the whole document) → `[]`. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapeToken);
}
