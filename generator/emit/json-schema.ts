import { bannerText, eventSources } from '../common/banner.js';
import { pointerToken } from '../../runtime/contract/json-pointer.js';
import { schemaIds, schemaPaths } from '../common/schema-ids.js';
import { reachableSharedTypes } from '../common/shared-types.js';
import { stableJson } from '../common/text.js';
import type { CatalogModel, EventVersionModel, FieldModel, ObjectTypeModel, TypeRef } from '../model.js';
import type { EmittedFile } from './emitted-file.js';

/**
 * `tolerant`: unlisted properties are allowed (the published schemas).
 * `strict`: every object the catalog fully describes rejects unlisted properties; an open
 * event's payload still accepts them, and `object` fields (content not shown) always do.
 */
export type SchemaMode = 'tolerant' | 'strict';

export type JsonSchema = { [key: string]: unknown };

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
function typeSchema(type: TypeRef): JsonSchema {
  switch (type.kind) {
    case 'primitive':
      return { type: type.name };
    case 'array':
      return { type: 'array', items: typeSchema(type.items) };
    case 'named':
      return { $ref: `#/$defs/${pointerToken(type.name)}` };
  }
}

function fieldSchema(field: FieldModel): JsonSchema {
  let schema = typeSchema(field.type);
  if (field.nullable) {
    schema = 'type' in schema && typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };
  }
  return field.description === undefined ? schema : { description: field.description, ...schema };
}

/** An object schema for a list of fields; `closed` adds `additionalProperties: false`. */
function objectSchema(fields: readonly FieldModel[], closed: boolean): JsonSchema {
  const properties: JsonSchema = {};
  for (const field of fields) properties[field.name] = fieldSchema(field);
  const required = fields.filter((f) => !f.optional).map((f) => f.name);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 && { required }),
    ...(closed && { additionalProperties: false }),
  };
}

function sharedDefs(model: CatalogModel, fields: readonly FieldModel[], mode: SchemaMode): JsonSchema | undefined {
  const reached = reachableSharedTypes(model.sharedTypes, fields);
  if (reached.length === 0) return undefined;
  const defs: JsonSchema = {};
  for (const shared of reached) {
    defs[shared.name] = { title: shared.name, ...describe(shared.description), ...objectSchema(shared.fields, mode === 'strict') };
  }
  return defs;
}

const describe = (description: string | undefined): JsonSchema => (description === undefined ? {} : { description });

function eventDescription(event: EventVersionModel): string {
  const parts = [`Payload of ${event.type} ${event.version} (catalog name ${event.name}).`];
  if (event.description) parts.push(event.description);
  if (event.open) parts.push(`Open: the catalog does not show every field ("${event.open.seed}"), so unlisted properties are accepted in every mode.`);
  return parts.join(' ');
}

/** Self-contained payload schema: shared types it reaches are in `$defs`. */
export function payloadSchema(model: CatalogModel, event: EventVersionModel, mode: SchemaMode = 'tolerant'): JsonSchema {
  const body = objectSchema(event.fields, mode === 'strict' && !event.open);
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
export function sharedTypeSchema(model: CatalogModel, shared: ObjectTypeModel): JsonSchema {
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
