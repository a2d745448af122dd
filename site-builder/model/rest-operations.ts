/**
 * Each REST operation as its page shows it: from the page model (parameters, bodies and
 * responses, the seed's retry rules, the events each outcome is assumed to publish: what the
 * Markdown reference shows too), with its fields as trees through the REST types, and from
 * the OpenAPI document what only the site adds: the base URL, and an example request and
 * response, each accepted by the built package's validators or the build stops.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PageApi, PageOperation, PageResponse } from '../../runtime/contract/page-model.js';
import type { OpenApiOperation, PackageValidators } from '../published.js';
import type { PublishedPackage } from '../read-package.js';
import { fieldTree, type FieldNode, type FieldSource } from './field-tree.js';
import { schemaExample } from './schema-example.js';
import { parseNotation, plainType } from './type-notation.js';

export interface RestBody {
  /** Plain words: `NotesRequest`, `list of NoteResult`, `text`. */
  typeText: string;
  /** The REST type it is, when it is exactly one (not a list of it). */
  named?: string;
  /** The fields of the body (of each item for a list), expanded through the REST types. */
  fields: FieldNode[];
  /** `text/plain` bodies: the seed's words. */
  text?: string;
}

export interface RestResponse {
  status: number;
  description: string;
  /** Each body it may have: any one of them. */
  bodies: RestBody[];
  /** The seed does not show the body. */
  notShown?: string;
  /** The seed's rule on sending the request again after this status. */
  retry?: PageResponse['retry'];
}

export interface RestOperation extends Pick<PageOperation, 'operationId' | 'method' | 'path' | 'summary' | 'description'> {
  params: FieldNode[];
  query: FieldNode[];
  request?: RestBody;
  responses: RestResponse[];
  /** Events published per outcome (an assumption: the seed does not say). */
  events: { outcome: string; events: { type: string; version: string }[] }[];
  example: { params?: Record<string, string>; request?: unknown; response?: { status: number; body: unknown } };
  /** Its published JSON Schemas, from `generated/` (`api/schemas/<operationId>/request.schema.json`…). */
  schemaFiles: string[];
}

type NamedTypes = ReadonlyMap<string, readonly FieldSource[]>;

function bodyOf(notation: string, types: NamedTypes): RestBody {
  const { base, depth } = parseNotation(notation);
  const fields = types.get(base);
  return { typeText: plainType(notation), ...(depth === 0 && fields && { named: base }), fields: fields ? fieldTree(fields, types, { path: [], via: [base] }) : [] };
}

function check(verdict: ReturnType<PackageValidators['validateRequest']>, what: string): void {
  if (!verdict.ok) throw new Error(`the example ${what} is refused by the package's own validator: ${verdict.error.message}`);
}

/** An example request and success response, from the OpenAPI document's schemas, checked by the package. */
function exampleOf(op: PageOperation, document: OpenApiOperation, pkg: PublishedPackage): RestOperation['example'] {
  const components = pkg.openapi.components.schemas;
  const parameters = document.parameters ?? [];
  const params = Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(schemaExample(p.schema, components, p.name))]));
  const requestSchema = document.requestBody?.content['application/json']?.schema;
  const request = requestSchema ? schemaExample(requestSchema, components) : undefined;
  check(pkg.validators.validateRequest(op.operationId, { ...(Object.keys(params).length > 0 && { params }), ...(request !== undefined && { body: request }) }), `request of ${op.operationId}`);
  const success = Object.entries(document.responses).find(([status, r]) => Number(status) < 300 && r.content?.['application/json']);
  let response: { status: number; body: unknown } | undefined;
  if (success) {
    response = { status: Number(success[0]), body: schemaExample(success[1].content!['application/json']!.schema, components) };
    check(pkg.validators.validateResponse(op.operationId, response.status, response.body), `${response.status} response of ${op.operationId}`);
  }
  return { ...(Object.keys(params).length > 0 && { params }), ...(request !== undefined && { request }), ...(response && { response }) };
}

function operationOf(op: PageOperation, types: NamedTypes, pkg: PublishedPackage): RestOperation {
  const document = pkg.openapi.paths[op.path]?.[op.method.toLowerCase()];
  if (!document || document.operationId !== op.operationId) throw new Error(`openapi.yaml has no ${op.method} ${op.path} with operationId ${op.operationId}`);
  return {
    operationId: op.operationId,
    method: op.method,
    path: op.path,
    ...(op.summary !== undefined && { summary: op.summary }),
    ...(op.description !== undefined && { description: op.description }),
    params: fieldTree(op.params, types),
    query: fieldTree(op.query, types),
    ...(op.request !== undefined && { request: bodyOf(op.request, types) }),
    responses: op.responses.map((r) => ({
      status: r.status,
      description: r.description,
      bodies: [...(r.json ?? []).map((notation) => bodyOf(notation, types)), ...(r.text !== undefined ? [{ typeText: 'text', fields: [], text: r.text }] : [])],
      ...(r.notShown !== undefined && { notShown: r.notShown }),
      ...(r.retry && { retry: r.retry }),
    })),
    events: op.emits.map((o) => ({ outcome: o.outcome, events: o.events.map((key) => ({ type: key.slice(0, key.lastIndexOf('@')), version: key.slice(key.lastIndexOf('@') + 1) })) })),
    example: exampleOf(op, document, pkg),
    schemaFiles: schemaFilesOf(pkg.root, op.operationId),
  };
}

function schemaFilesOf(root: string, operationId: string): string[] {
  const folder = `api/schemas/${operationId}`;
  const at = join(root, 'generated', folder);
  return existsSync(at) ? readdirSync(at).filter((name) => name.endsWith('.schema.json')).sort().map((name) => `${folder}/${name}`) : [];
}

/** The operations in the page model's order (the seed's). */
export function restOperations(pkg: PublishedPackage): RestOperation[] {
  const api: PageApi | undefined = pkg.pages.api;
  if (!api) return [];
  const types: NamedTypes = new Map(api.types.map((t) => [t.name, t.fields]));
  return api.operations.map((op) => operationOf(op, types, pkg));
}

/** The base address: the document's first server, its variables filled with their defaults. */
export function baseUrl(pkg: PublishedPackage): { template: string; example: string; description?: string } {
  const server = pkg.openapi.servers[0];
  if (!server) return { template: '', example: '' };
  const example = server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? name);
  return { template: server.url, example, ...(server.description && { description: server.description }) };
}
