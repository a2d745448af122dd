/**
 * `asyncapi.yaml`: the catalog as an AsyncAPI 3.0.0 document, for non-TypeScript consumers
 * and AsyncAPI tooling.
 *
 * - Schemas are AsyncAPI Schema (the draft-07 superset and AsyncAPI's default
 *   `schemaFormat`): @asyncapi/parser 3 supports only that and draft-07 JSON Schema out of
 *   the box, not 2020-12. They are derived from the tolerant 2020-12 payload schemas of
 *   `json-schema.ts` (same constraints), with `#/$defs/<name>` turned into
 *   `#/components/schemas/<name>`: shared types are written once and referenced. Shared types
 *   no event reaches are left out (no message uses them) and named in `info.description`.
 * - Layout: the catalog shows no delivery rules, so the document describes the package's own
 *   transports and defaults, and says so: a server per adapter (NATS JetStream, Redis
 *   Streams; the host is the deployment's), a channel per server carrying every message
 *   (NATS: the subject `publishEvent` uses by default, `events.{type}.{version}`; Redis: the
 *   stream key the caller chooses, `{stream}`), and one `receive` operation per channel listing
 *   them all. (Not one operation per event: each operation's `channel` reference makes
 *   @asyncapi/parser dereference the whole channel again, and 228 of them take the parse from
 *   ~2 s to ~9 s.)
 * - Tags: one per catalog section, defined once in `components.tags` with a description,
 *   referenced by `info.tags` and by each message.
 * - The envelope keys `type` and `version` are the message `headers` (documented as
 *   top-level keys of the JSON message next to `payload`, not transport headers).
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { bannerText } from '../common/banner.js';
import { gapEntry } from '../common/manifest.js';
import { pointerToken } from '../../runtime/contract/json-pointer.js';
import { schemaIds, schemaPaths } from '../common/schema-ids.js';
import { curlyQuote, plural } from '../common/text.js';
import { typeNotation } from '../common/type-notation.js';
import type { CatalogModel, EventVersionModel, GapModel, ObjectTypeModel, TypeRef } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { payloadSchema, sharedTypeSchema, withoutKeys } from './json-schema.js';
import type { JsonSchema } from './schema-for.js';
import { markdownText } from '../common/safe-text.js';
import { PACKAGE_LICENSE } from '../common/package-license.js';

export const ASYNCAPI_PATH = 'asyncapi.yaml';

const PACKAGE = '@data-import/event-catalog';

/** A transport of the package: its server, the channel that carries every message on it, the consumer's operation there. */
interface Transport {
  /** The package's entry for it (`<pkg>/<entry>`). */
  entry: string;
  server: string;
  protocol: string;
  serverTitle: string;
  serverDescription: string;
  /** What `host` may be, for a local broker on its usual port. */
  exampleHost: string;
  channel: string;
  /** The channel's address: the package's default, with AsyncAPI parameters. */
  address: string;
  channelTitle: string;
  channelDescription: string;
  parameters: Record<string, { description: string; examples: string[] }>;
  operation: string;
  operationTitle: string;
}

/**
 * The package's transports, in the order of its entries. The addresses are the package's
 * defaults, `eventSubject` of `<pkg>/nats` and the `stream` option of `<pkg>/redis-streams`
 * (a test holds them to the runtime's).
 */
