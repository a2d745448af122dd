/**
 * `asyncapi.yaml`: the catalog as an AsyncAPI 3.0.0 document, for non-TypeScript consumers
 * and AsyncAPI tooling.
 *
 * - Schemas are AsyncAPI Schema (the draft-07 superset and AsyncAPI's default
 *   `schemaFormat`): @asyncapi/parser 3 supports only that and draft-07 JSON Schema out of
 *   the box, not 2020-12. They are derived from the tolerant 2020-12 payload schemas of
 *   `json-schema.ts` (same constraints), with `#/$defs/<name>` turned into
 *   `#/components/schemas/<name>`: shared types are written once and referenced.
 * - Layout: one channel (`bus`, address unknown) carrying every message, and one `receive`
 *   operation listing them all. The catalog shows no delivery rules, so no topic per type is
 *   invented; `info.description` says so. (Not one operation per type on the shared channel:
 *   each operation's `channel` reference makes @asyncapi/parser dereference the whole
 *   channel again, and the parse goes from ~2 s to ~9 s.)
 * - The envelope keys `type` and `version` are the message `headers` (documented as
 *   top-level keys of the JSON message next to `payload`, not transport headers).
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { bannerText } from '../common/banner.js';
import { gapEntry } from '../common/manifest.js';
import { pointerToken, schemaIds, schemaPaths } from '../common/schema-ids.js';
import { curlyQuote } from '../common/text.js';
import { typeNotation } from '../common/type-notation.js';
import type { CatalogModel, EventVersionModel, GapModel, TypeRef } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { payloadSchema, sharedTypeSchema, withoutKeys, type JsonSchema } from './json-schema.js';
import { markdownText } from '../common/safe-text.js';

export const ASYNCAPI_PATH = 'asyncapi.yaml';

/** The one channel every message is on. */
export const BUS_CHANNEL = 'bus';

/** The consumer's one operation: receive any message of the bus. */
export const RECEIVE_OPERATION = 'receiveEvents';

/** Keys under `components` must match this (AsyncAPI 3.0.0); catalog names always do. */
const COMPONENT_KEY = /^[a-zA-Z0-9.\-_]+$/;

function componentKey(name: string): string {
  if (!COMPONENT_KEY.test(name)) throw new Error(`"${name}" cannot be an AsyncAPI component key (allowed: ${COMPONENT_KEY.source})`);
  return name;
}

/**
 * A 2020-12 schema of `json-schema.ts` as AsyncAPI Schema: `$schema`, `$id` and `$defs`
 * dropped (the definitions become `components.schemas`), and `#/$defs/…` references
 * pointed there. Every keyword those schemas use means the same in draft-07.
 */
function toAsyncApiSchema(schema: JsonSchema): JsonSchema {
  const convert = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(convert);
    if (value === null || typeof value !== 'object') return value;
    const out: JsonSchema = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')) out.$ref = `#/components/schemas/${inner.slice('#/$defs/'.length)}`;
      else if (key === 'description' && typeof inner === 'string') out[key] = markdownText(inner);
      else out[key] = convert(inner);
    }
    return out;
  };
  return convert(withoutKeys(schema, ['$schema', '$id', '$defs'])) as JsonSchema;
}

function gapLine(gap: GapModel): string {
  const where = `(${markdownText(`${gap.section}, ${gap.position.file}:${gap.position.line}`)})`;
  switch (gap.kind) {
    case 'not_shown':
      return `- **${markdownText(gap.topic)}**: ${curlyQuote(markdownText(gap.seed))} ${where}`;
    case 'events_not_shown':
      return `- **events not shown** after \`${gap.after ?? 'the start'}\`${gap.before ? ` up to \`${gap.before}\`` : ''}: ${curlyQuote(markdownText(gap.seed))} ${where}`;
    case 'unnamed_event':
      return `- **an unnamed event** (no message here) of which only ${gap.visibleFields.map((f) => `\`${f.name}: ${typeNotation(f.type)}\``).join(' and ')} are visible: ${curlyQuote(markdownText(gap.seed))} ${where}`;
  }
}

function infoDescription(model: CatalogModel, types: readonly string[]): string {
  const open = model.events.filter((e) => e.open);
  const deliveryGap = model.gaps.find((g) => g.kind === 'not_shown' && g.topic === 'delivery rules');
  const isObject = (type: TypeRef): boolean => (type.kind === 'array' ? isObject(type.items) : type.kind === 'primitive' && type.name === 'object');
  const hasObjectFields = [...model.events, ...model.sharedTypes].some((owner) => owner.fields.some((f) => isObject(f.type)));
  const lines = [
    `The events of the data-import platform's event bus, generated from the event catalog: ${types.length} event types, ${model.events.length} event versions (one message each), ${model.sharedTypes.length} shared object types (\`components.schemas\`).`,
    '',
    'Payload schemas are AsyncAPI Schema (the default schema format, a JSON Schema draft-07 superset). They state the same constraints as the JSON Schema 2020-12 files of the package (`schemas/events/<type>/<version>/payload.schema.json`, the tolerant variant): properties the catalog does not list are allowed.',
    '',
    '## Assumptions: delivery rules are not in the catalog',
    '',
    `${deliveryGap ? `The catalog says: ${curlyQuote(markdownText(deliveryGap.seed))}` : 'The catalog states no delivery rules.'} This document therefore assumes only what the package itself assumes:`,
    '',
    `- **One channel, \`${BUS_CHANNEL}\`, with an unknown address** (\`address: null\`). Every message travels on it and is told apart by the envelope's \`type\` and \`version\`, as the package's \`validateEvent\` and \`createHandler\` read one stream of mixed events. No topic per event type is invented, since the bus's name, routing and filtering are not shown.`,
    `- **One \`receive\` operation, \`${RECEIVE_OPERATION}\`**, listing every message: the consumer's view (one stream, dispatched on \`type\` and \`version\`). Which service sends which event is not shown either, so there are no \`send\` operations.`,
    '- **The envelope**: a message is one JSON object `{ "type": "<event type>", "version": "<version>", "payload": { … } }`. The message `payload` is that `payload` object; the message `headers` describe `type` and `version`, which are top-level keys of the same JSON object (not transport headers). Other top-level keys a bus adds (ids, timestamps, trace headers) are tolerated. Ordering and delivery guarantees are unknown.',
    '',
    '## Gaps in the catalog',
    '',
    'What the catalog does not show is recorded, not invented (also as data in `x-gaps`):',
    '',
    ...model.gaps.map(gapLine),
    ...open.map((e) => `- **open event** \`${e.type}\` ${e.version}: ${curlyQuote(markdownText(e.open ? e.open.seed : ''))}; its payload has \`additionalProperties: true\`.`),
    ...(hasObjectFields ? ['- **`object` fields** have no inner schema: any object is accepted.'] : []),
    '- **Dates and timestamps** are plain strings: the catalog states no format, so none is enforced.',
  ];
  return lines.join('\n');
}

