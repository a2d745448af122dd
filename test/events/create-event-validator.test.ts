/**
 * `createEventValidator` (`<package>/create-event-validator`): `validateEvent` over the events
 * a program names through their per-event entries. A named event's message gets the result of
 * its own validator, which is the root's; anything else is an unknown event, as at the root.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { accountCreatedV1 } from '../../generated/events/account.created/v1.js';
import { agreementRevokedV1 } from '../../generated/events/agreement.revoked/v1.js';
import type { AccountCreatedV1Event, AgreementRevokedV1Event, CatalogEvent } from '../../generated/types.js';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { eventValidatorName } from '../../generator/emit/event-entries.js';
import { createEventValidator } from '../../runtime/entries/create-event-validator.js';
import type { EventValidator } from '../../runtime/entries/define-event-validator.js';
import { EventValidationError, validateEvent } from '../../runtime/index.js';
import { fullPayload, minimalPayload, mutations } from '../../generator/samples/payload-samples.js';

const { model } = loadCatalogFromDisk('catalog');
if (!model) throw new Error('catalog does not load');

const every = await Promise.all(
  model.events.map(async (event) => ((await import(`../../generated/events/${event.type}/${event.version}.ts`)) as Record<string, EventValidator<CatalogEvent>>)[eventValidatorName(event)]!),
);

/** The result without the wording of an unknown event's issue (which names the events given, not the catalog). */
const comparable = (result: ReturnType<typeof validateEvent>) =>
  result.ok || (result.error.code !== 'unknown_event_type' && result.error.code !== 'unknown_event_version') ? result : { ...result, error: { ...result.error, issues: result.error.issues.map(({ path, code }) => ({ path, code })) } };

describe('built from every event entry', () => {
  const catalog = createEventValidator(every);

  it('lists the events given, in order', () => {
    expect(catalog.events).toEqual(model.events.map(({ type, version }) => ({ type, version })));
  });

  it.each(['tolerant', 'strict'] as const)('gives the root validateEvent result for every event, %s', (mode) => {
    for (const event of model.events) {
      const payloads = [fullPayload(model, event), minimalPayload(model, event), ...mutations(model, event).map((m) => m.payload)];
      for (const payload of payloads) {
        const message = { type: event.type, version: event.version, payload };
        expect(catalog.validateEvent(message, { mode }), event.key).toEqual(validateEvent(message, { mode }));
      }
    }
  });

  it('gives the root result for malformed envelopes and unknown events', () => {
    const payload = { account_number: 'A', account_user_emails: [] };
    const messages = [null, [], 'x', 7, {}, { version: 'v1', payload }, { type: 5, version: 'v1', payload }, { type: 'account.created', payload }, { type: 'account.created', version: 'v1' }, { type: 'account.created', version: 'v1', payload: [] }, { type: 'no.such.event', version: 'v1', payload }, { type: 'account.created', version: 'v9', payload }, { type: 'agreement.revoked', version: 'v0', payload }];
    for (const message of messages) expect(comparable(catalog.validateEvent(message)), JSON.stringify(message)).toEqual(comparable(validateEvent(message)));
  });

  it('gives the root result, thrown reason included, for messages that throw when read', () => {
    const boom = (): never => {
      throw new Error('boom');
    };
    const payload = { account_number: 'A', account_user_emails: [] };
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const messages: [string, unknown][] = [
      ['a revoked proxy', revoked],
      ['type', Object.defineProperty({ version: 'v1', payload }, 'type', { get: boom, enumerable: true })],
      ['payload', Object.defineProperty({ type: 'account.created', version: 'v1' }, 'payload', { get: boom, enumerable: true })],
      ['a payload member', { type: 'account.created', version: 'v1', payload: Object.defineProperty({ account_user_emails: [] }, 'account_number', { get: boom, enumerable: true }) }],
      ['a thrown non-error', { type: 'account.created', version: 'v1', payload: new Proxy(payload, { get: () => { throw 'no'; } }) }],
    ];
    for (const [what, message] of messages) {
      const root = validateEvent(message);
      expect(root.ok, what).toBe(false);
      expect(catalog.validateEvent(message), what).toEqual(root);
      expect(accountCreatedV1.validate(message), what).toEqual(root);
    }
    expect(validateEvent(messages[1]![1])).toMatchObject({ error: { code: 'malformed_message', message: 'message could not be read: boom', issues: [{ path: '', code: 'unreadable', message: 'boom' }] } });
    const throwingPayload = Object.defineProperty({ account_user_emails: [] }, 'account_number', { get: boom, enumerable: true });
    expect(accountCreatedV1.validatePayload(throwingPayload)).toEqual({
      ok: false,
      error: { code: 'malformed_message', message: 'payload could not be read: boom', issues: [{ path: '/payload', code: 'unreadable', message: 'boom' }] },
    });
  });
});

describe('built from some event entries', () => {
  const some = createEventValidator([accountCreatedV1, agreementRevokedV1]);
  const created = { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } } as const;

  it('validates the events named, and types them', () => {
    const result = some.validateEvent(created);
    expect(result).toEqual({ ok: true, event: created });
    expectTypeOf(some.parseEvent(created)).toEqualTypeOf<AccountCreatedV1Event | AgreementRevokedV1Event>();
    expect(some.isEvent(created)).toBe(true);
    expect(some.parseEvent(created)).toBe(created);
  });

  it('calls an event of the catalog that was not named an unknown event type', () => {
    const result = some.validateEvent({ type: 'account.closed', version: 'v1', payload: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_event_type', type: 'account.closed', version: 'v1', issues: [{ path: '/type', code: 'unknown_event_type' }] } });
  });

  it('lists only the versions named for an unknown version', () => {
    const result = some.validateEvent({ type: 'agreement.revoked', version: 'v2', payload: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'unknown_event_version', type: 'agreement.revoked', version: 'v2', knownVersions: ['v1'] } });
    expect(validateEvent({ type: 'agreement.revoked', version: 'v2', payload: {} }).ok).toBe(false);
  });

  it('rejects an invalid payload with the root issues, and parseEvent throws them', () => {
    const bad = { type: 'account.created', version: 'v1', payload: { account_user_emails: [1] } };
    expect(some.validateEvent(bad)).toEqual(validateEvent(bad));
    expect(() => some.parseEvent(bad)).toThrow(EventValidationError);
    expect(some.isEvent(bad)).toBe(false);
  });

  it('never throws on hostile messages', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const throwing = { get type(): string { throw new Error('no'); } };
    for (const message of [proxy, throwing, { type: 'account.created', version: 'v1', payload: proxy }]) {
      const result = some.validateEvent(message);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('malformed_message');
    }
  });

  it('throws for options that do not exist, whatever the message', () => {
    expect(() => some.validateEvent(null, { mode: 'Strict' as 'strict' })).toThrow(TypeError);
    expect(() => some.validateEvent(created, { mode: 'Strict' as 'strict' })).toThrow(TypeError);
  });

  it('refuses an event named twice', () => {
    expect(() => createEventValidator([accountCreatedV1, agreementRevokedV1, accountCreatedV1])).toThrow(/account\.created v1 is named twice/);
  });
});
