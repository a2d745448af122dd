import { bannerText } from '../common/banner.js';
import { pointerToken } from '../../runtime/contract/json-pointer.js';
import { stableJson } from '../common/text.js';
import type { ApiFieldModel, ApiModel, ApiObjectTypeModel, ApiOperationModel, ApiResponseModel, ApiTypeRef, CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import type { JsonSchema } from './json-schema.js';

/**
 * JSON Schemas (2020-12) of the REST API: one per part of each operation a caller or server
 * checks (path parameters, query, request body, each response status), self-contained
 * (`$defs`). Requests are strict ("Only documented fields may be sent"), except objects the
 * seed leaves open; responses are tolerant ("additions to existing endpoints may appear").
 */

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const ID_PREFIX = 'urn:data-import-api';

/**
 * Patterns of the formats the seed states, real calendar dates only: each month's own number
 * of days, and 29 February in leap years alone (divisible by 4; centuries only by 400).
 * JSON Schema's `format` stays for readers and format-checking tools; the pattern is what the
 * validators enforce, so they need no format library, and every string the pattern accepts
 * is one a full `date` / `date-time` format check accepts too.
 */
const LEAP_YEAR = '(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)';
const DATE = `(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|${LEAP_YEAR}-02-29)`;
export const FORMAT_SCHEMAS: Record<'date' | 'datetime' | 'decimal', JsonSchema> = {
  date: { type: 'string', format: 'date', pattern: `^${DATE}$` },
  datetime: { type: 'string', format: 'date-time', pattern: `^${DATE}T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z$` },
  // An example, so mock servers and samplers make a decimal rather than any string.
  decimal: { type: 'string', pattern: '^-?[0-9]+\\.[0-9]{2}$', examples: ['125.50'] },
};

/** Query booleans travel as the text `true` / `false`; a caller may also pass a boolean. */
const QUERY_BOOLEAN: JsonSchema = { enum: [true, false, 'true', 'false'] };

export type ApiSchemaPart = 'params' | 'query' | 'request' | `response-${number}`;

export interface ApiSchema {
  operationId: string;
  part: ApiSchemaPart;
  /** The validator's export name in `api/validators.cjs`. */
  exportName: string;
  id: string;
  /** Under `generated/`. */
  path: string;
  schema: JsonSchema;
}

export type ApiSchemaMode = 'strict' | 'tolerant';

const describeAs = (description: string | undefined): JsonSchema => (description === undefined ? {} : { description });

/** Where a named type's schema is: `$ref` of a type by its name (a schema's own `$defs` by default). */
export type ApiTypeRefTarget = (typeName: string) => string;

const inDefs: ApiTypeRefTarget = (name) => `#/$defs/${pointerToken(name)}`;

export function apiTypeSchema(type: ApiTypeRef, refTo: ApiTypeRefTarget = inDefs): JsonSchema {
  switch (type.kind) {
    case 'primitive':
      return { type: type.name };
    case 'format':
      return structuredClone(FORMAT_SCHEMAS[type.name]);
    case 'array':
      return { type: 'array', items: apiTypeSchema(type.items, refTo) };
    case 'named':
      return { $ref: refTo(type.name) };
  }
}

/** A phrase of the seed as a sentence of a description: ends with a full stop. */
const sentence = (text: string): string => (/[.!?:]$/.test(text) ? text : `${text}.`);

/** What the schemas and types say about a field: its description, why it is optional, what is not shown. */
export function fieldNotes(field: ApiFieldModel): string | undefined {
  const why = field.whyOptional && field.whyOptional !== 'optional' && `Optional: ${field.whyOptional}`;
  const notes = [field.description, why, field.notShown].filter((n): n is string => !!n);
  return notes.length > 0 ? notes.map(sentence).join(' ') : undefined;
}

export function apiFieldSchema(field: ApiFieldModel, refTo: ApiTypeRefTarget = inDefs): JsonSchema {
  let schema = apiTypeSchema(field.type, refTo);
  if (field.minLength !== undefined) schema = { ...schema, minLength: field.minLength };
  if (field.enum) schema = { ...schema, enum: field.enum };
  if (field.nullable) {
    schema = 'type' in schema && typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'], ...(field.enum && { enum: [...field.enum, null] }) } : { anyOf: [schema, { type: 'null' }] };
  }
  return {
    ...describeAs(fieldNotes(field)),
    ...schema,
    ...(field.default !== undefined && { default: field.default }),
    ...(field.examples && { examples: field.examples }),
  };
}

function typeDescription(type: ApiObjectTypeModel): string | undefined {
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

export function apiObjectSchema(type: ApiObjectTypeModel, mode: ApiSchemaMode, refTo: ApiTypeRefTarget = inDefs): JsonSchema {
  const properties: JsonSchema = {};
  for (const field of type.fields) properties[field.name] = apiFieldSchema(field, refTo);
  const required = type.fields.filter((f) => !f.optional).map((f) => f.name);
  return {
    title: type.name,
    ...describeAs(typeDescription(type)),
    type: 'object',
    properties,
    ...(required.length > 0 && { required }),
    ...(type.atLeastOneOf && atLeastOneOf(type.atLeastOneOf)),
    ...(mode === 'strict' && { additionalProperties: type.open !== false }),
  };
}

/** Named types a type reaches, itself included, in catalog order. */
export function reachableApiTypes(api: ApiModel, roots: readonly ApiTypeRef[]): ApiObjectTypeModel[] {
  const seen = new Set<string>();
  const visit = (ref: ApiTypeRef): void => {
    if (ref.kind === 'array') return visit(ref.items);
    if (ref.kind !== 'named' || seen.has(ref.name)) return;
    seen.add(ref.name);
    for (const field of api.types.find((t) => t.name === ref.name)?.fields ?? []) visit(field.type);
  };
  roots.forEach(visit);
  return api.types.filter((t) => seen.has(t.name));
}

function withDefs(api: ApiModel, roots: readonly ApiTypeRef[], mode: ApiSchemaMode, body: JsonSchema): JsonSchema {
  const reached = reachableApiTypes(api, roots);
  if (reached.length === 0) return body;
  return { ...body, $defs: Object.fromEntries(reached.map((t) => [t.name, apiObjectSchema(t, mode)])) };
}

function fieldsObject(fields: readonly ApiFieldModel[], valueSchema: (f: ApiFieldModel) => JsonSchema): JsonSchema {
  const required = fields.filter((f) => !f.optional).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, valueSchema(f)])),
    ...(required.length > 0 && { required }),
    additionalProperties: false,
  };
}