export const TRANSPORTS: readonly Transport[] = [
  {
    entry: 'nats',
    server: 'nats',
    protocol: 'nats',
    serverTitle: 'NATS JetStream',
    serverDescription: `A NATS server with JetStream, as \`${PACKAGE}/nats\` uses it (\`publishEvent\`, \`consumeEvents\`). The catalog does not name the bus: \`host\` is your deployment's.`,
    exampleHost: 'localhost:4222',
    channel: 'nats',
    address: 'events.{type}.{version}',
    channelTitle: 'Events on NATS subjects',
    channelDescription:
      `The subject \`publishEvent\` of \`${PACKAGE}/nats\` publishes an event on by default: \`events.<type>.<version>\` (\`events.account.created.v1\`; the dots of a type are subject tokens too). ` +
      "A publisher may pass another `subject`; a consumer reads whatever subjects its JetStream stream captures (for example `events.>`). Every message may travel here, told apart by the envelope's `type` and `version`.",
    parameters: {
      type: { description: "The envelope's `type`: the event type.", examples: ['account.created'] },
      version: { description: "The envelope's `version`.", examples: ['v1'] },
    },
    operation: 'receiveFromNats',
    operationTitle: 'Receive events from NATS',
  },
  {
    entry: 'redis-streams',
    server: 'redis',
    protocol: 'redis',
    serverTitle: 'Redis Streams',
    serverDescription: `A Redis server, as \`${PACKAGE}/redis-streams\` uses it (streams and consumer groups). The catalog does not name the bus: \`host\` is your deployment's.`,
    exampleHost: 'localhost:6379',
    channel: 'redis-streams',
    address: '{stream}',
    channelTitle: 'Events on a Redis stream',
    channelDescription:
      "One Redis stream holds every event. Its key is the caller's choice (`publishEvent(redis, event, { stream })`, `consumeEvents(redis, handler, { stream, group, consumer })`): the package has no default. " +
      "Each entry holds the message's JSON text in its field `message`; events are told apart by the envelope's `type` and `version`.",
    parameters: {
      stream: { description: 'The key of the stream, as the publisher and the consumers are given it.', examples: ['events'] },
    },
    operation: 'receiveFromRedisStreams',
    operationTitle: 'Receive events from a Redis stream',
  },
];

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

function infoDescription(model: CatalogModel, types: readonly string[], unused: readonly ObjectTypeModel[]): string {
  const open = model.events.filter((e) => e.open);
  const deliveryGap = model.gaps.find((g) => g.kind === 'not_shown' && g.topic === 'delivery rules');
  const isObject = (type: TypeRef): boolean => (type.kind === 'array' ? isObject(type.items) : type.kind === 'primitive' && type.name === 'object');
  const hasObjectFields = [...model.events, ...model.sharedTypes].some((owner) => owner.fields.some((f) => isObject(f.type)));
  const used = model.sharedTypes.length - unused.length;
  const lines = [
    `The events of the data-import platform's event bus, generated from the event catalog: ${types.length} event types, ${model.events.length} event versions (one message each), ${plural(used, 'shared object type')} that they use (\`components.schemas\`).`,
    '',
    'Payload schemas are AsyncAPI Schema (the default schema format, a JSON Schema draft-07 superset). They state the same constraints as the JSON Schema 2020-12 files of the package (`schemas/events/<type>/<version>/payload.schema.json`, the tolerant variant): properties the catalog does not list are allowed.',
    '',
    '## Assumptions: delivery rules are not in the catalog',
    '',
    `${deliveryGap ? `The catalog says: ${curlyQuote(markdownText(deliveryGap.seed))}` : 'The catalog states no delivery rules.'} This document therefore describes the package's own transports and defaults, not a deployment's bus:`,
    '',
    `- **Servers**: ${TRANSPORTS.map((t) => `\`${t.server}\` (${t.serverTitle})`).join(' and ')}, the brokers the package's adapters speak to. Their \`host\` is a variable: the catalog names no host.`,
    ...TRANSPORTS.map((t) => `- **Channel \`${t.channel}\`, address \`${t.address}\`**: ${t.channelDescription}`),
    `- **One \`receive\` operation per channel** (${TRANSPORTS.map((t) => `\`${t.operation}\``).join(', ')}), listing every message: the consumer's view (one stream of mixed events, dispatched on \`type\` and \`version\`, as the package's \`validateEvent\` and \`createHandler\` read it). Which service sends which event is not shown, so there are no \`send\` operations.`,
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
    ...(unused.length > 0
      ? [
          `- **Shared types no event uses** (${unused.map((t) => `\`${t.name}\``).join(', ')}): the catalog defines them and no event shown reaches them, so no message here does either; their JSON Schemas are \`schemas/shared/<name>.schema.json\` in the package.`,
        ]
      : []),
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

function message(model: CatalogModel, event: EventVersionModel, tagRef: JsonSchema): JsonSchema {
  return {
    name: event.name,
    title: `${event.type} ${event.version}`,
    ...(event.open && { summary: 'Open event: not every field is shown.' }),
    description: messageDescription(event),
    headers: envelopeHeaders(event),
    payload: toAsyncApiSchema(payloadSchema(model, event, 'tolerant')),
    tags: [tagRef],
    ...(event.open && { 'x-open': event.open.seed }),
    'x-json-schema': { payload: schemaIds.payload(event), message: schemaIds.message(event), file: schemaPaths.payload(event) },
  };
}

