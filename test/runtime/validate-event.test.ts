/**
 * `validateEvent`, `isEvent`, `parseEvent` and `eventCatalog` from the package root, against
 * every event of the real catalog: sample payloads (full, minimal) and their labelled
 * mutations from `generator/samples/payload-samples.ts`, each checked for the error code and
 * the JSON Pointer of the property at fault.
 */
import { describe, expect, it } from 'vitest';
import { EventValidationError, eventCatalog, isEvent, parseEvent, validateEvent, type ValidationMode } from '../../runtime/index.js';
import { fullPayload, minimalPayload, mutations } from '../../generator/samples/payload-samples.js';
import type { EventVersionModel, FieldModel } from '../../generator/model.js';
import { clip } from '../../runtime/internal/echo.js';
import { envelope, expectError, expectValid, expectWellFormed, model, resolvePointer } from './support.js';

const MODES: readonly ValidationMode[] = ['tolerant', 'strict'];

/** Fields that carry a date or a time (by name): plain strings, no format enforced. */
const isDateLike = (field: FieldModel): boolean =>
  field.type.kind === 'primitive' && field.type.name === 'string' && /(^|_)(date|dates|time|timestamp|at|on|from|to|until|since)$|_date_|date_time|datetime/.test(field.name);

const FREE_FORM_DATES = ['not a date', '', '31/12/2024', '2024-13-45T99:99:99Z', 'yesterday', '\u0000'];

const EXTRA_ENVELOPE = {
  id: '4b1c2c1e-8f0e-4b8e-9a53-0a8f6f0b2f6e',
  time: '2024-05-01T12:00:00Z',
  source: 'urn:bus:test',
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  tracestate: 'vendor=opaque',
  'x-b3-traceid': '80f198ee56343ba864fe8b2a57d3eff7',
  headers: { 'content-type': 'application/json', retries: 3 },
};

const rows = model.events.map((event) => [event.key, event] as const);
const datedFieldCount = model.events.reduce((n, e) => n + e.fields.filter(isDateLike).length, 0);

