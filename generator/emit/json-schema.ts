import { bannerText, eventSources } from '../common/banner.js';
import { schemaIds, schemaPaths } from '../common/schema-ids.js';
import { reachableSharedTypes } from '../common/shared-types.js';
import { stableJson } from '../common/text.js';
import type { CatalogModel, EventVersionModel, FieldModel, SharedTypeModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { fieldsSchema, jsonSchemaDialect, objectTypeSchema, type JsonSchema, type SchemaMode } from './schema-for.js';

/** The events' schemas: every named type a schema reaches is in its own `$defs`. */
const IN_DEFS = jsonSchemaDialect();

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

function sharedDefs(model: CatalogModel, fields: readonly FieldModel[], mode: SchemaMode): JsonSchema | undefined {
  const reached = reachableSharedTypes(model.sharedTypes, fields);
  if (reached.length === 0) return undefined;
  return Object.fromEntries(reached.map((shared) => [shared.name, objectTypeSchema(shared, mode, IN_DEFS)]));
}

function eventDescription(event: EventVersionModel): string {
  const parts = [`Payload of ${event.type} ${event.version} (catalog name ${event.name}).`];
  if (event.description) parts.push(event.description);
  if (event.open) parts.push(`Open: the catalog does not show every field ("${event.open.seed}"), so unlisted properties are accepted in every mode.`);
  return parts.join(' ');
}

/** Self-contained payload schema: shared types it reaches are in `$defs`. */
export function payloadSchema(model: CatalogModel, event: EventVersionModel, mode: SchemaMode = 'tolerant'): JsonSchema {
  const body = { ...fieldsSchema(event.fields, IN_DEFS), ...(mode === 'strict' && !event.open && { additionalProperties: false }) };
  const defs = sharedDefs(model, event.fields, mode);
  return {
    $schema: DIALECT,
    $id: schemaIds.payload(event) + (mode === 'strict' ? ':strict' : ''),
    title: `${event.type} ${event.version} payload`,
    description: eventDescription(event),
    ...body,
    // An open payload says so explicitly, whatever the mode.
    ...(event.open && { additionalProperties: true }),
    ...(defs && { $defs: defs }),
  };
}

/** The full message: the envelope (`type`, `version`, `payload`; other keys tolerated) around the payload. */
export function messageSchema(model: CatalogModel, event: EventVersionModel, mode: SchemaMode = 'tolerant'): JsonSchema {
  const payload = payloadSchema(model, event, mode);
  const { $defs, ...payloadBody } = withoutKeys(payload, ['$schema', '$id']);
  return {
    $schema: DIALECT,
    $id: schemaIds.message(event) + (mode === 'strict' ? ':strict' : ''),
    title: `${event.type} ${event.version} message`,
    description: `A ${event.type} ${event.version} message on the bus. Keys other than type, version and payload (ids, timestamps, trace headers) are tolerated.`,
    type: 'object',
    properties: {
      type: { const: event.type },
      version: { const: event.version },
      payload: { $ref: '#/$defs/payload' },
    },
    required: ['type', 'version', 'payload'],
    $defs: { payload: payloadBody, ...($defs as JsonSchema | undefined) },
  };
}

/** A schema without some top-level keywords (a schema embedded in another drops `$schema` and `$id`). */
export function withoutKeys(schema: JsonSchema, keys: readonly string[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !keys.includes(key)));
}

/** One shared type on its own (for consumers who reference it directly). */
export function sharedTypeSchema(model: CatalogModel, shared: SharedTypeModel): JsonSchema {
  const self: FieldModel = { name: shared.name, type: { kind: 'named', name: shared.name }, optional: false, nullable: false, position: shared.position };
  const defs = sharedDefs(model, [self], 'tolerant') ?? {};
  const { [shared.name]: body, ...others } = defs as Record<string, JsonSchema>;
  return {
    $schema: DIALECT,
    $id: schemaIds.shared(shared.name),
    ...body,
    ...(Object.keys(others).length > 0 && { $defs: others }),
  };
}

/** The banner of a JSON file, which has no comments: `$comment` first. */
const withBanner = (sources: readonly string[], schema: JsonSchema): string => stableJson({ $comment: bannerText(sources), ...schema });

export function emitSchemas(model: CatalogModel): EmittedFile[] {
  const files: EmittedFile[] = [];
  for (const event of model.events) {
    const sources = eventSources(model, event);
    files.push({ path: schemaPaths.payload(event), contents: withBanner(sources, payloadSchema(model, event)) });
    files.push({ path: schemaPaths.message(event), contents: withBanner(sources, messageSchema(model, event)) });
  }
  for (const shared of model.sharedTypes) {
    files.push({ path: schemaPaths.shared(shared.name), contents: withBanner([shared.position.file], sharedTypeSchema(model, shared)) });
  }
  return files;
}
