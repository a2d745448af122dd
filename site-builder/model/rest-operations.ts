/**
 * Each REST operation as its page shows it: from the OpenAPI document (parameters, bodies,
 * responses, base URL, the header the token goes in), the package's operation data (which
 * events an outcome publishes, an assumption) and the client's retry rules; with an example
 * request and response, each accepted by the built package's validators or the build stops.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { retriesNetworkError, retriesStatus } from '../../runtime/rest/retry.js';
import type { JsonSchema, OpenApiOperation, PackageValidators } from '../published.js';
import type { PublishedPackage } from '../read-package.js';
import type { FieldNode } from './field-tree.js';
import { schemaExample } from './schema-example.js';
import { refName, resolve, schemaFields, schemaTypeText, type Components } from './schema-tree.js';

export interface RestBody {
  /** Plain words: `NotesRequest`, `list of NoteResult`, `text`. */
  typeText: string;
  /** The components its type names, each once, for the type tables. */
  types: string[];
  /** The fields of the body (of each item for a list), expanded through components. */
  fields: FieldNode[];
  /** `text/plain` bodies the document quotes. */
  text?: string;
}

export interface RestResponse {
  status: number;
  description: string;
  bodies: RestBody[];
  /** The seed does not show the body. */
  notShown?: string;
  /** The client retries this status. */
  retried: boolean;
}

export interface RestOperation {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  summary?: string;
  description?: string;
  tag?: string;
  params: FieldNode[];
  query: FieldNode[];
  request?: RestBody;
  responses: RestResponse[];
  /** Events the emulator publishes per outcome (an assumption: the seed does not say). */
  events: { outcome: string; events: { type: string; version: string }[] }[];
  /** A network error is retried (GETs only). */
  retriesNetworkError: boolean;
  example: { params?: Record<string, string>; request?: unknown; response?: { status: number; body: unknown } };
  /** Its published JSON Schemas, from `generated/` (`api/schemas/<operationId>/request.schema.json`…). */
  schemaFiles: string[];
}

/** Every component a schema names, to any depth, each once, in the order met. */
function namedTypes(schema: JsonSchema, components: Components, found: string[] = []): string[] {
  const name = refName(schema);
  if (name !== undefined) {
    if (found.includes(name)) return found;
    found.push(name);
  }
  const resolved = resolve(schema, components);
  for (const child of [...Object.values(resolved.properties ?? {}), ...(resolved.items ? [resolved.items] : []), ...(resolved.anyOf ?? []), ...(resolved.oneOf ?? [])]) {
    namedTypes(child, components, found);
  }
  return found;
}

function bodyOf(schema: JsonSchema, components: Components): RestBody {
  const alternatives = schema.anyOf ?? schema.oneOf ?? [schema];
  const objects = alternatives.map((s) => (s.items ? s.items : s));
  return {
    typeText: schemaTypeText(schema, components),
    types: namedTypes(schema, components),
    fields: objects.length === 1 ? schemaFields(objects[0]!, components) : [],
  };
}

function check(verdict: ReturnType<PackageValidators['validateRequest']>, what: string): void {
  if (!verdict.ok) throw new Error(`the example ${what} is refused by the package's own validator: ${verdict.error.message}`);
}

function operationOf(entry: { operationId: string; method: 'GET' | 'POST'; path: string }, op: OpenApiOperation, pkg: PublishedPackage): RestOperation {
  const components = pkg.openapi.components.schemas;
  const parameters = op.parameters ?? [];
  const asField = (p: (typeof parameters)[number]): FieldNode => ({
    name: p.name,
    path: [p.name],
    typeText: schemaTypeText(p.schema, components),
    required: p.required === true,
    alwaysPresent: p.required === true,
    nullable: false,
    via: [],
    ...(p.description && { description: p.description }),
    notes: [...(p.schema.default !== undefined ? [`default \`${JSON.stringify(p.schema.default)}\``] : []), ...(p.schema.minLength === 1 ? ['not empty'] : [])],
    children: [],
  });
  const requestSchema = op.requestBody?.content['application/json']?.schema;
  const responses: RestResponse[] = Object.entries(op.responses).map(([status, response]) => ({
    status: Number(status),
    description: response.description,
    bodies: [
      ...(response.content?.['application/json'] ? [bodyOf(response.content['application/json'].schema, components)] : []),
      ...(response.content?.['text/plain'] ? [{ typeText: 'text', types: [], fields: [], text: String(response.content['text/plain'].schema.const ?? '') }] : []),
    ],
    ...(response['x-not-shown'] && { notShown: response['x-not-shown'] }),
    retried: retriesStatus(entry.operationId, Number(status)),
  }));

  const params = Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(schemaExample(p.schema, components, p.name))]));
  const request = requestSchema ? schemaExample(requestSchema, components) : undefined;
  check(pkg.validators.validateRequest(entry.operationId, { ...(Object.keys(params).length > 0 && { params }), ...(request !== undefined && { body: request }) }), `request of ${entry.operationId}`);
  const success = Object.entries(op.responses).find(([status, r]) => Number(status) < 300 && r.content?.['application/json']);
  let response: { status: number; body: unknown } | undefined;
  if (success) {
    response = { status: Number(success[0]), body: schemaExample(success[1].content!['application/json']!.schema, components) };
    check(pkg.validators.validateResponse(entry.operationId, response.status, response.body), `${response.status} response of ${entry.operationId}`);
  }

  const mapping = pkg.operationEvents[entry.operationId] ?? {};
  return {
    ...entry,
    ...(op.summary && { summary: op.summary }),
    ...(op.description && { description: op.description }),
    ...(op.tags?.[0] && { tag: op.tags[0] }),
    params: parameters.filter((p) => p.in === 'path').map(asField),
    query: parameters.filter((p) => p.in === 'query').map(asField),
    ...(requestSchema && { request: bodyOf(requestSchema, components) }),
    responses,
    events: Object.entries(mapping).map(([outcome, events]) => ({ outcome, events: events.map(({ type, version }) => ({ type, version })) })),
    retriesNetworkError: retriesNetworkError(entry.method),
    example: { ...(Object.keys(params).length > 0 && { params }), ...(request !== undefined && { request }), ...(response && { response }) },
    schemaFiles: schemaFilesOf(pkg.root, entry.operationId),
  };
}

function schemaFilesOf(root: string, operationId: string): string[] {
  const folder = `api/schemas/${operationId}`;
  const at = join(root, 'generated', folder);
  return existsSync(at) ? readdirSync(at).filter((name) => name.endsWith('.schema.json')).sort().map((name) => `${folder}/${name}`) : [];
}

/** The operations in the package's order (`apiOperations`), each found in the OpenAPI document. */
export function restOperations(pkg: PublishedPackage): RestOperation[] {
  return pkg.operations.map((entry) => {
    const op = pkg.openapi.paths[entry.path]?.[entry.method.toLowerCase()];
    if (!op || op.operationId !== entry.operationId) throw new Error(`openapi.yaml has no ${entry.method} ${entry.path} with operationId ${entry.operationId}`);
    return operationOf(entry, op, pkg);
  });
}

/** The base address: the document's first server, its variables filled with their defaults. */
export function baseUrl(pkg: PublishedPackage): { template: string; example: string; description?: string } {
  const server = pkg.openapi.servers[0];
  if (!server) return { template: '', example: '' };
  const example = server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? name);
  return { template: server.url, example, ...(server.description && { description: server.description }) };
}
