/**
 * Bounds on what one hostile message can cost: the number of issues, the length of any text
 * copied from the message into its error, and a decode that never throws on what it is given.
 * Options, unlike messages, are the program's: an option that does not exist throws.
 */
import { describe, expect, it } from 'vitest';
import { accountCreatedV1 } from '../../generated/events/account.created/v1.js';
import { createHandler, decodeEvent, EventValidationError, isEvent, parseEvent, validateCloudEvent, validateEvent, type ValidateOptions } from '../../runtime/index.js';
import { ECHO_LIMIT } from '../../runtime/internal/echo.js';
import { MAX_ISSUES } from '../../runtime/internal/issues.js';
import { FULL_SEARCH_LIMIT } from '../../runtime/internal/payload-view.js';
import { expectError, expectWellFormed } from './support.js';

const accountCreated = (emails: string): string => `{"type":"account.created","version":"v1","payload":{"account_number":"A","account_user_emails":[${emails}]}}`;
const numbers = (count: number): string => Array<number>(count).fill(1).join(',');
const CUT = /…\[[\d,]+ more characters\]$/;

describe('issues per message', () => {
  it('lists at most MAX_ISSUES, then one issue saying exactly how many more', () => {
    const error = expectError(decodeEvent(accountCreated(numbers(3000))), 'invalid_payload');
    expect(error.issues).toHaveLength(MAX_ISSUES + 1);
    expect(error.issues[MAX_ISSUES - 1]).toMatchObject({ path: `/payload/account_user_emails/${MAX_ISSUES - 1}`, code: 'type' });
    expect(error.issues[MAX_ISSUES]).toEqual({ path: '/payload', code: 'too_many_issues', message: expect.stringMatching(/^2,900 more issue/) });
    // Exactly MAX_ISSUES issues: all listed, no closing issue.
    expect(expectError(decodeEvent(accountCreated(numbers(MAX_ISSUES))), 'invalid_payload').issues.map((i) => i.code)).toEqual(Array(MAX_ISSUES).fill('type'));
  });

  it('stays small and keeps the right code for ten million wrong items (19 MB)', () => {
    const text = accountCreated(numbers(10_000_000));
    expect(text.length).toBeGreaterThan(19_000_000);
    for (const mode of ['tolerant', 'strict'] as const) {
      const error = expectError(decodeEvent(text, { mode }), 'invalid_payload');
      expect(error.issues).toHaveLength(MAX_ISSUES + 1);
      expect(error.issues[0]).toMatchObject({ path: '/payload/account_user_emails/0', code: 'type' });
      expect(error.issues[MAX_ISSUES]).toMatchObject({ path: '/payload', code: 'too_many_issues', message: expect.stringMatching(/^at least [\d,]+ more issue.*too large to search in full/) });
      expect(JSON.stringify(error).length).toBeLessThan(20_000);
    }
  }, 60_000);

  it('bounds a strict payload with a hundred thousand unlisted members', () => {
    const payload: Record<string, unknown> = { account_number: 'A', account_user_emails: [] };
    for (let i = 0; i < 100_000; i++) payload[`extra_${i}`] = i;
    const error = expectError(validateEvent({ type: 'account.created', version: 'v1', payload }, { mode: 'strict' }), 'invalid_payload');
    expect(error.issues).toHaveLength(MAX_ISSUES + 1);
    expect(error.issues[0]).toMatchObject({ path: '/payload/extra_0', code: 'additional_property' });
    expect(error.issues.at(-1)!.code).toBe('too_many_issues');
  });

  it('in a payload too large to search in full, never reports a member it has as missing', () => {
    // The required members come after more members than the bounded search reads.
    const filler = Array.from({ length: FULL_SEARCH_LIMIT + 10 }, (_, i) => `"f${i}":0`).join(',');
    const text = `{"type":"account.created","version":"v1","payload":{${filler},"account_number":"A","account_user_emails":[1]}}`;
    const error = expectError(decodeEvent(text), 'invalid_payload');
    expect(error.issues.filter((i) => i.code === 'required')).toEqual([]);
    expect(error.issues[0]).toMatchObject({ path: '/payload/account_user_emails/0', code: 'type' });
  });

  it('keeps the error message to a few issues', () => {
    const error = expectError(decodeEvent(accountCreated(numbers(50))), 'invalid_payload');
    expect(error.issues).toHaveLength(50);
    expect(error.message).toContain('/payload/account_user_emails/9 ');
    expect(error.message).not.toContain('/payload/account_user_emails/10 ');
    expect(error.message).toMatch(/and 40 more issue\(s\)$/);
  });
});

