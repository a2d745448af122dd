/**
 * `generated/asyncapi.yaml`: the real catalog's AsyncAPI 3.0.0 document, emitted in memory
 * and parsed with @asyncapi/parser (its full validation: the AsyncAPI JSON Schema, the
 * Spectral ruleset, payload schemas, references).
 *
 * The payload schemas are checked for meaning, not only shape: each message's payload is
 * taken from the parsed (dereferenced) document, compiled with ajv (draft-07, which AsyncAPI
 * Schema extends) and must give the same verdict as the package's JSON Schema 2020-12
 * payload schema on a full payload, a minimal one and every labelled mutation of
 * `generator/samples/payload-samples.ts`.
 */
import { readFileSync } from 'node:fs';
import { Parser, DiagnosticSeverity, type AsyncAPIDocumentInterface, type Diagnostic } from '@asyncapi/parser';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { formatProblem } from '../../generator/catalog/problems.js';
import { ASYNCAPI_PATH, TRANSPORTS, emitAsyncApi } from '../../generator/emit/asyncapi.js';
import { bannerText } from '../../generator/common/banner.js';
import { payloadSchema } from '../../generator/emit/json-schema.js';
import type { CatalogModel } from '../../generator/model.js';
import { eventSubject } from '../../runtime/nats/publish-event.js';
import { MESSAGE_FIELD } from '../../runtime/redis-streams/publish-event.js';
import { fullPayload, minimalPayload, mutations, type Payload } from '../../generator/samples/payload-samples.js';
import { syntheticModel } from './synthetic-catalog.js';

function loadModel(): CatalogModel {
  const loaded = loadCatalogFromDisk('catalog');
  if (!loaded.model) throw new Error(`catalog did not load:\n${loaded.errors.map(formatProblem).join('\n')}`);
  return loaded.model;
}

const model = loadModel();
const emitted = emitAsyncApi(model);

const synthetic: CatalogModel = syntheticModel();

/** Diagnostics the parser reports that are expected and accepted (see the README). */
const ACCEPTED_DIAGNOSTICS = [
  // "The latest version of AsyncAPI is not used": 3.0.0 on purpose (the widest tool support).
  'asyncapi-latest-version',
];

async function parseDocument(text: string): Promise<{ document: AsyncAPIDocumentInterface | undefined; diagnostics: Diagnostic[] }> {
  return new Parser().parse(text);
}

const describeDiagnostic = (d: Diagnostic) => `${DiagnosticSeverity[d.severity]} ${d.code} at ${d.path.join('/')}: ${d.message}`;

/** A schema from the parsed document as plain JSON Schema: the parser's `x-parser-*` annotations removed. */
const plainSchema = (schema: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key.startsWith('x-parser-') ? undefined : value)));

let document: AsyncAPIDocumentInterface;
let diagnostics: Diagnostic[];
let parseMs = 0;

beforeAll(async () => {
  const start = performance.now();
  const parsed = await parseDocument(emitted.contents);
  parseMs = performance.now() - start;
  diagnostics = parsed.diagnostics;
  if (!parsed.document) throw new Error(`the document did not parse:\n${diagnostics.map(describeDiagnostic).join('\n')}`);
  document = parsed.document;
}, 120_000);

