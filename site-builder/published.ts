/**
 * The shapes of what the package publishes, as far as the site reads them: the manifest
 * (`generated/manifest.json`), the OpenAPI document (`generated/openapi.yaml`) and the
 * validators of the built package (`dist/`). The page model (`generated/docs/pages.json`) has
 * its shape in `runtime/contract/page-model.ts`, shared with the generator that writes it.
 */

export interface ManifestField {
  name: string;
  /** Catalog notation: a primitive or shared type name, then `[]` per array level. */
  type: string;
  optional: boolean;
  nullable?: boolean;
}

export interface ManifestEvent {
  type: string;
  version: string;
  /** The catalog name (`account.created-v1`). */
  name: string;
  open: boolean;
  /** The seed's words when `open`. */
  openSeed?: string;
  tsName: string;
  /** From `generated/`: `schemas/events/<type>/<version>/message.schema.json`. */
  schema: string;
  payloadSchema: string;
  fields: ManifestField[];
  section: string;
  /** The catalog files its output depends on. */
  sources: string[];
}

export interface ManifestSharedType {
  name: string;
  tsName: string;
  schema: string;
  fields: ManifestField[];
  /** `type@version` of every event version reaching it. */
  usedBy: string[];
  section: string;
}

interface GapBase {
  seed: string;
  section: string;
}
export type ManifestGap =
  | (GapBase & { kind: 'not_shown'; topic: string })
  | (GapBase & { kind: 'events_not_shown'; after: string | null; before: string | null })
  | (GapBase & { kind: 'unnamed_event'; after: string | null; before: string | null; visibleFields: ManifestField[] });

export interface Manifest {
  events: ManifestEvent[];
  sharedTypes: ManifestSharedType[];
  gaps: ManifestGap[];
}

/** The JSON Schema keywords the site reads from the OpenAPI document's schemas. */
export interface JsonSchema {
  $ref?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  default?: unknown;
  examples?: unknown[];
  minItems?: number;
  minLength?: number;
  minProperties?: number;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema: JsonSchema }>;
  'x-not-shown'?: string;
}

export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, OpenApiResponse>;
}

export interface OpenApiDocument {
  info: { title: string; description?: string };
  servers: { url: string; description?: string; variables?: Record<string, { default: string }> }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes?: Record<string, { name?: string; description?: string }> };
  'x-gaps'?: { topic: string; seed: string }[];
}

/** A verdict of the package's validators, as far as the site reads it. */
export type Verdict = { ok: true } | { ok: false; error: { code: string; message: string; issues: readonly { path: string; code: string; message: string }[] } };

/** The built package's validators (`dist/index.cjs`, `dist/rest.cjs`). */
export interface PackageValidators {
  validateEvent(message: unknown, options?: { mode?: 'tolerant' | 'strict' }): Verdict;
  validateRequest(operationId: string, parts: { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown }): Verdict;
  validateResponse(operationId: string, status: number, body: unknown): Verdict;
}
