import { tokenizer, tokTypes } from 'acorn';

/**
 * The modules a piece of generated JavaScript really `require`s: calls in the code itself,
 * not the word `require(` inside a string literal or a comment. ajv standalone code embeds
 * schemas (with the catalog's descriptions) as string literals, so a plain text search
 * would mistake a description such as "see require(x)" for an import.
 *
 * Returns the first argument of each call as written (`"ajv/dist/runtime/equal"`), in order.
 */
export function runtimeRequires(code: string): string[] {
  // Nearly every module has no such word at all: skip the tokenizer then.
  if (!/\brequire\b/.test(code)) return [];
  const found: string[] = [];
  const tokens = [...tokenizer(code, { ecmaVersion: 'latest', sourceType: 'script', allowHashBang: true })];
  tokens.forEach((token, i) => {
    if (token.type !== tokTypes.name || code.slice(token.start, token.end) !== 'require' || tokens[i + 1]?.type !== tokTypes.parenL) return;
    if (tokens[i - 1]?.type === tokTypes.dot) return; // `x.require(`: someone else's method
    const argument = tokens[i + 2];
    found.push(argument ? code.slice(argument.start, argument.end) : '');
  });
  return found;
}
