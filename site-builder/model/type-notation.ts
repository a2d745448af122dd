/**
 * The catalog's type notation as the manifest and the page model write it (`string`,
 * `string[]`, `billing-_billing-Ledger`, the REST API's `date`), read, and said in plain
 * words for people.
 */

export const PRIMITIVE_TYPES = ['string', 'integer', 'number', 'boolean', 'object'] as const;
export type PrimitiveType = (typeof PRIMITIVE_TYPES)[number];

/** The REST API's string formats, as the notation names them. */
type FormatName = 'date' | 'datetime' | 'decimal';

export const isPrimitiveType = (name: string): name is PrimitiveType => (PRIMITIVE_TYPES as readonly string[]).includes(name);

/** `string[][]` → `{ base: 'string', depth: 2 }`; text that is not the notation is a base of its own. */
export function parseNotation(text: string): { base: string; depth: number } {
  const match = /^(.*?)((?:\[\])*)$/.exec(text)!;
  return { base: match[1]!, depth: match[2]!.length / 2 };
}

const PLAIN: Readonly<Record<PrimitiveType | FormatName, readonly [one: string, many: string]>> = {
  string: ['text', 'texts'],
  integer: ['integer', 'integers'],
  number: ['number', 'numbers'],
  boolean: ['true or false', 'true-or-false values'],
  object: ['object (its content is not shown)', 'objects (their content is not shown)'],
  date: ['date (YYYY-MM-DD)', 'dates (YYYY-MM-DD)'],
  datetime: ['date and time (YYYY-MM-DDTHH:MM:SSZ, UTC)', 'dates and times (YYYY-MM-DDTHH:MM:SSZ, UTC)'],
  decimal: ['decimal text with two places (125.50)', 'decimal texts with two places (125.50)'],
};

/** `string[]` → `list of texts`, `date` → `date (YYYY-MM-DD)`; a named type keeps its name (`list of Ledger`). */
export function plainType(text: string): string {
  const { base, depth } = parseNotation(text);
  const known = Object.hasOwn(PLAIN, base) ? PLAIN[base as PrimitiveType | FormatName] : undefined;
  if (depth === 0) return known ? known[0] : base;
  return `${'list of '.repeat(depth)}${known ? known[1] : base}`;
}
