/**
 * The CloudEvents 1.0 (structured mode) adapter: `type` is the event type, the extension
 * attribute `eventversion` the version, `data` the payload; issues point into the CloudEvent.
 */
import { describe, expect, it } from 'vitest';
import { fromCloudEvent, toCloudEvent, validateCloudEvent, validateEvent, type CatalogEvent } from '../../runtime/index.js';
import { fullPayload, mutations } from '../../generator/samples/payload-samples.js';
import { envelope, expectError, expectValid, expectWellFormed, model } from './support.js';

const attributes = { id: 'evt-1', source: 'urn:data-import:test', time: '2024-05-01T12:00:00Z', subject: 'A-1', traceparent: '00-abc-def-01' };

describe('toCloudEvent / fromCloudEvent / validateCloudEvent', () => {
  it.each(model.events.map((e) => [e.key, e] as const))('round-trips %s', (_key, event) => {
    const message = envelope(event, fullPayload(model, event)) as CatalogEvent;
    const cloudEvent = toCloudEvent(message, attributes);
    expect(cloudEvent).toMatchObject({
      ...attributes,
      specversion: '1.0',
      type: event.type,
      eventversion: event.version,
      datacontenttype: 'application/json',
      data: message.payload,
    });
    expect(cloudEvent.dataschema).toContain(event.type);
    expect(cloudEvent).not.toHaveProperty('version');
    expect(cloudEvent).not.toHaveProperty('payload');

    // Through JSON, as it would travel.
    const received = JSON.parse(JSON.stringify(cloudEvent)) as unknown;
    for (const mode of ['tolerant', 'strict'] as const) {
      const result = validateCloudEvent(received, { mode });
      expectValid(result, mode);
      expectWellFormed(result);
      if (result.ok) {
        expect(result.event).toMatchObject({ type: event.type, version: event.version, payload: message.payload });
        // CloudEvent attributes are kept as extra envelope keys.
        expect(result.event).toMatchObject({ id: 'evt-1', source: attributes.source, specversion: '1.0', traceparent: attributes.traceparent });
      }
    }
    const envelopeAgain = fromCloudEvent(received) as Record<string, unknown>;
    expect(envelopeAgain).toMatchObject({ type: event.type, version: event.version, payload: message.payload });
    expect(envelopeAgain).not.toHaveProperty('eventversion');
    expect(envelopeAgain).not.toHaveProperty('data');
    expect(validateEvent(envelopeAgain).ok).toBe(true);
  });

  it('fixed attributes win over same-named extra attributes', () => {
    const event = model.events[0]!;
    const message = envelope(event, fullPayload(model, event)) as CatalogEvent;
    const cloudEvent = toCloudEvent(message, { ...attributes, specversion: '0.3', type: 'spoofed', eventversion: 'v9', data: 'spoofed' } as never);
    expect(cloudEvent).toMatchObject({ specversion: '1.0', type: event.type, eventversion: event.version, data: message.payload });
  });

  it('fromCloudEvent leaves non-objects alone', () => {
    for (const value of [null, 1, 'x', undefined]) expect(fromCloudEvent(value)).toBe(value);
    const array: unknown[] = [];
    expect(fromCloudEvent(array)).toBe(array);
  });

  it('fromCloudEvent never throws: an object it cannot read is returned as it is, and validateCloudEvent rejects it', () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const throwing = new Proxy({}, { ownKeys: () => { throw new Error('no keys'); }, get: () => { throw new Error('no value'); } });
    for (const hostile of [revoked, throwing]) {
      expect(fromCloudEvent(hostile)).toBe(hostile);
      expect(validateCloudEvent(hostile).ok).toBe(false);
    }
  });

  it('toCloudEvent takes an event, and throws a TypeError for anything else', () => {
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const notAnEvent of [null, undefined, 1, 'x', {}, { type: 'a' }, revoked]) {
      expect(() => toCloudEvent(notAnEvent as CatalogEvent, attributes)).toThrow(TypeError);
    }
    const event = model.events[0]!;
    expect(() => toCloudEvent(envelope(event, fullPayload(model, event)) as CatalogEvent, null as never)).toThrow(TypeError);
  });
});

