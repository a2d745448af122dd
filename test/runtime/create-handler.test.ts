/**
 * `createHandler` and `createExhaustiveHandler`: validate, then call exactly the handler of
 * the message's (type, version), or the hook that fits what went wrong.
 */
import { describe, expect, it, vi } from 'vitest';
import { createExhaustiveHandler, createHandler, EventValidationError, eventCatalog, type EventError, type ExhaustiveHandlerMap } from '../../runtime/index.js';
import { fullPayload, minimalPayload } from '../../generator/samples/payload-samples.js';
import { envelope, model } from './support.js';

const find = (type: string, version: string) => model.events.find((e) => e.type === type && e.version === version)!;
const sample = (type: string, version: string) => envelope(find(type, version), fullPayload(model, find(type, version)));

const accountCreated = () => sample('account.created', 'v1');
const revokedV1 = () => sample('agreement.revoked', 'v1');
const revokedV2 = () => sample('agreement.revoked', 'v2');

function handlersWithSpies() {
  const created = vi.fn((payload: { account_number: string }, _event: unknown) => `created ${payload.account_number}`);
  const v1 = vi.fn((_payload: unknown, _event: unknown) => 'revoked v1');
  const v2 = vi.fn((_payload: unknown, _event: unknown) => 'revoked v2');
  const handle = createHandler<string>({
    'account.created': { v1: (payload, event) => created(payload, event) },
    'agreement.revoked': { v1: (payload, event) => v1(payload, event), v2: (payload, event) => v2(payload, event) },
  });
  return { handle, created, v1, v2 };
}

describe('createHandler: dispatch', () => {
  it('calls exactly the right handler with (payload, event)', () => {
    const { handle, created, v1, v2 } = handlersWithSpies();
    const message = accountCreated();
    expect(handle(message)).toBe(`created ${(message.payload as { account_number: string }).account_number}`);
    expect(created).toHaveBeenCalledTimes(1);
    expect(created.mock.calls[0]![0]).toBe(message.payload);
    expect(created.mock.calls[0]![1]).toBe(message);
    expect(v1).not.toHaveBeenCalled();
    expect(v2).not.toHaveBeenCalled();

    const m2 = revokedV2();
    expect(handle(m2)).toBe('revoked v2');
    expect(v2).toHaveBeenCalledWith(m2.payload, m2);
    expect(v1).not.toHaveBeenCalled();

    const m1 = revokedV1();
    expect(handle(m1)).toBe('revoked v1');
    expect(v1).toHaveBeenCalledWith(m1.payload, m1);
    expect(created).toHaveBeenCalledTimes(1);
    expect(v2).toHaveBeenCalledTimes(1);
  });

  it('dispatches every event of the catalog to its own handler (exhaustive map)', () => {
    const calls: string[] = [];
    const map: Record<string, Record<string, (payload: unknown, event: { type: string; version: string }) => string>> = {};
    for (const { type, version } of eventCatalog) {
      (map[type] ??= {})[version] = (_payload, event) => {
        calls.push(`${event.type}@${event.version}`);
        return `${type}@${version}`;
      };
    }
    const handle = createExhaustiveHandler<string>(map as unknown as ExhaustiveHandlerMap<string>);
    for (const event of model.events) {
      expect(handle(envelope(event, minimalPayload(model, event)))).toBe(event.key);
    }
    expect(calls).toEqual(model.events.map((e) => e.key));
  });

  it('passes handler return values through, promises included', async () => {
    const handle = createHandler({
      'account.created': { v1: async (payload) => ({ stored: payload.account_number }) },
    });
    const result = handle(accountCreated());
    expect(result).toBeInstanceOf(Promise);
    await expect(result).resolves.toEqual({ stored: (accountCreated().payload as { account_number: string }).account_number });

    const rejecting = createHandler({ 'account.created': { v1: () => Promise.reject(new Error('downstream failed')) } });
    await expect(rejecting(accountCreated())).rejects.toThrow('downstream failed');

    const throwing = createHandler({ 'account.created': { v1: () => { throw new Error('handler threw'); } } });
    expect(() => throwing(accountCreated())).toThrow('handler threw');

    const falsy = createHandler({ 'account.created': { v1: () => 0 } });
    expect(falsy(accountCreated())).toBe(0);
  });

  it('does not treat inherited names as handlers', () => {
    const onUnhandled = vi.fn(() => 'unhandled');
    const map = Object.create({ 'account.created': { v1: () => 'inherited' } }) as object;
    const handle = createHandler(map, { onUnhandled });
    expect(handle(accountCreated())).toBe('unhandled');
  });
});