describe.each(rows)('%s', (_key, event: EventVersionModel) => {
  const full = () => envelope(event, fullPayload(model, event));
  const minimal = () => envelope(event, minimalPayload(model, event));
  const all = mutations(model, event);
  const byKind = (prefix: string) => all.filter((m) => m.label.startsWith(`${prefix} `));

  it('accepts a full payload in both modes, returning the same object', () => {
    for (const mode of MODES) {
      const message = full();
      const result = validateEvent(message, { mode });
      expectValid(result, mode);
      expectWellFormed(result, message);
    }
    const message = full();
    expect(validateEvent(message)).toEqual({ ok: true, event: message });
  });

  it('accepts a minimal (required-only) payload in strict mode (and tolerant)', () => {
    for (const mode of MODES) {
      const message = minimal();
      const result = validateEvent(message, { mode });
      expectValid(result, mode);
      expectWellFormed(result, message);
    }
  });

  it('reports each missing required field at its own pointer (code required)', () => {
    const missing = byKind('missing');
    expect(missing.length).toBe(countRequired(event));
    for (const mutation of missing) {
      for (const mode of MODES) {
        const error = expectError(validateEvent(envelope(event, mutation.payload), { mode }), 'invalid_payload', `${mutation.label} (${mode})`);
        expect(error.type).toBe(event.type);
        expect(error.version).toBe(event.version);
        expect(error.issues, `${mutation.label} (${mode})`).toEqual([{ path: `/payload${mutation.expectPath}`, code: 'required', message: expect.any(String) }]);
        expect(error.message).toContain(`/payload${mutation.expectPath}`);
      }
    }
  });

  it('reports each wrong-typed value at the value pointer (code type)', () => {
    const wrong = byKind('wrong type');
    expect(wrong.length).toBeGreaterThanOrEqual(event.fields.length);
    for (const mutation of wrong) {
      for (const mode of MODES) {
        const message = envelope(event, mutation.payload);
        const error = expectError(validateEvent(message, { mode }), 'invalid_payload', `${mutation.label} (${mode})`);
        expect(error.issues, `${mutation.label} (${mode})`).toEqual([{ path: `/payload${mutation.expectPath}`, code: 'type', message: expect.any(String) }]);
        // The pointer names the wrong value itself.
        expect(resolvePointer(message, error.issues[0]!.path).found, mutation.label).toBe(true);
      }
    }
  });

  it('rejects null for each optional field (optional is not nullable)', () => {
    const nulls = byKind('null');
    expect(nulls.length).toBe(countOptional(event));
    for (const mutation of nulls) {
      for (const mode of MODES) {
        const error = expectError(validateEvent(envelope(event, mutation.payload), { mode }), 'invalid_payload', `${mutation.label} (${mode})`);
        expect(error.issues, mutation.label).toEqual([{ path: `/payload${mutation.expectPath}`, code: 'type', message: expect.any(String) }]);
      }
    }
  });

  it('keeps an unlisted property in tolerant mode and rejects it in strict mode (unless the event is open)', () => {
    const unlisted = byKind('unlisted property');
    expect(unlisted.length).toBeGreaterThanOrEqual(1);
    for (const mutation of unlisted) {
      const message = envelope(event, mutation.payload);
      const tolerant = validateEvent(message, { mode: 'tolerant' });
      expectValid(tolerant, mutation.label);
      expectWellFormed(tolerant, message);
      expect(resolvePointer(tolerant.ok ? tolerant.event : undefined, `/payload${mutation.expectPath}`)).toEqual({ found: true, value: 'not in the catalog' });
      expect(validateEvent(message)).toEqual(tolerant); // tolerant is the default

      const strict = validateEvent(message, { mode: 'strict' });
      if (mutation.validIn.includes('strict')) {
        expectValid(strict, mutation.label);
      } else {
        const error = expectError(strict, 'invalid_payload', mutation.label);
        expect(error.issues, mutation.label).toEqual([{ path: `/payload${mutation.expectPath}`, code: 'additional_property', message: expect.any(String) }]);
      }
    }
    // The payload's own unlisted property: strict accepts it exactly when the event is open.
    const top = unlisted.find((m) => m.expectPath.split('/').length === 2)!;
    expect(validateEvent(envelope(event, top.payload), { mode: 'strict' }).ok).toBe(event.open !== false);
  });

  it('accepts free-form strings in date and timestamp fields, in both modes', () => {
    for (const field of event.fields.filter(isDateLike)) {
      for (const value of FREE_FORM_DATES) {
        const message = full();
        (message.payload as Record<string, unknown>)[field.name] = value;
        for (const mode of MODES) expectValid(validateEvent(message, { mode }), `${field.name}=${JSON.stringify(value)} (${mode})`);
      }
    }
  });

  it('tolerates and keeps extra envelope keys (ids, timestamps, trace headers), in both modes', () => {
    for (const mode of MODES) {
      const message = { ...EXTRA_ENVELOPE, ...full() };
      const result = validateEvent(message, { mode });
      expectValid(result, mode);
      expectWellFormed(result, message);
      if (result.ok) expect(result.event).toMatchObject(EXTRA_ENVELOPE);
    }
  });

  it('rejects an unknown version with the known versions in catalog order', () => {
    const known = model.events.filter((e) => e.type === event.type).map((e) => e.version);
    for (const version of ['v999', '', 'V1', ` ${event.version}`, `${event.version} `, 'constructor', '__proto__', 'toString']) {
      if (known.includes(version)) continue;
      const message = { ...full(), version };
      const error = expectError(validateEvent(message), 'unknown_event_version', version);
      expect(error).toMatchObject({ type: event.type, version, knownVersions: known });
      expect(error.issues).toEqual([{ path: '/version', code: 'unknown_event_version', message: expect.any(String) }]);
    }
  });

  it('isEvent and parseEvent agree with validateEvent', () => {
    const good = full();
    expect(isEvent(good)).toBe(true);
    expect(isEvent(good, { mode: 'strict' })).toBe(true);
    expect(parseEvent(good)).toBe(good);
    const bad = byKind('wrong type')[0] ?? byKind('missing')[0];
    if (bad) {
      const message = envelope(event, bad.payload);
      expect(isEvent(message)).toBe(false);
      expect(() => parseEvent(message)).toThrow(EventValidationError);
    }
  });
});

