/**
 * `openapi.yaml`: the REST API as an OpenAPI 3.1 document. Schemas are the 2020-12 ones of
 * `api-json-schema.ts` (OpenAPI 3.1's own dialect) under `components.schemas`, the same the
 * package's validators are compiled from: request bodies strict, response bodies tolerant; a
 * type both sides use, whose strict shape differs, is written twice (`<Name>` tolerant,
 * `<Name>Strict`). The `{base_url}` server variable; the `Authorization` header as the
 * security scheme; one operation per endpoint, with every status the seed names, in the one
 * tag the catalog groups it under (tags defined once, at the top, with descriptions). Responses
 * whose body the seed does not show have no content, and say so in its words.
 */
import { stringify } from 'yaml';
import { bannerText } from '../common/banner.js';
import { PACKAGE_LICENSE } from '../common/package-license.js';
import { pointerToken } from '../../runtime/contract/json-pointer.js';
import { reachableTypes } from '../common/shared-types.js';
import type { ApiModel, ApiOperationModel, ApiResponseModel, CatalogModel, FieldModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { fieldSchema, jsonSchemaDialect, objectTypeSchema, typeSchema, type JsonSchema, type SchemaDialect, type SchemaMode } from './schema-for.js';

export const OPENAPI_PATH = 'openapi.yaml';

const COMPONENTS = '#/components/schemas/';
const SECURITY_SCHEME = 'accessToken';
/** The suffix of a type's strict component where its tolerant one is also needed. */
const STRICT_SUFFIX = 'Strict';

/** Component names of the API's types, in each mode. */
interface ComponentNames {
  /** Types a response body reaches: their plain component is tolerant. */
  inResponses: ReadonlySet<string>;
  /** Types whose strict shape differs from their tolerant one and which responses also use. */
  split: ReadonlySet<string>;
  /** Each mode's schemas, whose named types are `$ref`s to that mode's components. */
  dialect: Record<SchemaMode, SchemaDialect>;
}

/**
 * A type needs two components when responses reach it (tolerant) and requests reach it too,
 * with a different strict shape: it is closed, or reaches a closed type.
 */
function componentNames(api: ApiModel): ComponentNames {
  const inRequests = new Set(reachableTypes(api.types, api.operations.flatMap((op) => (op.request ? [op.request] : []))).map((t) => t.name));
  const inResponses = new Set(reachableTypes(api.types, api.operations.flatMap((op) => op.responses.flatMap((r) => r.json ?? []))).map((t) => t.name));
  const split = new Set<string>();
  for (const type of api.types) {
    if (!inRequests.has(type.name) || !inResponses.has(type.name)) continue;
    const reached = reachableTypes(api.types, [{ kind: 'named', name: type.name }]);
    if (reached.some((t) => t.open === false)) split.add(type.name);
  }
  const named = (name: string): string => `${COMPONENTS}${pointerToken(name)}`;
  return { inResponses, split, dialect: { tolerant: jsonSchemaDialect(named), strict: jsonSchemaDialect((name) => named(split.has(name) ? `${name}${STRICT_SUFFIX}` : name)) } };
}

/** What the document says of the API as a whole: the catalog's description, the checking rules, the seed's contradictions. */
function infoDescription(api: ApiModel): string {
  return [
    ...(api.description ? [api.description, ''] : []),
    'Requests are strict: only documented fields may be sent, except in objects whose other fields are not shown (`additionalProperties: true`). Responses are tolerant: fields added later are accepted.',
    ...(api.contradictions.length > 0 ? ['', 'Where the seed contradicts itself, this contract accepts what it shows:', '', ...api.contradictions.map((c) => `- ${c.topic}: ${c.accepted} (the seed: “${c.seed}”)`)] : []),
  ].join('\n');
}

function parameter(field: FieldModel, where: 'path' | 'query', names: ComponentNames): JsonSchema {
  const { description, ...schema } = fieldSchema(field, names.dialect.strict);
  return { name: field.name, in: where, required: where === 'path' || !field.optional, ...(description !== undefined && { description }), schema };
}

function response(r: ApiResponseModel, names: ComponentNames): JsonSchema {
  if (r.notShown !== undefined) return { description: `${r.description}. Body: ${r.notShown}`, 'x-not-shown': r.notShown };
  const content: JsonSchema = {};
  const json = (r.json ?? []).map((t) => typeSchema(t, names.dialect.tolerant));
  if (json.length > 0) content['application/json'] = { schema: json.length === 1 ? json[0] : { anyOf: json } };
  if (r.text !== undefined) content['text/plain'] = { schema: { type: 'string', const: r.text } };
  return { description: r.description, content };
}

function operation(op: ApiOperationModel, names: ComponentNames, tag: string | undefined): JsonSchema {
  const parameters = [...op.params.map((p) => parameter(p, 'path', names)), ...op.query.map((q) => parameter(q, 'query', names))];
  return {
    ...(tag !== undefined && { tags: [tag] }),
    operationId: op.operationId,
    ...(op.summary !== undefined && { summary: op.summary }),
    ...(op.description !== undefined && { description: op.description }),
    ...(parameters.length > 0 && { parameters }),
    ...(op.request && { requestBody: { required: true, content: { 'application/json': { schema: typeSchema(op.request, names.dialect.strict) } } } }),
    responses: Object.fromEntries(op.responses.map((r) => [String(r.status), response(r, names)])),
  };
}

/** Each type's components: one, in the mode its users need (tolerant where responses reach it), or both when they differ. */
function componentSchemas(api: ApiModel, names: ComponentNames): JsonSchema {
  const schemas: JsonSchema = {};
  for (const type of api.types) {
    const mode: SchemaMode = names.inResponses.has(type.name) ? 'tolerant' : 'strict';
    const schema = objectTypeSchema(type, mode, names.dialect[mode]);
    // An open type says so in both modes.
    schemas[type.name] = type.open === false ? schema : { ...schema, additionalProperties: true };
    if (names.split.has(type.name)) schemas[`${type.name}${STRICT_SUFFIX}`] = objectTypeSchema(type, 'strict', names.dialect.strict);
  }
  return schemas;
}

export function openApiDocument(api: ApiModel): JsonSchema {
  const names = componentNames(api);
  const tagOf = new Map(api.tags.flatMap((tag) => tag.operations.map((id) => [id, tag.name] as const)));
  const paths: JsonSchema = {};
  for (const op of api.operations) paths[op.path] = { ...(paths[op.path] as JsonSchema | undefined), [op.method.toLowerCase()]: operation(op, names, tagOf.get(op.operationId)) };
  return {
    openapi: '3.1.0',
    info: {
      title: api.title,
      version: 'v1',
      description: infoDescription(api),
      ...(api.contact !== undefined && { contact: { name: api.contact } }),
      license: { name: PACKAGE_LICENSE, identifier: PACKAGE_LICENSE },
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    // The variable carries no description: swagger-parser's bundled 3.1 schema refuses one there.
    servers: [{ url: '{base_url}', description: 'The base address of the service (not shown). All paths start with /v1/data-import/ below it.', variables: { base_url: { default: 'https://api.example.invalid' } } }],
    security: [{ [SECURITY_SCHEME]: [] }],
    ...(api.tags.length > 0 && { tags: api.tags.map(({ name, description }) => ({ name, description })) }),
    paths,
    components: {
      schemas: componentSchemas(api, names),
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'An access token from the GraphQL mutation `ObtainPlatformToken`. The request example writes the header as `Authorization: Token <ACCESS_TOKEN>`; the prose says the value is the token.',
        },
      },
    },
    'x-gaps': api.gaps.map(({ topic, seed }) => ({ topic, seed })),
    'x-contradictions': api.contradictions.map(({ topic, seed, accepted }) => ({ topic, seed, accepted })),
  };
}

export function emitOpenApi(model: CatalogModel): EmittedFile[] {
  if (!model.api) return [];
  const text = stringify(openApiDocument(model.api), { lineWidth: 0, aliasDuplicateObjects: false });
  return [{ path: OPENAPI_PATH, contents: `# ${bannerText(model.api.sourceFiles)}\n${text}` }];
}
