/**
 * The catalog's type notation as the manifest writes it (`string`, `string[]`,
 * `billing-_billing-Ledger`), read, and said in plain words for people.
 */

export const PRIMITIVE_TYPES = ['string', 'integer', 'number', 'boolean', 'object'] as const;
export type PrimitiveType = (typeof PRIMITIVE_TYPES)[number];

export const isPrimitiveType = (name: string): name is PrimitiveType => (PRIMITIVE_TYPES as readonly string[]).includes(name);

/** `string[][]` → `{ base: 'string', depth: 2 }`; text that is not the notation is a base of its own. */
export function parseNotation(text: string): { base: string; depth: number } {
  const match = /^(.*?)((?:\[\])*)$/.exec(text)!;
  return { base: match[1]!, depth: match[2]!.length / 2 };
}

const PLAIN: Readonly<Record<PrimitiveType, readonly [one: string, many: string]>> = {
  string: ['text', 'texts'],
  integer: ['integer', 'integers'],
  number: ['number', 'numbers'],
  boolean: ['true or false', 'true-or-false values'],
  object: ['object (its content is not shown)', 'objects (their content is not shown)'],
};

/** `string[]` → `list of texts`; a shared type keeps its name (`list of Ledger`). */
export function plainType(text: string): string {
  const { base, depth } = parseNotation(text);
  const known = isPrimitiveType(base) ? PLAIN[base] : undefined;
  if (depth === 0) return known ? known[0] : base;
  return `${'list of '.repeat(depth)}${known ? known[1] : base}`;
}
