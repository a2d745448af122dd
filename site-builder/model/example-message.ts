/**
 * An example message of an event version: every field of its payload (optional ones too),
 * one item in each list, shared types filled in, values chosen by `example-values.ts`.
 */
import type { FieldSource } from './field-tree.js';
import { exampleValue } from './example-values.js';
import { isPrimitiveType, parseNotation } from './type-notation.js';

export function examplePayload(fields: readonly FieldSource[], shared: ReadonlyMap<string, readonly FieldSource[]>, inside: readonly string[] = []): Record<string, unknown> {
  const valueOf = (field: FieldSource): unknown => {
    const { base, depth } = parseNotation(field.type);
    let value: unknown;
    if (isPrimitiveType(base)) value = exampleValue(field.name, base);
    else if (shared.has(base) && !inside.includes(base)) value = examplePayload(shared.get(base)!, shared, [...inside, base]);
    else value = {};
    for (let level = 0; level < depth; level++) value = [value];
    return value;
  };
  return Object.fromEntries(fields.map((field) => [field.name, valueOf(field)]));
}

export const exampleMessage = (event: { type: string; version: string; fields: readonly FieldSource[] }, shared: ReadonlyMap<string, readonly FieldSource[]>) => ({
  type: event.type,
  version: event.version,
  payload: examplePayload(event.fields, shared),
});