describe('createHandler: hooks', () => {
  it('unknown type or version → onUnknown with the error and the message', () => {
    const onUnknown = vi.fn((error: EventError, message: unknown) => ({ error, message }));
    const onInvalid = vi.fn();
    const handle = createHandler({ 'account.created': { v1: () => 'no' } }, { onUnknown, onInvalid });

    const unknownType = { type: 'no.such.event', version: 'v1', payload: {} };
    expect(handle(unknownType)).toEqual({ error: expect.objectContaining({ code: 'unknown_event_type' }), message: unknownType });
    const unknownVersion = { ...accountCreated(), version: 'v7' };
    expect(handle(unknownVersion)).toEqual({ error: expect.objectContaining({ code: 'unknown_event_version', knownVersions: ['v1'] }), message: unknownVersion });
    expect(onUnknown).toHaveBeenCalledTimes(2);
    expect(onInvalid).not.toHaveBeenCalled();
  });

  it('unknown type or version by default: returns undefined, does not throw', () => {
    const { handle, created } = handlersWithSpies();
    expect(handle({ type: 'no.such.event', version: 'v1', payload: {} })).toBeUndefined();
    expect(handle({ ...accountCreated(), version: 'v2' })).toBeUndefined();
    expect(handle.decode('{"type":"no.such.event","version":"v1","payload":{}}')).toBeUndefined();
    expect(created).not.toHaveBeenCalled();
  });

  it('invalid or malformed → onInvalid with the error and the message', () => {
    const onInvalid = vi.fn((error: EventError, _message: unknown) => `dead-letter: ${error.code}`);
    const onUnknown = vi.fn();
    const handler = vi.fn();
    const handle = createHandler({ 'account.created': { v1: handler } }, { onInvalid, onUnknown });

    expect(handle({ type: 'account.created', version: 'v1', payload: {} })).toBe('dead-letter: invalid_payload');
    expect(handle(null)).toBe('dead-letter: malformed_message');
    expect(handle({ type: 'account.created', version: 'v1', payload: [] })).toBe('dead-letter: malformed_message');
    expect(handle.decode('{not json')).toBe('dead-letter: malformed_message');
    expect(onInvalid.mock.calls[0]![0].issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/payload/account_number', code: 'required' })]));
    expect(onInvalid.mock.calls[1]![1]).toBeNull();
    expect(onInvalid.mock.calls[3]![1]).toBe('{not json');
    expect(handler).not.toHaveBeenCalled();
    expect(onUnknown).not.toHaveBeenCalled();
  });

  it('invalid or malformed by default: throws EventValidationError', () => {
    const { handle, created } = handlersWithSpies();
    expect(() => handle({ type: 'account.created', version: 'v1', payload: {} })).toThrow(EventValidationError);
    expect(() => handle('not an object')).toThrow(expect.objectContaining({ code: 'malformed_message' }));
    expect(() => handle.decode(new Uint8Array([0xff]))).toThrow(expect.objectContaining({ code: 'malformed_message' }));
    try {
      handle({ type: 'account.created', version: 'v1', payload: { account_user_emails: [] } });
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(EventValidationError);
      expect((error as EventValidationError).issues).toEqual([{ path: '/payload/account_number', code: 'required', message: expect.any(String) }]);
    }
    expect(created).not.toHaveBeenCalled();
  });

  it('valid but unhandled → onUnhandled with the event; by default undefined', () => {
    const { handle } = handlersWithSpies();
    const other = sample('account.updated', 'v1');
    expect(handle(other)).toBeUndefined();

    const onUnhandled = vi.fn((event: { type: string }) => `unhandled ${event.type}`);
    const withHook = createHandler({ 'agreement.revoked': { v1: () => 'v1 only' } }, { onUnhandled });
    expect(withHook(other)).toBe('unhandled account.updated');
    expect(onUnhandled).toHaveBeenCalledWith(other);
    // A handled type, an unhandled version of it.
    expect(withHook(revokedV2())).toBe('unhandled agreement.revoked');
    expect(withHook(revokedV1())).toBe('v1 only');
  });
});

describe('createHandler: decode', () => {
  it('decodes JSON text and UTF-8 bytes, then dispatches', () => {
    const { handle, created } = handlersWithSpies();
    const message = accountCreated();
    const expected = `created ${(message.payload as { account_number: string }).account_number}`;
    expect(handle.decode(JSON.stringify(message))).toBe(expected);
    expect(handle.decode(new TextEncoder().encode(JSON.stringify(message)))).toBe(expected);
    expect(handle.decode(`\uFEFF${JSON.stringify(message)}`)).toBe(expected);
    expect(created).toHaveBeenCalledTimes(3);
    expect(created.mock.calls[0]![0]).toEqual(message.payload);
  });
});

describe('createHandler: mode', () => {
  const extra = () => ({ ...accountCreated(), payload: { ...(accountCreated().payload as object), surprise: true } });

  it('is tolerant by default: unlisted properties reach the handler', () => {
    const handler = vi.fn((payload: object) => payload);
    const handle = createHandler({ 'account.created': { v1: handler } });
    expect(handle(extra())).toMatchObject({ surprise: true });
    expect(handle.decode(JSON.stringify(extra()))).toMatchObject({ surprise: true });
  });

  it('honours strict mode, for messages and for decode', () => {
    const handler = vi.fn();
    const onInvalid = vi.fn((error: EventError) => error);
    const handle = createHandler({ 'account.created': { v1: handler } }, { mode: 'strict', onInvalid });
    expect(handle(extra())).toMatchObject({ code: 'invalid_payload', issues: [expect.objectContaining({ path: '/payload/surprise', code: 'additional_property' })] });
    expect(handle.decode(JSON.stringify(extra()))).toMatchObject({ code: 'invalid_payload' });
    expect(handler).not.toHaveBeenCalled();
    handle(accountCreated());
    expect(handler).toHaveBeenCalledTimes(1);

    const strictDefault = createHandler({ 'account.created': { v1: handler } }, { mode: 'strict' });
    expect(() => strictDefault(extra())).toThrow(EventValidationError);
  });

  it('strict mode still accepts unlisted properties of open events', () => {
    const open = model.events.find((e) => e.open !== false)!;
    const handler = vi.fn(() => 'open ok');
    const handle = createHandler({ [open.type]: { [open.version]: handler } } as never, { mode: 'strict' });
    const message = envelope(open, { ...fullPayload(model, open), not_shown_in_the_seed: 1 });
    expect(handle(message)).toBe('open ok');
  });

  it('createExhaustiveHandler takes the same options', () => {
    const map: Record<string, Record<string, () => string>> = {};
    for (const { type, version } of eventCatalog) (map[type] ??= {})[version] = () => 'handled';
    const onInvalid = vi.fn(() => 'invalid');
    const onUnknown = vi.fn(() => 'unknown');
    const handle = createExhaustiveHandler(map as unknown as ExhaustiveHandlerMap<string>, { mode: 'strict', onInvalid, onUnknown });
    expect(handle(extra())).toBe('invalid');
    expect(handle({ type: 'no.such.event', version: 'v1', payload: {} })).toBe('unknown');
    expect(handle(accountCreated())).toBe('handled');
  });
});