describe('validateCloudEvent: errors point into the CloudEvent', () => {
  const event = model.events.find((e) => e.type === 'account.created')!;
  const good = () => ({ specversion: '1.0', id: '1', source: 's', type: event.type, eventversion: event.version, data: fullPayload(model, event) as unknown });

  it('re-points payload issues to /data/...', () => {
    for (const mutation of mutations(model, event).filter((m) => m.validIn.length === 0)) {
      const error = expectError(validateCloudEvent({ ...good(), data: mutation.payload }), 'invalid_payload', mutation.label);
      expect(error.issues.map((i) => i.path)).toEqual([`/data${mutation.expectPath}`]);
      expect(error).toMatchObject({ type: event.type, version: event.version });
    }
    const strict = expectError(validateCloudEvent({ ...good(), data: { ...(good().data as object), extra: 1 } }, { mode: 'strict' }), 'invalid_payload');
    expect(strict.issues).toEqual([{ path: '/data/extra', code: 'additional_property', message: expect.any(String) }]);
  });

  it('says /data, not /payload, in the error message too', () => {
    const error = expectError(validateCloudEvent({ ...good(), data: { account_user_emails: [] } }), 'invalid_payload');
    expect(error.issues[0]!.path).toBe('/data/account_number');
    expect(error.message).toContain('/data/account_number');
    expect(error.message).not.toContain('/payload');
  });

  it('data not an object → malformed at /data', () => {
    for (const data of [null, [], 'text', 1, undefined]) {
      const error = expectError(validateCloudEvent({ ...good(), data }), 'malformed_message', JSON.stringify(data));
      expect(error.issues.map((i) => i.path)).toEqual(['/data']);
    }
  });

  it('wrong or missing specversion → malformed', () => {
    for (const specversion of ['0.3', '1', 1, 1.0, null, undefined, '1.0 ']) {
      const result = validateCloudEvent({ ...good(), specversion });
      expectWellFormed(result);
      const error = expectError(result, 'malformed_message', String(specversion));
      expect(error.issues).toEqual([expect.objectContaining({ path: '/specversion' })]);
    }
    const { specversion: _omit, ...withoutSpecversion } = good();
    expect(expectError(validateCloudEvent(withoutSpecversion), 'malformed_message').issues[0]!.path).toBe('/specversion');
  });

  it('missing or non-string eventversion → malformed at /eventversion', () => {
    const { eventversion: _omit, ...withoutVersion } = good();
    const error = expectError(validateCloudEvent(withoutVersion), 'malformed_message');
    expect(error.issues).toEqual([{ path: '/eventversion', code: 'required', message: expect.any(String) }]);
    const numeric = expectError(validateCloudEvent({ ...good(), eventversion: 1 }), 'malformed_message');
    expect(numeric.issues).toEqual([{ path: '/eventversion', code: 'type', message: expect.any(String) }]);
    // A "version" attribute is not the version.
    expectError(validateCloudEvent({ ...withoutVersion, version: event.version }), 'malformed_message');
  });

  it('unknown type or eventversion', () => {
    const type = expectError(validateCloudEvent({ ...good(), type: 'com.example.other' }), 'unknown_event_type');
    expect(type.issues[0]!.path).toBe('/type');
    const version = expectError(validateCloudEvent({ ...good(), eventversion: 'v9' }), 'unknown_event_version');
    expect(version).toMatchObject({ knownVersions: ['v1'] });
    expect(version.issues[0]!.path).toBe('/eventversion');
  });

  it('non-objects and hostile objects → malformed, never a throw', () => {
    const hostile = [
      null,
      undefined,
      42,
      'text',
      [],
      [good()],
      new Proxy({}, { get: () => { throw new Error('trap'); } }),
      Object.defineProperty({ ...good() }, 'data', { get: () => { throw new Error('no data'); }, enumerable: true }),
      Object.defineProperty({ ...good() }, 'specversion', { get: () => { throw new Error('no specversion'); }, enumerable: true }),
    ];
    for (const value of hostile) {
      const result = validateCloudEvent(value);
      expectWellFormed(result);
      expectError(result, 'malformed_message');
    }
  });
});
