/**
 * `openapi.yaml`: the REST API as an OpenAPI 3.1 document. Schemas are the 2020-12 ones of
 * `api-json-schema.ts` (OpenAPI 3.1's own dialect), each API type written once under
 * `components.schemas`; the `{base_url}` server variable; the `Authorization` header as the
 * security scheme; one operation per endpoint, with every status the seed names. Responses
 * whose body the seed does not show have no content, and say so in its words.
 */
import { stringify } from 'yaml';
import { bannerText } from '../common/banner.js';
import type { ApiFieldModel, ApiModel, ApiOperationModel, ApiResponseModel, CatalogModel } from '../model.js';
import { apiFieldSchema, apiObjectSchema, apiTypeSchema } from './api-json-schema.js';
import type { EmittedFile } from './emitted-file.js';
import type { JsonSchema } from './json-schema.js';

export const OPENAPI_PATH = 'openapi.yaml';

const COMPONENTS = '#/components/schemas/';
const SECURITY_SCHEME = 'accessToken';

/** What the document says of the API as a whole: the catalog's description, the checking rules, the seed's contradictions. */
function infoDescription(api: ApiModel): string {
  return [
    ...(api.description ? [api.description, ''] : []),
    'Requests are strict: only documented fields may be sent, except in objects whose other fields are not shown (`additionalProperties: true`). Responses are tolerant: fields added later are accepted.',
    ...(api.contradictions.length > 0 ? ['', 'Where the seed contradicts itself, this contract accepts what it shows:', '', ...api.contradictions.map((c) => `- ${c.topic}: ${c.accepted} (the seed: “${c.seed}”)`)] : []),
  ].join('\n');
}

function parameter(field: ApiFieldModel, where: 'path' | 'query'): JsonSchema {
  const { description, ...schema } = apiFieldSchema(field, COMPONENTS);
  return { name: field.name, in: where, required: where === 'path' || !field.optional, ...(description !== undefined && { description }), schema };
}

function response(r: ApiResponseModel): JsonSchema {
  if (r.notShown !== undefined) return { description: `${r.description}. Body: ${r.notShown}`, 'x-not-shown': r.notShown };
  const content: JsonSchema = {};
  const json = (r.json ?? []).map((t) => apiTypeSchema(t, COMPONENTS));
  if (json.length > 0) content['application/json'] = { schema: json.length === 1 ? json[0] : { anyOf: json } };
  if (r.text !== undefined) content['text/plain'] = { schema: { type: 'string', const: r.text } };
  return { description: r.description, content };
}

function operation(op: ApiOperationModel): JsonSchema {
  const parameters = [...op.params.map((p) => parameter(p, 'path')), ...op.query.map((q) => parameter(q, 'query'))];
  return {
    operationId: op.operationId,
    ...(op.description !== undefined && { description: op.description }),
    ...(parameters.length > 0 && { parameters }),
    ...(op.request && { requestBody: { required: true, content: { 'application/json': { schema: apiTypeSchema(op.request, COMPONENTS) } } } }),
    responses: Object.fromEntries(op.responses.map((r) => [String(r.status), response(r)])),
  };
}

export function openApiDocument(api: ApiModel): JsonSchema {
  const paths: JsonSchema = {};
  for (const op of api.operations) paths[op.path] = { ...(paths[op.path] as JsonSchema | undefined), [op.method.toLowerCase()]: operation(op) };
  const schemas = Object.fromEntries(
    api.types.map((t) => {
      // Components are the tolerant shapes (responses); an open type says so explicitly.
      const schema = apiObjectSchema(t, 'tolerant', COMPONENTS);
      return [t.name, t.open === false ? schema : { ...schema, additionalProperties: true }];
    }),
  );
  return {
    openapi: '3.1.0',
    info: { title: api.title, version: 'v1', description: infoDescription(api) },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '{base_url}', description: 'All paths start with /v1/data-import/ below the base address.', variables: { base_url: { default: 'https://api.example.invalid', description: 'The base address of the service (not shown).' } } }],
    security: [{ [SECURITY_SCHEME]: [] }],
    paths,
    components: {
      schemas,
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