describe('text copied from a message into its error', () => {
  const huge = 'x'.repeat(5_000_000);
  const bounded = (value: unknown): void => expect(JSON.stringify(value).length).toBeLessThan(4 * ECHO_LIMIT + 2_000);

  it('clips an unlisted property name in the path and the messages, with a visible cut', () => {
    const payload = { account_number: 'A', account_user_emails: [], [huge]: 1 };
    const error = expectError(validateEvent({ type: 'account.created', version: 'v1', payload }, { mode: 'strict' }), 'invalid_payload');
    bounded(error);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]!.path).toMatch(CUT);
    expect(error.issues[0]!.path.startsWith(`/payload/${'x'.repeat(ECHO_LIMIT)}…[4,999,800 more characters]`)).toBe(true);
    expect(error.issues[0]!.message).toContain('…[4,999,936 more characters]');
  });

  it('clips an unknown type or version in the message and in error.type and error.version', () => {
    const unknownType = expectError(validateEvent({ type: huge, version: huge, payload: {} }), 'unknown_event_type');
    bounded(unknownType);
    expect(unknownType.type).toMatch(CUT);
    expect(unknownType.version).toMatch(CUT);
    const unknownVersion = expectError(validateEvent({ type: 'account.created', version: huge, payload: {} }), 'unknown_event_version');
    bounded(unknownVersion);
    expect(unknownVersion.version).toMatch(CUT);
    const otherType = expectError(accountCreatedV1.validate({ type: huge, version: 'v1', payload: {} }), 'unknown_event_type');
    bounded(otherType);
    expect(otherType.type).toMatch(CUT);
  });

  it('clips a missing-property name too, and never cuts a surrogate pair in half', () => {
    const emoji = '😀'.repeat(ECHO_LIMIT);
    const error = expectError(validateEvent({ type: 'account.created', version: 'v1', payload: { account_number: 'A', account_user_emails: [], [emoji]: 1 } }, { mode: 'strict' }), 'invalid_payload');
    const kept = error.issues[0]!.path.slice('/payload/'.length).replace(CUT, '');
    expect(kept).toBe('😀'.repeat(ECHO_LIMIT / 2));
  });
});

describe('one envelope check', () => {
  it('gives validateEvent and an event validator the same verdict on a malformed envelope', () => {
    const payload = { account_number: 'A', account_user_emails: [] };
    const envelopes = [null, [], 'x', { version: 'v1', payload }, { type: 5, version: 'v1', payload }, { type: 'account.created', payload }, { type: 'account.created', version: 1, payload }, { type: 'account.created', version: 'v1' }, { type: 'account.created', version: 'v1', payload: [] }];
    for (const message of envelopes) expect(accountCreatedV1.validate(message), JSON.stringify(message)).toEqual(validateEvent(message));
  });
});

describe('decodeEvent never throws on what it is given', () => {
  const revoked = (): object => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  };
  const prototypeThrows = (): object =>
    new Proxy(new Uint8Array(2), {
      getPrototypeOf() {
        throw new Error('no prototype for you');
      },
    });

  it('on a revoked proxy or a proxy whose getPrototypeOf throws: malformed_message, not_text', () => {
    for (const raw of [revoked(), prototypeThrows()]) {
      const result = decodeEvent(raw as Uint8Array);
      expectWellFormed(result);
      expect(expectError(result, 'malformed_message').issues[0]!.code).toBe('not_text');
    }
  });

  it('and neither does createHandler(…).decode: the message goes to onInvalid (or an EventValidationError)', () => {
    const onInvalid = (error: { code: string }) => error.code;
    const handle = createHandler({}, { onInvalid });
    for (const raw of [revoked(), prototypeThrows()]) {
      expect(handle.decode(raw as Uint8Array)).toBe('malformed_message');
      expect(() => createHandler({}).decode(raw as Uint8Array)).toThrow(EventValidationError);
    }
  });
});

describe('options that do not exist are a programming error', () => {
  const message = { type: 'account.created', version: 'v1', payload: { account_number: 'A', account_user_emails: [] } };
  const wrong = [{ mode: 'Strict' }, { mode: 'lenient' }, { mode: 1 }, 'strict', null] as unknown as ValidateOptions[];
  const calls: [string, (options: ValidateOptions) => unknown][] = [
    ['validateEvent', (o) => validateEvent(message, o)],
    ['decodeEvent', (o) => decodeEvent(JSON.stringify(message), o)],
    ['decodeEvent on junk', (o) => decodeEvent('not json', o)],
    ['parseEvent', (o) => parseEvent(message, o)],
    ['isEvent', (o) => isEvent(message, o)],
    ['validateCloudEvent', (o) => validateCloudEvent({ specversion: '1.0', type: 'account.created', eventversion: 'v1', data: message.payload }, o)],
    ['createHandler', (o) => createHandler({}, o)],
    ['an event validator: validate', (o) => accountCreatedV1.validate(message, o)],
    ['an event validator: validatePayload', (o) => accountCreatedV1.validatePayload(message.payload, o)],
    ['an event validator: is', (o) => accountCreatedV1.is(message, o)],
    ['an event validator: parse', (o) => accountCreatedV1.parse(message, o)],
  ];

  it.each(calls)('%s throws a TypeError naming the valid modes', (_, call) => {
    for (const options of wrong) {
      expect(() => call(options), JSON.stringify(options)).toThrow(TypeError);
      expect(() => call(options)).toThrow(/'tolerant' \(the default\) or 'strict'|must be an object/);
    }
    for (const options of [undefined, {}, { mode: 'tolerant' }, { mode: 'strict' }, { mode: undefined }] as ValidateOptions[]) expect(() => call(options)).not.toThrow();
  });
});