function countRequired(event: EventVersionModel): number {
  // Required fields at every depth the full payload reaches (shared types; first array item).
  const shared = new Map(model.sharedTypes.map((t) => [t.name, t]));
  const visit = (fields: readonly FieldModel[], stack: readonly string[]): number =>
    fields.reduce((n, f) => n + (f.optional ? 0 : 1) + visitType(f.type, stack), 0);
  const visitType = (type: FieldModel['type'], stack: readonly string[]): number =>
    type.kind === 'array' ? visitType(type.items, stack) : type.kind === 'named' && !stack.includes(type.name) ? visit(shared.get(type.name)!.fields, [...stack, type.name]) : 0;
  return visit(event.fields, []);
}

function countOptional(event: EventVersionModel): number {
  const shared = new Map(model.sharedTypes.map((t) => [t.name, t]));
  const visit = (fields: readonly FieldModel[], stack: readonly string[]): number =>
    fields.reduce((n, f) => n + (f.optional && !f.nullable ? 1 : 0) + visitType(f.type, stack), 0);
  const visitType = (type: FieldModel['type'], stack: readonly string[]): number =>
    type.kind === 'array' ? visitType(type.items, stack) : type.kind === 'named' && !stack.includes(type.name) ? visit(shared.get(type.name)!.fields, [...stack, type.name]) : 0;
  return visit(event.fields, []);
}

describe('the catalog as a whole', () => {
  it('has date or timestamp fields to test free-form strings on', () => {
    expect(datedFieldCount).toBeGreaterThan(10);
  });

  it('shows nested required fields at nested pointers (examples from the spec)', () => {
    const nestedMissing = model.events.flatMap((e) => mutations(model, e).filter((m) => m.label.startsWith('missing ') && m.expectPath.split('/').length > 2).map((m) => ({ e, m })));
    expect(nestedMissing.length).toBeGreaterThan(0);
    const arrayItem = nestedMissing.find(({ m }) => /\/0\//.test(m.expectPath));
    expect(arrayItem, 'a missing field inside an array item').toBeDefined();
    const { e, m } = arrayItem!;
    const error = expectError(validateEvent(envelope(e, m.payload)), 'invalid_payload');
    expect(error.issues[0]!.path).toMatch(/^\/payload\/[^/]+\/0\/[^/]+/);
  });

  it('names the type of each wrong value, at each of thousands of different pointers, message after message', () => {
    // More pointers than the issue builder keeps the tokens of: those past it are read all the same.
    const emails = (wrongFrom: number) => Array.from({ length: 1500 }, (_, i) => (i >= wrongFrom && i < wrongFrom + 100 ? (i % 2 === 0 ? i : null) : `user${i}@example.com`));
    for (let wrongFrom = 0; wrongFrom < 1500; wrongFrom += 100) {
      const message = { type: 'account.created', version: 'v1', payload: { account_number: 'A1', account_user_emails: emails(wrongFrom) } };
      const error = expectError(validateEvent(message), 'invalid_payload');
      expect(error.issues).toEqual(
        Array.from({ length: 100 }, (_, k) => ({
          path: `/payload/account_user_emails/${wrongFrom + k}`,
          code: 'type',
          message: `expected string, got ${(wrongFrom + k) % 2 === 0 ? 'integer' : 'null'}`,
        })),
      );
    }
  });

  it('eventCatalog has one entry per event, in catalog order', () => {
    expect(eventCatalog.map((e) => ({ ...e }))).toEqual(model.events.map((e) => ({ type: e.type, version: e.version, name: e.name, open: e.open !== false })));
    expect(new Set(eventCatalog.map((e) => `${e.type}@${e.version}`)).size).toBe(eventCatalog.length);
  });

  it('accepts a null-prototype envelope and payload', () => {
    const event = model.events[0]!;
    const payload = Object.assign(Object.create(null) as object, fullPayload(model, event));
    const message = Object.assign(Object.create(null) as object, { type: event.type, version: event.version, payload });
    const result = validateEvent(message, { mode: 'strict' });
    expectValid(result);
    expectWellFormed(result, message);
  });

  it('accepts a frozen event', () => {
    const event = model.events[0]!;
    const deepFreeze = <T>(value: T): T => {
      if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) deepFreeze(v);
      return Object.freeze(value);
    };
    const message = deepFreeze(envelope(event, fullPayload(model, event)));
    for (const mode of MODES) expectValid(validateEvent(message, { mode }));
  });
});

