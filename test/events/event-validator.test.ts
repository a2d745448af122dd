/**
 * The per-event entries (`<package>/events/<type>/<version>`): each validates its own event
 * only, and implements Standard Schema v1.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { StandardSchemaV1 as UpstreamStandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { accountCreatedV1 } from '../../generated/events/account.created/v1.js';
import type { AccountCreatedV1Event, CatalogEvent } from '../../generated/types.js';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { eventEntry, eventEntryCommonJs, eventValidatorName, type EventEntrySource } from '../../generator/emit/event-entries.js';
import { defineEventValidator, type EventValidator } from '../../runtime/entries/define-event-validator.js';
import { EventValidationError } from '../../runtime/internal/result.js';
import { fullPayload, minimalPayload, mutations } from '../../generator/samples/payload-samples.js';

const { model } = loadCatalogFromDisk('catalog');
if (!model) throw new Error('catalog does not load');

const entries = await Promise.all(
  model.events.map(async (event) => {
    const module = (await import(`../../generated/events/${event.type}/${event.version}.ts`)) as Record<string, EventValidator<CatalogEvent>>;
    return [event, module[eventValidatorName(event)]!] as const;
  }),
);

describe.each(entries.map(([event, validator]) => ({ key: event.key, event, validator })))('$key entry', ({ event, validator }) => {
  it('knows its event and schema id', () => {
    expect([validator.type, validator.version, validator.open]).toEqual([event.type, event.version, event.open !== false]);
    expect(validator.schemaId).toBe(`urn:data-import-events:event:${event.type}:${event.version}:message`);
  });

  it('accepts full and minimal messages, through its own API and through ~standard', async () => {
    for (const payload of [fullPayload(model, event), minimalPayload(model, event)]) {
      const message = { type: event.type, version: event.version, payload, id: 'm-1' };
      expect(validator.validate(message, { mode: 'strict' })).toEqual({ ok: true, event: message });
      expect(await validator['~standard'].validate(message)).toEqual({ value: message });
      expect(validator.is(message)).toBe(true);
      expect(validator.parse(message)).toBe(message);
      expect(validator.validatePayload(payload)).toEqual({ ok: true, event: payload });
    }
  });

  it('rejects invalid payloads with Standard Schema paths that match the issue pointers', async () => {
    const invalid = mutations(model, event).filter((m) => m.validIn.length === 0);
    for (const mutation of invalid) {
      const message = { type: event.type, version: event.version, payload: mutation.payload };
      const result = validator.validate(message);
      expect(result.ok, mutation.label).toBe(false);
      if (result.ok) continue;
      expect(result.error.issues.map((i) => i.path)).toContain(`/payload${mutation.expectPath}`);
      const standard = (await validator['~standard'].validate(message)) as UpstreamStandardSchemaV1.FailureResult;
      const expectedPath = ['payload', ...mutation.expectPath.split('/').slice(1).map((k) => (/^\d+$/.test(k) ? Number(k) : k))];
      expect(standard.issues.map((i) => i.path)).toContainEqual(expectedPath);
      expect(() => validator.parse(message)).toThrow(EventValidationError);
    }
  });

  it('rejects a message of another type or version, and never throws on junk', () => {
    const payload = fullPayload(model, event);
    const otherType = validator.validate({ type: `${event.type}.other`, version: event.version, payload });
    expect(otherType.ok === false && otherType.error.code).toBe('unknown_event_type');
    const otherVersion = validator.validate({ type: event.type, version: 'v999', payload });
    expect(otherVersion.ok === false && otherVersion.error).toMatchObject({ code: 'unknown_event_version', knownVersions: [event.version] });
    for (const junk of [null, 42, 'x', [], { type: event.type, version: event.version, payload: [] }]) {
      const result = validator.validate(junk);
      expect(result.ok === false && result.error.code).toBe('malformed_message');
    }
  });
});

describe('types of an entry', () => {
  it('is a Standard Schema whose output is the event type', () => {
    expectTypeOf(accountCreatedV1).toMatchTypeOf<UpstreamStandardSchemaV1<unknown, AccountCreatedV1Event>>();
    expectTypeOf<UpstreamStandardSchemaV1.InferOutput<typeof accountCreatedV1>>().toEqualTypeOf<AccountCreatedV1Event>();
    const result = accountCreatedV1.validate({});
    if (result.ok) expectTypeOf(result.event.payload.account_number).toEqualTypeOf<string>();
  });
});

describe('the package\'s CommonJS form of each entry, written from the same description (eventEntry)', () => {
  const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as { events: EventEntrySource[] };
  const requireHere = createRequire(import.meta.url);
  /** Stands for the shared entries module in the CommonJS text. */
  const SHARED = '<entries>';

  it.each(manifest.events.map((event) => [`${event.type} ${event.version}`, event] as const))('%s: the same validator as the generated entry', async (_, event) => {
    const entry = eventEntry(event);
    // Run the CommonJS text as Node would, with `require` resolving from the generated entry's folder.
    const exports: Record<string, EventValidator<CatalogEvent>> = {};
    const requireFromEntry = (specifier: string): unknown =>
      specifier === SHARED ? { defineEventValidator } : requireHere(`../../generated/events/${event.type}/${specifier}`);
    new Function('exports', 'require', eventEntryCommonJs(entry, SHARED))(exports, requireFromEntry);
    const commonJs = exports[entry.name]!;
    const generated = ((await import(`../../generated/events/${event.type}/${event.version}.ts`)) as Record<string, EventValidator<CatalogEvent>>)[entry.name]!;
    expect([commonJs.type, commonJs.version, commonJs.open, commonJs.schemaId]).toEqual([generated.type, generated.version, generated.open, generated.schemaId]);
    const payload = fullPayload(model, model.events.find((e) => e.type === event.type && e.version === event.version)!);
    const message = { type: event.type, version: event.version, payload };
    expect(commonJs.validate(message, { mode: 'strict' })).toEqual(generated.validate(message, { mode: 'strict' }));
    const broken = { ...message, payload: { ...(payload as object), added_field: 1 } };
    expect(commonJs.validate(broken, { mode: 'strict' })).toEqual(generated.validate(broken, { mode: 'strict' }));
  });
});