function querySchema(field: ApiFieldModel): JsonSchema {
  const base = apiFieldSchema(field);
  return base.type === 'boolean' ? { ...Object.fromEntries(Object.entries(base).filter(([k]) => k !== 'type')), ...QUERY_BOOLEAN } : base;
}

/** A response body: the seed's JSON types (any of them), its exact text, or anything where the seed does not show it. */
function responseBody(response: ApiResponseModel): JsonSchema {
  if (response.notShown !== undefined) return { description: `${response.description}. Body: ${response.notShown}` };
  const options: JsonSchema[] = [...(response.json ?? []).map((t) => apiTypeSchema(t)), ...(response.text !== undefined ? [{ type: 'string', const: response.text }] : [])];
  return { description: response.description, ...(options.length === 1 ? options[0] : { anyOf: options }) };
}

const exportNameOf = (operationId: string, part: ApiSchemaPart): string => `${operationId}_${part.replace('-', '_')}`;

/** Every schema of one operation, in a fixed order: params, query, request, responses by status. */
export function operationSchemas(api: ApiModel, op: ApiOperationModel): ApiSchema[] {
  const make = (part: ApiSchemaPart, title: string, body: JsonSchema): ApiSchema => ({
    operationId: op.operationId,
    part,
    exportName: exportNameOf(op.operationId, part),
    id: `${ID_PREFIX}:${op.operationId}:${part}`,
    path: `api/schemas/${op.operationId}/${part}.schema.json`,
    schema: { $schema: DIALECT, $id: `${ID_PREFIX}:${op.operationId}:${part}`, title: `${op.operationId} ${title}`, ...body },
  });
  const schemas: ApiSchema[] = [];
  if (op.params.length > 0) schemas.push(make('params', 'path parameters', fieldsObject(op.params, (f) => apiFieldSchema(f))));
  if (op.query.length > 0) schemas.push(make('query', 'query parameters', fieldsObject(op.query, querySchema)));
  if (op.request) schemas.push(make('request', 'request body (strict: only documented fields may be sent)', withDefs(api, [op.request], 'strict', apiTypeSchema(op.request))));
  for (const response of op.responses) {
    schemas.push(make(`response-${response.status}`, `response ${response.status} body (tolerant: additions may appear)`, withDefs(api, response.json ?? [], 'tolerant', responseBody(response))));
  }
  return schemas;
}

export function apiSchemas(api: ApiModel): ApiSchema[] {
  return api.operations.flatMap((op) => operationSchemas(api, op));
}

export function emitApiSchemas(model: CatalogModel): EmittedFile[] {
  if (!model.api) return [];
  const banner = bannerText(model.api.sourceFiles);
  return apiSchemas(model.api).map((s) => ({ path: s.path, contents: stableJson({ $comment: banner, ...s.schema }) }));
}