function messageDescription(event: EventVersionModel): string {
  const parts = [`${event.type} ${event.version} (catalog name \`${event.name}\`).`];
  if (event.description) parts.push(markdownText(event.description));
  if (event.open) parts.push(`**Open event**: the catalog does not show every field (${curlyQuote(markdownText(event.open.seed))}), so the payload accepts properties it does not list.`);
  if (event.extends.length > 0) parts.push(`Fields reused from: ${event.extends.map((r) => `\`${r}\``).join(', ')}.`);
  return parts.join(' ');
}

function envelopeHeaders(event: EventVersionModel): JsonSchema {
  return {
    type: 'object',
    description:
      'Envelope keys: top-level keys of the JSON message, next to `payload` (not transport headers). Other top-level keys (ids, timestamps, trace headers) are tolerated.',
    properties: {
      type: { type: 'string', const: event.type },
      version: { type: 'string', const: event.version },
    },
    required: ['type', 'version'],
  };
}

function message(model: CatalogModel, event: EventVersionModel): JsonSchema {
  return {
    name: event.name,
    title: `${event.type} ${event.version}`,
    ...(event.open && { summary: 'Open event: not every field is shown.' }),
    description: messageDescription(event),
    headers: envelopeHeaders(event),
    payload: toAsyncApiSchema(payloadSchema(model, event, 'tolerant')),
    tags: [{ name: event.section }],
    ...(event.open && { 'x-open': event.open.seed }),
    'x-json-schema': { payload: schemaIds.payload(event), message: schemaIds.message(event), file: schemaPaths.payload(event) },
  };
}

/** A short, stable fingerprint of what the document describes: the catalog carries no version of its own. */
function fingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 12);
}

export function asyncApiDocument(model: CatalogModel): JsonSchema {
  const types = [...new Set(model.events.map((e) => e.type))];

  const messages: JsonSchema = {};
  for (const event of model.events) messages[componentKey(event.name)] = message(model, event);
  const schemas: JsonSchema = {};
  for (const shared of model.sharedTypes) schemas[componentKey(shared.name)] = toAsyncApiSchema(sharedTypeSchema(model, shared));

  const channelMessages: JsonSchema = {};
  for (const event of model.events) channelMessages[event.name] = { $ref: `#/components/messages/${pointerToken(event.name)}` };
  const channels = {
    [BUS_CHANNEL]: {
      address: null,
      title: 'Event bus',
      description: 'The platform\'s event bus. Its name, addressing, ordering, guarantees, subscription and filtering are not shown in the catalog; every event version is a message on it, told apart by the envelope\'s `type` and `version`.',
      messages: channelMessages,
    },
  };

  const operations = {
    [RECEIVE_OPERATION]: {
      action: 'receive',
      channel: { $ref: `#/channels/${BUS_CHANNEL}` },
      title: 'Receive events',
      summary: 'Consume the events of the bus, any type and version; dispatch on the envelope\'s `type` and `version`.',
      messages: model.events.map((e) => ({ $ref: `#/channels/${BUS_CHANNEL}/messages/${pointerToken(e.name)}` })),
    },
  };

  const components = { schemas, messages };
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Data-import platform events',
      version: `0.0.0-catalog.${fingerprint({ channels, operations, components, gaps: model.gaps.map(gapEntry) })}`,
      description: infoDescription(model, types),
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components,
    'x-gaps': model.gaps.map(gapEntry),
  };
}

export function emitAsyncApi(model: CatalogModel): EmittedFile {
  const text = stringify(asyncApiDocument(model), { lineWidth: 0, aliasDuplicateObjects: false });
  return { path: ASYNCAPI_PATH, contents: `# ${bannerText(model.sourceFiles)}\n${text}` };
}