describe('unknown event types', () => {
  it.each(['no.such.event', '', 'ACCOUNT.CREATED', 'account.created ', 'constructor', '__proto__', 'hasOwnProperty', 'toString', 'x'.repeat(10_000)])(
    'rejects %j as unknown_event_type',
    (type) => {
      const message = { type, version: 'v1', payload: {} };
      const error = expectError(validateEvent(message), 'unknown_event_type');
      expect(error).toMatchObject({ type: clip(type), version: 'v1' });
      expect(error.knownVersions).toBeUndefined();
      expect(error.issues).toEqual([{ path: '/type', code: 'unknown_event_type', message: expect.any(String) }]);
      expect(error.message.length).toBeLessThan(300);
    },
  );
});

describe('malformed messages', () => {
  class Payload {
    account_number = 'A-1';
    account_user_emails: string[] = [];
  }
  const ok = { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } };
  const cases: [string, unknown, string][] = [
    ['undefined', undefined, ''],
    ['a number', 42, ''],
    ['a boolean', true, ''],
    ['a bigint', 10n, ''],
    ['a symbol', Symbol('event'), ''],
    ['a function', () => ok, ''],
    ['an array', [ok], ''],
    ['an empty array', [], ''],
    ['null', null, ''],
    ['a string (JSON text, not parsed)', JSON.stringify(ok), ''],
    ['a class instance', new (class Message {
      type = 'account.created';
      version = 'v1';
      payload = { account_number: 'A-1', account_user_emails: [] };
    })(), ''],
    ['a Date', new Date(0), ''],
    ['a Map', new Map(Object.entries(ok)), ''],
    ['type missing', { version: 'v1', payload: ok.payload }, '/type'],
    ['type a number', { ...ok, type: 1 }, '/type'],
    ['type null', { ...ok, type: null }, '/type'],
    ['type a String object', { ...ok, type: new String('account.created') }, '/type'],
    ['type an array', { ...ok, type: ['account.created'] }, '/type'],
    ['version missing', { type: ok.type, payload: ok.payload }, '/version'],
    ['version a number', { ...ok, version: 1 }, '/version'],
    ['version null', { ...ok, version: null }, '/version'],
    ['payload missing', { type: ok.type, version: ok.version }, '/payload'],
    ['payload an array', { ...ok, payload: [ok.payload] }, '/payload'],
    ['payload null', { ...ok, payload: null }, '/payload'],
    ['payload a string', { ...ok, payload: JSON.stringify(ok.payload) }, '/payload'],
    ['payload a number', { ...ok, payload: 0 }, '/payload'],
    ['payload a class instance', { ...ok, payload: new Payload() }, '/payload'],
    ['payload a Date', { ...ok, payload: new Date(0) }, '/payload'],
    ['payload a Map', { ...ok, payload: new Map(Object.entries(ok.payload)) }, '/payload'],
    ['payload with a prototype set via __proto__', { ...ok, payload: { __proto__: ok.payload } }, '/payload'],
  ];

  it.each(cases)('%s → malformed_message', (_label, message, path) => {
    for (const mode of MODES) {
      const result = validateEvent(message, { mode });
      const error = expectError(result, 'malformed_message');
      expectWellFormed(result);
      expect(error.issues.map((i) => i.path)).toEqual([path]);
      expect(isEvent(message, { mode })).toBe(false);
      expect(() => parseEvent(message, { mode })).toThrow(EventValidationError);
    }
  });

  it('checks the envelope before the catalog: a bad payload of an unknown type is malformed', () => {
    expectError(validateEvent({ type: 'no.such.event', version: 'v1', payload: [] }), 'malformed_message');
    expectError(validateEvent({ type: 'no.such.event', version: 'v1', payload: {} }), 'unknown_event_type');
  });

  it('distinguishes missing (required) from wrong (type) envelope members', () => {
    expect(expectError(validateEvent({ version: 'v1', payload: {} }), 'malformed_message').issues[0]).toMatchObject({ path: '/type', code: 'required' });
    expect(expectError(validateEvent({ type: 1, version: 'v1', payload: {} }), 'malformed_message').issues[0]).toMatchObject({ path: '/type', code: 'type' });
    expect(expectError(validateEvent({ type: 'a', payload: {} }), 'malformed_message').issues[0]).toMatchObject({ path: '/version', code: 'required' });
    expect(expectError(validateEvent({ type: 'a', version: 'v1' }), 'malformed_message').issues[0]).toMatchObject({ path: '/payload', code: 'required' });
    expect(expectError(validateEvent({ type: 'a', version: 'v1', payload: null }), 'malformed_message').issues[0]).toMatchObject({ path: '/payload', code: 'type' });
  });

  it('keeps error messages short even for huge type or version strings', () => {
    const huge = 'x'.repeat(1_000_000);
    for (const message of [{ type: huge }, { type: huge, version: huge }, { type: huge, version: huge, payload: [] }, { type: huge, version: huge, payload: {} }, { ...ok, version: huge }]) {
      const result = validateEvent(message);
      expectWellFormed(result);
      if (!result.ok) expect(result.error.message.length).toBeLessThan(500);
    }
  });

  it('never throws on getters or proxies that throw', () => {
    const hostile = [
      Object.defineProperty({}, 'type', { get: () => { throw new Error('no type for you'); }, enumerable: true }),
      { ...ok, get payload(): unknown { throw new Error('no payload'); } },
      new Proxy({}, { getPrototypeOf: () => { throw new Error('trap'); } }),
      new Proxy(ok, { get: () => { throw 'a string, not an Error'; } }),
      { ...ok, payload: new Proxy({ ...ok.payload }, { get: () => { throw new Error('payload trap'); } }) },
      new Proxy({}, { getPrototypeOf: () => { throw new Proxy({}, { get: () => { throw new Error('the error is hostile too'); }, getPrototypeOf: () => { throw 0; } }); } }),
    ];
    for (const message of hostile) {
      for (const mode of MODES) {
        const result = validateEvent(message, { mode });
        expectWellFormed(result);
        expect(result.ok).toBe(false);
      }
    }
  });

  it('reports a hostile message by the documented order (prototype, members, payload prototype, payload), not by the order the valid path reads in', () => {
    const throwing = (name: string) => ({ get: () => { throw new Error(`${name} getter`); }, enumerable: true });
    const classWithThrowingType = Object.defineProperty(new (class Message {})(), 'type', throwing('type'));
    const payloadInstance = Object.defineProperty(new Payload(), 'account_number', throwing('account_number'));
    const lyingPayload = new Proxy({ ...ok.payload }, { getPrototypeOf: () => Array.prototype, get: () => { throw new Error('payload get'); } });
    const lyingMessage = new Proxy({ ...ok }, { getPrototypeOf: () => Map.prototype, get: () => { throw new Error('message get'); } });
    const cases: [string, unknown, { path: string; code: string; message?: string }][] = [
      ['a class instance whose type getter throws', classWithThrowingType, { path: '', code: 'not_object' }],
      ['a proxy claiming another prototype whose reads throw', lyingMessage, { path: '', code: 'not_object' }],
      ['a class-instance payload whose getter throws', { ...ok, payload: payloadInstance }, { path: '/payload', code: 'type' }],
      ['a payload proxy claiming another prototype whose reads throw', { ...ok, payload: lyingPayload }, { path: '/payload', code: 'type' }],
      ['a payload proxy whose prototype trap and reads both throw: the prototype is read first', { ...ok, payload: new Proxy({}, { getPrototypeOf: () => { throw new Error('prototype trap'); }, get: () => { throw new Error('get trap'); } }) }, { path: '', code: 'unreadable', message: 'prototype trap' }],
    ];
    for (const [label, message, issue] of cases) {
      for (const mode of MODES) {
        const result = validateEvent(message, { mode });
        expectWellFormed(result);
        expect(expectError(result, 'malformed_message').issues, label).toEqual([expect.objectContaining(issue)]);
      }
    }
  });

  it('a payload whose keys cannot be listed: tolerant mode need not list them, strict mode must and rejects it', () => {
    const message = { ...ok, payload: new Proxy({ ...ok.payload }, { ownKeys: () => { throw new Error('ownKeys trap'); } }) };
    const tolerant = validateEvent(message);
    expectWellFormed(tolerant, message);
    expect(tolerant.ok).toBe(true);
    const strict = validateEvent(message, { mode: 'strict' });
    expectWellFormed(strict);
    expect(expectError(strict, 'malformed_message').issues).toEqual([{ path: '', code: 'unreadable', message: 'ownKeys trap' }]);
  });
});

