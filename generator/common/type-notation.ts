import type { PrimitiveName, TypeRef } from '../model.js';

/** The catalog's type notation, read and written in one place: a primitive or shared type name, then a `[]` per array level. */

export const PRIMITIVES: readonly PrimitiveName[] = ['string', 'integer', 'number', 'boolean', 'object'];

export const isPrimitive = (name: string): name is PrimitiveName => (PRIMITIVES as readonly string[]).includes(name);

/** `string[][]` → `{ base: 'string', depth: 2 }`; `undefined` when the text is not the notation. */
export function parseTypeNotation(text: string): { base: string; depth: number } | undefined {
  const match = /^([A-Za-z_][A-Za-z0-9_-]*)((?:\[\])*)$/.exec(text);
  return match ? { base: match[1]!, depth: match[2]!.length / 2 } : undefined;
}

/** Catalog notation of a type, as a maintainer writes it (`string[]`, `billing-_billing-Ledger`). */
export function typeNotation(type: TypeRef): string {
  return type.kind === 'array' ? `${typeNotation(type.items)}[]` : type.name;
}
