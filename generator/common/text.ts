/** Plain text helpers every stage shares. */

/** `1 event version`, `2 event versions`. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** JSON with two-space indent and a trailing newline; key order is the order the object was built in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** Inline code in Markdown (and TSDoc): backticks, doubled with spaces when the text holds one. */
export const inlineCode = (text: string): string => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

/** Someone's words quoted inline, in typographic quotes: “…”. */
export const curlyQuote = (words: string): string => `“${words}”`;

/** Someone's words as a Markdown block quote, line by line. */
export const blockQuote = (text: string): string =>
  text
    .split('\n')
    .map((line) => `> ${line}`.trimEnd())
    .join('\n');
