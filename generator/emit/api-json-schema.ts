import { bannerText } from '../common/banner.js';
import { reachableTypes } from '../common/shared-types.js';
import { stableJson } from '../common/text.js';
import type { ApiModel, ApiOperationModel, ApiResponseModel, CatalogModel, FieldModel, TypeRef } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { fieldSchema, fieldsSchema, jsonSchemaDialect, objectTypeSchema, typeSchema, type JsonSchema, type SchemaDialect, type SchemaMode } from './schema-for.js';

/**
 * JSON Schemas (2020-12) of the REST API: one per part of each operation a caller or server
 * checks (path parameters, query, request body, each response status), self-contained
 * (`$defs`). Requests are strict ("Only documented fields may be sent"), except objects the
 * seed leaves open; responses are tolerant ("additions to existing endpoints may appear").
 */

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const ID_PREFIX = 'urn:data-import-api';

/** The operations' schemas: every named type a schema reaches is in its own `$defs`. */
const IN_DEFS = jsonSchemaDialect();

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

/** A response body: the seed's JSON types (any of them), its exact text, or anything where the seed does not show it. */
export function responseBodySchema(response: ApiResponseModel, dialect: SchemaDialect): JsonSchema {
  if (response.notShown !== undefined) return { description: `${response.description}. Body: ${response.notShown}`, ...dialect.anything };
  const options: JsonSchema[] = [...(response.json ?? []).map((t) => typeSchema(t, dialect)), ...(response.text !== undefined ? [{ type: 'string', const: response.text }] : [])];
  return { description: response.description, ...(options.length === 1 ? options[0] : { anyOf: options }) };
}

function withDefs(api: ApiModel, roots: readonly TypeRef[], mode: SchemaMode, body: JsonSchema): JsonSchema {
  const reached = reachableTypes(api.types, roots);
  if (reached.length === 0) return body;
  return { ...body, $defs: Object.fromEntries(reached.map((t) => [t.name, objectTypeSchema(t, mode, IN_DEFS)])) };
}

function querySchema(field: FieldModel): JsonSchema {
  const base = fieldSchema(field, IN_DEFS);
  return base.type === 'boolean' ? { ...Object.fromEntries(Object.entries(base).filter(([k]) => k !== 'type')), ...QUERY_BOOLEAN } : base;
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
  if (op.params.length > 0) schemas.push(make('params', 'path parameters', { ...fieldsSchema(op.params, IN_DEFS), additionalProperties: false }));
  if (op.query.length > 0) schemas.push(make('query', 'query parameters', { ...fieldsSchema(op.query, IN_DEFS, querySchema), additionalProperties: false }));
  if (op.request) schemas.push(make('request', 'request body (strict: only documented fields may be sent)', withDefs(api, [op.request], 'strict', typeSchema(op.request, IN_DEFS))));
  for (const response of op.responses) {
    schemas.push(make(`response-${response.status}`, `response ${response.status} body (tolerant: additions may appear)`, withDefs(api, response.json ?? [], 'tolerant', responseBodySchema(response, IN_DEFS))));
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
