/**
 * The REST API's bodies and parameters as field trees, read from the OpenAPI document's JSON
 * Schemas: components (`$ref`) are the named types, expanded in place as shared types are in
 * event payloads.
 */
import type { JsonSchema } from '../published.js';
import type { FieldNode } from './field-tree.js';

export type Components = Readonly<Record<string, JsonSchema>>;

const REF = '#/components/schemas/';
const DECIMAL = '^-?[0-9]+\\.[0-9]{2}$';

/** The component a `$ref` names, or `undefined` for an inline schema. */
export const refName = (schema: JsonSchema): string | undefined => (schema.$ref?.startsWith(REF) ? schema.$ref.slice(REF.length) : undefined);

/** A schema with its `$ref` followed (once; components do not refer to a bare `$ref`). */
export function resolve(schema: JsonSchema, components: Components): JsonSchema {
  const name = refName(schema);
  if (name === undefined) return schema;
  const target = components[name];
  if (!target) throw new Error(`openapi.yaml: ${schema.$ref} names no component`);
  return target;
}

const types = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** A value's type in plain words (`date (YYYY-MM-DD)`, `list of NoteResult`). */
export function schemaTypeText(schema: JsonSchema, components: Components): string {
  const name = refName(schema);
  if (name !== undefined) return name;
  if (schema.const !== undefined) return `the value ${JSON.stringify(schema.const)}`;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return alternatives.map((s) => schemaTypeText(s, components)).join(' or ');
  const kind = types(schema).filter((t) => t !== 'null')[0];
  switch (kind) {
    case 'array':
      return `list of ${schema.items ? schemaTypeText(schema.items, components) : 'values'}`;
    case 'string':
      if (schema.format === 'date') return 'date (YYYY-MM-DD)';
      if (schema.format === 'date-time') return 'date and time (YYYY-MM-DDTHH:MM:SSZ, UTC)';
      if (schema.pattern === DECIMAL) return 'decimal text with two places (125.50)';
      return 'text';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'object';
    default:
      return kind ?? 'any value';
  }
}

/** The named component a value is, or each item of a list is. */
function namedTypeOf(schema: JsonSchema): string | undefined {
  return refName(schema) ?? (schema.items ? namedTypeOf(schema.items) : undefined);
}

const code = (value: unknown): string => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** Allowed values, values seen, default: what a reader needs besides the type. */
function notesOf(schema: JsonSchema): string[] {
  const notes: string[] = [];
  if (schema.enum) notes.push(`one of ${schema.enum.map(code).join(', ')}`);
  if (schema.examples && !schema.enum) notes.push(`values seen: ${schema.examples.map(code).join(', ')} (others are accepted)`);
  if (schema.default !== undefined) notes.push(`default ${code(schema.default)}`);
  if (schema.minLength === 1) notes.push('not empty');
  return notes;
}

/** The fields of an object schema (through `$ref`), each expanded through the components it names. */
export function schemaFields(schema: JsonSchema, components: Components, path: readonly string[] = [], via: readonly string[] = [], alwaysPresent = true): FieldNode[] {
  const object = resolve(schema, components);
  const owner = refName(schema);
  const inside = owner ? [...via, owner] : via;
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties ?? {}).map(([name, property]) => {
    const named = namedTypeOf(property);
    const recursive = named !== undefined && inside.includes(named);
    const isRequired = required.has(name);
    const node: FieldNode = {
      name,
      path: [...path, name],
      typeText: schemaTypeText(property, components),
      ...(named && { namedType: named }),
      required: isRequired,
      alwaysPresent: alwaysPresent && isRequired,
      nullable: types(property).includes('null'),
      via: inside,
      ...(property.description && { description: property.description.replace(/^Optional: /, '') }),
      notes: notesOf(property),
      children: named && !recursive ? schemaFields({ $ref: `${REF}${named}` }, components, [...path, name], inside, alwaysPresent && isRequired) : [],
      ...(recursive && { recursive }),
    };
    return node;
  });
}
