import { pointerToken } from '../../runtime/contract/json-pointer.js';
import type { FieldModel, FormatName, ObjectTypeModel, TypeRef } from '../model.js';

/**
 * The model as JSON Schema (2020-12), written once for every output that needs it: the
 * events' schemas, the REST API's schemas and OpenAPI document, and the TypeScript types
 * (through json-schema-to-typescript). What differs between them is only how a named type,
 * a format and an opaque object are written: the `SchemaDialect`.
 */

export type JsonSchema = { [key: string]: unknown };

/**
 * `tolerant`: unlisted properties are allowed (the published schemas, responses).
 * `strict`: every object the catalog fully describes rejects unlisted properties; an open
 * object still accepts them, and `object` fields (content not shown) always do.
 */
export type SchemaMode = 'tolerant' | 'strict';

/**
 * Patterns of the formats the REST seed states, real calendar dates only: each month's own
 * number of days, and 29 February in leap years alone (divisible by 4; centuries only by 400).
 * JSON Schema's `format` stays for readers and format-checking tools; the pattern is what the
 * validators enforce, so they need no format library, and every string the pattern accepts
 * is one a full `date` / `date-time` format check accepts too.
 */
const LEAP_YEAR = '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const DATE = `(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|${LEAP_YEAR}-02-29)`;
export const FORMAT_SCHEMAS: Readonly<Record<FormatName, JsonSchema & { pattern: string }>> = {
  date: { type: 'string', format: 'date', pattern: `^${DATE}$` },
  datetime: { type: 'string', format: 'date-time', pattern: `^${DATE}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$` },
  // An example, so mock servers and samplers make a decimal rather than any string.
  decimal: { type: 'string', pattern: '^-?[0-9]+\\.[0-9]{2}$', examples: ['125.50'] },
};

/** How one output writes what JSON Schema has no one word for. */
export interface SchemaDialect {
  /** A named object type: a `$ref` (into `$defs`, into OpenAPI's components), or a TypeScript name. */
  named(name: string): JsonSchema;
  /** A string with a stated format: its pattern, or a TypeScript alias. */
  format(name: FormatName): JsonSchema;
  /** An `object` field, whose content is not shown. */
  readonly opaqueObject: JsonSchema;
  /** Any value at all (a body the seed does not show). */
  readonly anything: JsonSchema;
}

/** `#/$defs/<name>`: a schema's own definitions. */
export const refInDefs = (name: string): string => `#/$defs/${pointerToken(name)}`;

/** Plain JSON Schema whose named types are `$ref`s to `refTo(name)` (a schema's own `$defs` by default). */
export const jsonSchemaDialect = (refTo: (name: string) => string = refInDefs): SchemaDialect => ({
  named: (name) => ({ $ref: refTo(name) }),
  format: (name) => structuredClone(FORMAT_SCHEMAS[name]),
  opaqueObject: { type: 'object' },
  anything: {},
});

export function typeSchema(type: TypeRef, dialect: SchemaDialect): JsonSchema {
  switch (type.kind) {
    case 'primitive':
      return type.name === 'object' ? { ...dialect.opaqueObject } : { type: type.name };
    case 'format':
      return dialect.format(type.name);
    case 'array':
      return { type: 'array', items: typeSchema(type.items, dialect) };
    case 'named':
      return dialect.named(type.name);
  }
}

/** A phrase of the seed as a sentence of a description: ends with a full stop. */
const sentence = (text: string): string => (/[.!?:]$/.test(text) ? text : `${text}.`);

/** What the schemas and types say about a field: its description, why it is optional, what is not shown. */
export function fieldNotes(field: FieldModel): string | undefined {
  const why = field.whyOptional && field.whyOptional !== 'optional' && `Optional: ${field.whyOptional}`;
  const notes = [field.description, why, field.notShown].filter((n): n is string => !!n);
  return notes.length > 0 ? notes.map(sentence).join(' ') : undefined;
}

/** A field's value: its type, length, values, and `null` where it is nullable; then its default and examples. */
export function fieldSchema(field: FieldModel, dialect: SchemaDialect): JsonSchema {
  let schema = typeSchema(field.type, dialect);
  if (field.minLength !== undefined) schema = { ...schema, minLength: field.minLength };
  if (field.enum) schema = { ...schema, enum: field.enum };
  if (field.nullable) {
    // `type: [T, 'null']` where the type is one word (the value list takes `null` too); otherwise either the type or null.
    schema = typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'], ...(field.enum && { enum: [...field.enum, null] }) } : { anyOf: [schema, { type: 'null' }] };
  }
  const notes = fieldNotes(field);
  return {
    ...(notes !== undefined && { description: notes }),
    ...schema,
    ...(field.default !== undefined && { default: field.default }),
    ...(field.examples && { examples: field.examples }),
  };
}

/** An object of these fields, required unless optional (each field's schema `fieldSchema`'s unless given); closing it is the caller's choice. */
export function fieldsSchema(fields: readonly FieldModel[], dialect: SchemaDialect, valueSchema: (field: FieldModel) => JsonSchema = (f) => fieldSchema(f, dialect)): JsonSchema {
  const required = fields.filter((f) => !f.optional).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, valueSchema(f)])),
    ...(required.length > 0 && { required }),
  };
}

/** What a named type's schema says of it: its description, that it is open, that every field is optional. */
export function typeDescription(type: ObjectTypeModel): string | undefined {
  const parts = [type.description, type.open && `Open: ${type.open.seed} Other fields may be sent.`, type.requiredNotShown && `Every field is optional: ${type.requiredNotShown}`].filter((p): p is string => !!p);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * "At least one of": each alternative only requires its field (the field's schema is the
 * object's own), inside `allOf` so that type generators such as openapi-typescript read it as
 * an intersection with the object, `{ …fields } & ({ body } | { document_paths })`, not as
 * one more alternative beside it.
 */
const atLeastOneOf = (names: readonly string[]): JsonSchema => ({ allOf: [{ anyOf: names.map((name) => ({ properties: { [name]: true }, required: [name] })) }] });

/** A named object type: titled, described, closed in strict mode unless the seed leaves it open. */
export function objectTypeSchema(type: ObjectTypeModel, mode: SchemaMode, dialect: SchemaDialect): JsonSchema {
  const description = typeDescription(type);
  return {
    title: type.name,
    ...(description !== undefined && { description }),
    ...fieldsSchema(type.fields, dialect),
    ...(type.atLeastOneOf && atLeastOneOf(type.atLeastOneOf)),
    ...(mode === 'strict' && { additionalProperties: type.open !== false }),
  };
}