/** A short, stable fingerprint of what the document describes: the catalog carries no version of its own. */
function fingerprint(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 12);
}

/** A tag's key in `components.tags`: the section's words in lower case, joined by dashes, made unique. */
function tagKeys(sections: readonly string[]): Map<string, string> {
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const section of sections) {
    const base = section.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'section';
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}-${n}`;
    taken.add(key);
    keys.set(section, componentKey(key));
  }
  return keys;
}

/** One tag per catalog section, in catalog order, saying what it holds. */
function sectionTags(model: CatalogModel): { keys: Map<string, string>; tags: JsonSchema } {
  const sections = [...new Set(model.events.map((e) => e.section))];
  const keys = tagKeys(sections);
  const tags: JsonSchema = {};
  for (const section of sections) {
    const events = model.events.filter((e) => e.section === section);
    const files = [...new Set(events.map((e) => e.position.file))];
    const typeCount = new Set(events.map((e) => e.type)).size;
    tags[keys.get(section)!] = {
      name: section,
      description: `The catalog's section ${curlyQuote(markdownText(section))} (${files.map((f) => `\`${markdownText(f)}\``).join(', ')}): ${plural(events.length, 'event version')} of ${plural(typeCount, 'event type')}.`,
    };
  }
  return { keys, tags };
}

export function asyncApiDocument(model: CatalogModel): JsonSchema {
  const types = [...new Set(model.events.map((e) => e.type))];
  const { keys: tagKeyOf, tags } = sectionTags(model);
  const tagRef = (section: string): JsonSchema => ({ $ref: `#/components/tags/${pointerToken(tagKeyOf.get(section)!)}` });

  const messages: JsonSchema = {};
  for (const event of model.events) messages[componentKey(event.name)] = message(model, event, tagRef(event.section));
  // A shared type no event reaches is in no message: left out (and named in the description).
  const unused = model.sharedTypes.filter((t) => t.usedBy.length === 0);
  const schemas: JsonSchema = {};
  for (const shared of model.sharedTypes) if (shared.usedBy.length > 0) schemas[componentKey(shared.name)] = toAsyncApiSchema(sharedTypeSchema(model, shared));

  const servers: JsonSchema = {};
  const channels: JsonSchema = {};
  const operations: JsonSchema = {};
  for (const t of TRANSPORTS) {
    servers[t.server] = {
      host: '{host}',
      protocol: t.protocol,
      // No `title`: AsyncAPI 3.0 allows one on a server, but Redocly's lint refuses it.
      description: t.serverDescription,
      variables: { host: { description: `The broker's host and port in your deployment (\`${t.exampleHost}\` for a local one).`, examples: [t.exampleHost] } },
    };
    const channelMessages: JsonSchema = {};
    for (const event of model.events) channelMessages[event.name] = { $ref: `#/components/messages/${pointerToken(event.name)}` };
    channels[t.channel] = {
      address: t.address,
      title: t.channelTitle,
      description: t.channelDescription,
      servers: [{ $ref: `#/servers/${t.server}` }],
      parameters: t.parameters,
      messages: channelMessages,
    };
    operations[t.operation] = {
      action: 'receive',
      channel: { $ref: `#/channels/${t.channel}` },
      title: t.operationTitle,
      summary: "Consume the events of the channel, any type and version; dispatch on the envelope's `type` and `version`.",
      description: `Every message of the catalog may arrive, in any order (ordering and delivery guarantees are not shown). Read each with the package's \`validateEvent\` or \`createHandler\`, or with \`consumeEvents\` of \`${PACKAGE}/${t.entry}\`, which also dead-letters what fails.`,
      messages: model.events.map((e) => ({ $ref: `#/channels/${t.channel}/messages/${pointerToken(e.name)}` })),
    };
  }

  const components = { schemas, messages, tags };
  const contact = model.api?.contact;
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Data-import platform events',
      version: `0.0.0-catalog.${fingerprint({ servers, channels, operations, components, gaps: model.gaps.map(gapEntry) })}`,
      description: infoDescription(model, types, unused),
      ...(contact !== undefined && { contact: { name: contact } }),
      license: { name: PACKAGE_LICENSE, url: `https://spdx.org/licenses/${PACKAGE_LICENSE}.html` },
      tags: Object.keys(tags).map((key) => ({ $ref: `#/components/tags/${pointerToken(key)}` })),
    },
    defaultContentType: 'application/json',
    servers,
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