describe('generated/asyncapi.yaml for the real catalog', () => {
  it('starts with the banner as a YAML comment, then asyncapi 3.0.0', () => {
    const [first, second] = emitted.contents.split('\n');
    expect(emitted.path).toBe(ASYNCAPI_PATH);
    expect(first).toBe(`# ${bannerText(model.sourceFiles)}`);
    expect(second).toBe('asyncapi: 3.0.0');
    expect(document.version()).toBe('3.0.0');
  });

  it('parses with no error or warning; only the accepted diagnostics remain', () => {
    expect(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map(describeDiagnostic)).toEqual([]);
    expect(diagnostics.filter((d) => !ACCEPTED_DIAGNOSTICS.includes(String(d.code))).map(describeDiagnostic)).toEqual([]);
    // The parse is slow on a document of this size (seconds): keep an eye on it.
    expect(parseMs).toBeLessThan(60_000);
  });

  it('has every event version as a message, with its name, title and envelope headers', () => {
    const messages = document.messages();
    expect(messages.all().map((m) => m.id())).toEqual(model.events.map((e) => e.name));
    for (const event of model.events) {
      const message = messages.get(event.name);
      expect(message, event.key).toBeDefined();
      expect(message!.name()).toBe(event.name);
      expect(message!.title()).toBe(`${event.type} ${event.version}`);
      expect(message!.contentType()).toBe('application/json');
      const headers = plainSchema(message!.headers()!.json());
      expect(headers.properties, event.key).toEqual({ type: { type: 'string', const: event.type }, version: { type: 'string', const: event.version } });
      expect(headers.required).toEqual(['type', 'version']);
    }
  });

  it('puts every message on each transport\'s channel, at the package\'s default address, received by one operation per channel', () => {
    const channels = document.channels().all();
    expect(channels.map((c) => c.id())).toEqual(TRANSPORTS.map((t) => t.channel));
    expect(document.servers().all().map((server) => [server.id(), server.protocol(), server.host()])).toEqual(TRANSPORTS.map((t) => [t.server, t.protocol, '{host}']));
    for (const [i, transport] of TRANSPORTS.entries()) {
      const channel = channels[i]!;
      expect(channel.address()).toBe(transport.address);
      expect(channel.servers().all().map((server) => server.id())).toEqual([transport.server]);
      // Every `{name}` of the address is a parameter of the channel, and every parameter is used.
      expect(channel.parameters().all().map((p) => p.id()).sort()).toEqual([...transport.address.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort());
      expect(channel.messages().all().map((m) => m.id())).toEqual(model.events.map((e) => e.name));
    }
    const operations = document.operations().all();
    expect(operations.map((o) => [o.id(), o.action(), o.channels().all().map((c) => c.id())])).toEqual(TRANSPORTS.map((t) => [t.operation, 'receive', [t.channel]]));
    for (const operation of operations) {
      expect(operation.description(), operation.id()).toBeTruthy();
      expect(operation.messages().all().map((m) => m.id())).toEqual(model.events.map((e) => e.name));
    }
  });

  it('states the addresses the runtime uses: the NATS subject of publishEvent, the Redis entry field of the message', () => {
    const nats = TRANSPORTS.find((t) => t.entry === 'nats')!;
    for (const event of model.events.slice(0, 20)) {
      expect(nats.address.replace('{type}', event.type).replace('{version}', event.version)).toBe(eventSubject(event));
    }
    const redis = TRANSPORTS.find((t) => t.entry === 'redis-streams')!;
    expect(redis.address).toBe('{stream}');
    expect(redis.channelDescription).toContain(`field \`${MESSAGE_FIELD}\``);
  });

  it('defines one tag per catalog section once, with a description, and references it from info and every message', () => {
    const raw = parseYaml(emitted.contents) as { info: { tags: unknown[] }; components: { tags: Record<string, { name: string; description: string }>; messages: Record<string, { tags: unknown[] }> } };
    const sections = [...new Set(model.events.map((e) => e.section))];
    const defined = Object.entries(raw.components.tags);
    expect(defined.map(([, tag]) => tag.name)).toEqual(sections);
    for (const [, tag] of defined) expect(tag.description, tag.name).toMatch(/\d+ event versions? of \d+ event types?/);
    expect(raw.info.tags).toEqual(defined.map(([key]) => ({ $ref: `#/components/tags/${key}` })));
    const keyOf = new Map(defined.map(([key, tag]) => [tag.name, key]));
    for (const event of model.events) expect(raw.components.messages[event.name]!.tags, event.key).toEqual([{ $ref: `#/components/tags/${keyOf.get(event.section)!}` }]);
    // After parsing, the references are the tags themselves.
    expect(document.info().tags().all().map((t) => t.name())).toEqual(sections);
    const first = model.events[0]!;
    expect(document.messages().get(first.name)!.tags().all().map((t) => [t.name(), t.description()])).toEqual([[first.section, raw.components.tags[keyOf.get(first.section)!]!.description]]);
  });

  it('references shared types in components.schemas instead of copying them', () => {
    const raw = parseYaml(emitted.contents) as { components: { schemas: Record<string, unknown>; messages: Record<string, { headers: unknown; payload: unknown }> } };
    // Shared types no event reaches are in no message, so not in the document.
    const usedShared = model.sharedTypes.filter((t) => t.usedBy.length > 0);
    expect(usedShared.length).toBeLessThan(model.sharedTypes.length);
    expect(Object.keys(raw.components.schemas)).toEqual(usedShared.map((t) => t.name));
    const refs = new Set<string>();
    const titles: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, inner] of Object.entries(value)) {
        if (key === '$ref') refs.add(inner as string);
        else if (key === 'title') titles.push(inner as string);
        else if (key === '$defs' || key === 'definitions') throw new Error(`unexpected ${key}`);
        else walk(inner);
      }
    };
    // Payloads and headers (a message's tags refer to components.tags).
    walk(Object.values(raw.components.messages).map((m) => [m.headers, m.payload]));
    const sharedNames = new Set(model.sharedTypes.map((t) => t.name));
    // No shared type's body (which carries its name as title) is inside a message.
    expect(titles.filter((t) => sharedNames.has(t))).toEqual([]);
    walk(Object.values(raw.components.schemas).map((schema) => ({ ...(schema as object), title: undefined })));
    // Every reference points at a schema the document holds.
    const componentNames = new Set(usedShared.map((t) => t.name));
    for (const ref of refs) expect(componentNames.has(ref.replace('#/components/schemas/', '')), ref).toBe(true);
    // Every shared type used by an event is reached through references, from a payload or another shared type.
    const used = new Set(model.sharedTypes.filter((t) => t.usedBy.length > 0).map((t) => `#/components/schemas/${t.name}`));
    expect([...used].filter((ref) => !refs.has(ref))).toEqual([]);
    // After parsing, the referenced schemas carry their component name.
    expect(document.components().schemas().all().map((s) => s.id())).toEqual(usedShared.map((t) => t.name));
    // The left-out ones are named in the description.
    const description = document.info().description() ?? '';
    for (const unused of model.sharedTypes.filter((t) => t.usedBy.length === 0)) expect(description).toContain(`\`${unused.name}\``);
  });

  it('marks open events: additionalProperties true, the seed words in the description', () => {
    const open = model.events.filter((e) => e.open);
    expect(open.length).toBeGreaterThan(0);
    for (const event of model.events) {
      const message = document.messages().get(event.name)!;
      const payload = message.payload()!.json() as Record<string, unknown>;
      if (event.open) {
        expect(payload.additionalProperties, event.key).toBe(true);
        expect(message.description()).toContain(event.open.seed);
        expect(message.extensions().get('x-open')?.value()).toBe(event.open.seed);
      } else {
        expect(payload, event.key).not.toHaveProperty('additionalProperties');
        expect(message.extensions().has('x-open')).toBe(false);
      }
    }
  });

  it('records the gaps of the catalog in info.description and x-gaps, with the seed words', () => {
    const description = document.info().description() ?? '';
    const gaps = document.extensions().get('x-gaps')?.value() as { kind: string; seed: string }[];
    expect(gaps.map((g) => [g.kind, g.seed])).toEqual(model.gaps.map((g) => [g.kind, g.seed]));
    for (const gap of model.gaps) expect(description).toContain(gap.seed);
    for (const transport of TRANSPORTS) expect(description).toContain(`address \`${transport.address}\``);
    expect(description).toContain('"type": "<event type>", "version": "<version>", "payload"');
  });

  describe('payload schemas mean what the JSON Schema 2020-12 payload schemas mean', () => {
    const draft07 = new Ajv({ strict: true, allowUnionTypes: true });
    const json2020 = new Ajv2020({ strict: true, allowUnionTypes: true });

    it.each(model.events.map((e) => [e.key, e] as const))('%s', (_key, event) => {
      const fromDocument: ValidateFunction = draft07.compile(plainSchema(document.messages().get(event.name)!.payload()!.json()));
      const reference: ValidateFunction = json2020.compile(payloadSchema(model, event, 'tolerant'));
      const cases: { label: string; payload: Payload }[] = [
        { label: 'full payload', payload: fullPayload(model, event) },
        { label: 'minimal payload', payload: minimalPayload(model, event) },
        ...mutations(model, event),
      ];
      expect(fromDocument(cases[0]!.payload), 'full payload').toBe(true);
      expect(fromDocument(cases[1]!.payload), 'minimal payload').toBe(true);
      for (const { label, payload } of cases) expect(fromDocument(payload), label).toBe(reference(payload));
      const failing = mutations(model, event).filter((m) => !m.validIn.includes('tolerant'));
      if (event.fields.length > 0) expect(failing.length, 'some mutation is invalid').toBeGreaterThan(0);
      for (const { label, payload } of failing) expect(fromDocument(payload), label).toBe(false);
    });
  });

  it('is byte-identical when emitted twice, from two loads of the catalog', () => {
    expect(emitAsyncApi(loadModel())).toEqual(emitted);
  });

  it('is committed up to date (generated/asyncapi.yaml; run `npm run generate`)', () => {
    expect(readFileSync(`generated/${ASYNCAPI_PATH}`, 'utf8') === emitted.contents).toBe(true);
  });
});

describe('nullable fields (a synthetic model)', () => {
  it('parses without errors and accepts null where the catalog says nullable', async () => {
    const { document: doc, diagnostics: found } = await parseDocument(emitAsyncApi(synthetic).contents);
    expect(found.filter((d) => !ACCEPTED_DIAGNOSTICS.includes(String(d.code))).map(describeDiagnostic)).toEqual([]);
    const validate = new Ajv({ strict: true, allowUnionTypes: true }).compile(plainSchema(doc!.messages().get('synthetic.thing-v1')!.payload()!.json()));
    expect(validate({ id: 1, thing: null, note: null })).toBe(true);
    expect(validate({ id: 1, thing: { label: 'x' } })).toBe(true);
    expect(validate({ id: 1, thing: { label: 1 } })).toBe(false);
    expect(validate({ id: 1, note: 'x' })).toBe(false);
  });
});