describe('parseEvent', () => {
  it('returns the event itself when valid', () => {
    const event = model.events.find((e) => e.type === 'account.created')!;
    const message = envelope(event, fullPayload(model, event));
    const parsed = parseEvent(message);
    expect(parsed).toBe(message);
    if (parsed.type === 'account.created' && parsed.version === 'v1') expect(parsed.payload.account_number).toBe(message.payload && (message.payload as { account_number: string }).account_number);
  });

  it('throws EventValidationError carrying .error, .code and .issues', () => {
    const message = { type: 'account.created', version: 'v1', payload: { account_user_emails: [] } };
    let thrown: unknown;
    try {
      parseEvent(message);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(EventValidationError);
    expect(thrown).toBeInstanceOf(Error);
    const e = thrown as EventValidationError;
    expect(e.name).toBe('EventValidationError');
    expect(e.code).toBe('invalid_payload');
    expect(e.issues).toEqual([{ path: '/payload/account_number', code: 'required', message: expect.any(String) }]);
    expect(e.error).toEqual((validateEvent(message) as { error: unknown }).error);
    expect(e.message).toBe(e.error.message);
  });

  it('honours strict mode', () => {
    const message = { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [], surprise: true } };
    expect(parseEvent(message)).toBe(message);
    expect(() => parseEvent(message, { mode: 'strict' })).toThrow(expect.objectContaining({ code: 'invalid_payload', issues: [expect.objectContaining({ path: '/payload/surprise', code: 'additional_property' })] }));
  });

  it('throws for every kind of error code', () => {
    expect(() => parseEvent(null)).toThrow(expect.objectContaining({ code: 'malformed_message' }));
    expect(() => parseEvent({ type: 'nope', version: 'v1', payload: {} })).toThrow(expect.objectContaining({ code: 'unknown_event_type' }));
    expect(() => parseEvent({ type: 'account.created', version: 'v2', payload: {} })).toThrow(expect.objectContaining({ code: 'unknown_event_version' }));
  });
});

describe('the spec examples', () => {
  it('accepts the default envelope example', () => {
    expectValid(validateEvent({ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } }, { mode: 'strict' }));
  });

  it('knownVersions lists several versions in catalog order', () => {
    const error = expectError(validateEvent({ type: 'billing.billing_document_representation.dispatched', version: 'v9', payload: {} }), 'unknown_event_version');
    expect(error.knownVersions).toEqual(['v1', 'v2', 'v3']);
  });
});
