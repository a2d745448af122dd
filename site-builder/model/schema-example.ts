/**
 * An example value of a JSON Schema of the REST API: every property, one item per list, the
 * first allowed value or value seen, dates and decimals in the contract's formats, and text
 * chosen from the field's name as for events.
 */
import type { JsonSchema } from '../published.js';
import { exampleDate, exampleText, exampleTime, exampleValue } from './example-values.js';

/** The OpenAPI document's components (`#/components/schemas/<name>`). */
export type Components = Readonly<Record<string, JsonSchema>>;

const REF = '#/components/schemas/';

/** A schema with its `$ref` followed (once; components do not refer to a bare `$ref`). */
function resolve(schema: JsonSchema, components: Components): JsonSchema {
  if (!schema.$ref?.startsWith(REF)) return schema;
  const target = components[schema.$ref.slice(REF.length)];
  if (!target) throw new Error(`openapi.yaml: ${schema.$ref} names no component`);
  return target;
}

export function schemaExample(schema: JsonSchema, components: Components, name = 'value'): unknown {
  const resolved = resolve(schema, components);
  if (resolved.const !== undefined) return resolved.const;
  if (resolved.enum) return resolved.enum[0];
  if (resolved.examples && resolved.examples.length > 0) return resolved.examples[0];
  const alternatives = resolved.anyOf ?? resolved.oneOf;
  if (alternatives?.[0]) return schemaExample(alternatives[0], components, name);
  const kind = (Array.isArray(resolved.type) ? resolved.type : [resolved.type]).find((t) => t !== 'null' && t !== undefined);
  switch (kind) {
    case 'object':
      return Object.fromEntries(Object.entries(resolved.properties ?? {}).map(([key, property]) => [key, schemaExample(property, components, key)]));
    case 'array':
      return resolved.items ? [schemaExample(resolved.items, components, name)] : [];
    case 'string':
      if (resolved.format === 'date') return exampleDate(name);
      if (resolved.format === 'date-time') return `${exampleDate(name)}T${exampleTime(name)}Z`;
      if (resolved.pattern === '^-?[0-9]+\\.[0-9]{2}$') return '125.50';
      return exampleText(name);
    case 'integer':
    case 'number':
    case 'boolean':
      return exampleValue(name, kind);
    default:
      return {};
  }
}
