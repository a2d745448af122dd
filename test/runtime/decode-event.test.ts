/**
 * `decodeEvent`: JSON text or UTF-8 bytes in, the same result as `validateEvent` out; bad
 * bytes and bad JSON are `malformed_message` with a position that points at the mistake.
 */
import { describe, expect, it } from 'vitest';
import { decodeEvent, validateEvent } from '../../runtime/index.js';
import { fullPayload } from '../../generator/samples/payload-samples.js';
import { envelope, expectError, expectValid, expectWellFormed, model } from './support.js';

const accountCreated = model.events.find((e) => e.type === 'account.created' && e.version === 'v1')!;
const message = envelope(accountCreated, fullPayload(model, accountCreated));
const text = JSON.stringify(message);
const pretty = JSON.stringify(message, null, 2);
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const BOM_BYTES = [0xef, 0xbb, 0xbf];

describe('decodeEvent: good input', () => {
  it('decodes a string', () => {
    const result = decodeEvent(text);
    expectValid(result);
    expect(result).toEqual({ ok: true, event: message });
    expectValid(decodeEvent(pretty));
    expectValid(decodeEvent(`\r\n\t ${text} \n`));
  });

  it('decodes a Uint8Array and a Buffer', () => {
    expect(decodeEvent(utf8(text))).toEqual({ ok: true, event: message });
    expect(decodeEvent(Buffer.from(pretty, 'utf8'))).toEqual({ ok: true, event: message });
    // A view into a larger buffer: only the view's bytes count.
    const padded = new Uint8Array([0x78, ...utf8(text), 0x78]);
    expectValid(decodeEvent(padded.subarray(1, padded.length - 1)));
  });

  it('accepts a UTF-8 byte-order mark, as a character and as bytes', () => {
    expect(decodeEvent(`\uFEFF${text}`)).toEqual({ ok: true, event: message });
    expect(decodeEvent(new Uint8Array([...BOM_BYTES, ...utf8(text)]))).toEqual({ ok: true, event: message });
  });

  it('keeps non-ASCII text intact', () => {
    const withUnicode = { ...message, payload: { ...message.payload as object, account_number: 'Zoë–日本語–🎉' } };
    const result = decodeEvent(utf8(JSON.stringify(withUnicode)));
    expectValid(result);
    if (result.ok) expect((result.event.payload as { account_number: string }).account_number).toBe('Zoë–日本語–🎉');
  });

  it('passes the mode on', () => {
    const extra = JSON.stringify({ ...message, payload: { ...(message.payload as object), surprise: 1 } });
    expectValid(decodeEvent(extra));
    expectValid(decodeEvent(extra, { mode: 'tolerant' }));
    const error = expectError(decodeEvent(extra, { mode: 'strict' }), 'invalid_payload');
    expect(error.issues).toEqual([{ path: '/payload/surprise', code: 'additional_property', message: expect.any(String) }]);
  });

  it('agrees with validateEvent on JSON.parse of the same text', () => {
    for (const t of [text, '{"type":"x","version":"v1","payload":{}}', '{"type":"account.created","version":"v1","payload":{}}', '{"type":"account.created","version":"v0","payload":{}}']) {
      expect(decodeEvent(t)).toEqual(validateEvent(JSON.parse(t)));
    }
  });

  it('keeps a "__proto__" key as an own property and pollutes nothing', () => {
    const withProto = text.replace('"payload":{', '"payload":{"__proto__":{"polluted":true},');
    const tolerant = decodeEvent(withProto);
    expectValid(tolerant);
    if (tolerant.ok) expect(Object.prototype.hasOwnProperty.call(tolerant.event.payload, '__proto__')).toBe(true);
    const strict = expectError(decodeEvent(withProto, { mode: 'strict' }), 'invalid_payload');
    expect(strict.issues).toEqual([{ path: '/payload/__proto__', code: 'additional_property', message: expect.any(String) }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('decodeEvent: bad bytes', () => {
  const cases: [string, number[]][] = [
    ['a lone continuation byte', [0x80]],
    ['0xFF', [0xff]],
    ['an overlong "/"', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a truncated sequence at the end', [0xe2, 0x82]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ];
  it.each(cases)('%s → malformed_message (invalid_utf8)', (_label, bytes) => {
    // Inside a string value of an otherwise valid event, so only the bytes are wrong.
    const i = text.indexOf('"account_number":"') + '"account_number":"'.length;
    expect(i).toBeGreaterThan(20);
    const raw = new Uint8Array([...utf8(text.slice(0, i)), ...bytes, ...utf8(text.slice(i))]);
    const result = decodeEvent(raw);
    const error = expectError(result, 'malformed_message');
    expectWellFormed(result);
    expect(error.issues).toEqual([{ path: '', code: 'invalid_utf8', message: expect.any(String) }]);
  });

  it('rejects a BOM-only or empty byte array as bad JSON, not bad UTF-8', () => {
    for (const raw of [new Uint8Array([]), new Uint8Array(BOM_BYTES)]) {
      expect(expectError(decodeEvent(raw), 'malformed_message').issues[0]!.code).toBe('json_syntax');
    }
  });

  it('rejects input that is neither a string nor bytes, without throwing', () => {
    for (const raw of [undefined, null, 42, {}, [], new ArrayBuffer(4), new String(text)]) {
      const result = decodeEvent(raw as unknown as string);
      expectWellFormed(result);
      expectError(result, 'malformed_message');
    }
  });
});

describe('decodeEvent: bad JSON says where', () => {
  /** [label, text, line, column]: 1-based, in UTF-16 code units, of the first character that cannot be JSON. */
  const cases: [string, string, number, number][] = [
    ['a trailing comma in an object', '{"type":"account.created",}', 1, 27],
    ['a trailing comma in an array', '{"a":[1,2,]}', 1, 11],
    ['an unterminated string', '{"type":"account.created', 1, 25],
    ['an unterminated string on line 3', '{\n  "type": "account.created",\n  "version": "v1\n}', 3, 17],
    ['a missing value', '{"type":}', 1, 9],
    ['a missing value on line 2', '{"type": "a",\n   "version": ,\n}', 2, 15],
    ['a missing colon', '{"type" "a"}', 1, 9],
    ['garbage after the value', `${text} x`, 1, text.length + 2],
    ['a second value', `${text}\n${text}`, 2, 1],
    ['garbage after a pretty value', `${pretty}\n}`, pretty.split('\n').length + 1, 1],
    ['empty input', '', 1, 1],
    ['only white space', ' \n\t\n  ', 3, 3],
    ['single quotes', "{'type':'a'}", 1, 2],
    ['an unquoted key', '{type:"a"}', 1, 2],
    ['a bad literal', '{"a":tru}', 1, 9],
    ['a bad escape', '{"a":"\\x41"}', 1, 8],
    ['a bad unicode escape', '{"a":"\\u00G1"}', 1, 11],
    ['a raw control character in a string', '{"a":"line\nbreak"}', 1, 11],
    ['a leading zero', '{"a":01}', 1, 7],
    ['a number without digits after the point', '{"a":1.}', 1, 8],
    ['NaN', '{"a":NaN}', 1, 6],
    ['a comment', '// note\n{}', 1, 1],
    ['a missing closing brace', '{"a":1', 1, 7],
    ['a mismatched bracket', '{"a":[1,2}', 1, 10],
    ['after a CRLF line end', '{\r\n"a":1,\r\n}', 3, 1],
    ['deep nesting: 100k "["', '['.repeat(100_000), 1, 100_001],
    ['deep nesting: 100k "[" then garbage', `${'['.repeat(100_000)}x`, 1, 100_001],
    ['deep nesting of objects, with a bad end', `${'{"a":'.repeat(50_000)}1${'}'.repeat(49_999)}]`, 1, 50_000 * 5 + 1 + 49_999 + 1],
    ['a BOM, then a mistake', '\uFEFF{"a":}', 1, 6],
  ];

  it.each(cases)('%s', (_label, input, line, column) => {
    const result = decodeEvent(input);
    const error = expectError(result, 'malformed_message');
    expectWellFormed(result);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ path: '', code: 'json_syntax' });
    expect(error.message).toContain(`line ${line}, column ${column}`);
    // The same from bytes.
    expect(expectError(decodeEvent(utf8(input)), 'malformed_message').message).toContain(`line ${line}, column ${column}`);
  });

  it('points at the right character (checked against the text)', () => {
    // The reported offset is where the first bad character is.
    const input = '{"type": "a", "version": "v1", "payload": {"x": [1, 2, @]}}';
    const error = expectError(decodeEvent(input), 'malformed_message');
    const offset = Number(/offset (\d+)/.exec(error.message)?.[1]);
    expect(input[offset]).toBe('@');
  });
});

describe('decodeEvent: valid JSON that is not an event', () => {
  const cases: [string, string, string][] = [
    ['a number', '42', 'malformed_message'],
    ['a string', '"account.created"', 'malformed_message'],
    ['null', 'null', 'malformed_message'],
    ['true', 'true', 'malformed_message'],
    ['an array', `[${text}]`, 'malformed_message'],
    ['an empty object', '{}', 'malformed_message'],
    ['no payload', '{"type":"account.created","version":"v1"}', 'malformed_message'],
    ['a payload array', '{"type":"account.created","version":"v1","payload":[]}', 'malformed_message'],
    ['a numeric version', '{"type":"account.created","version":1,"payload":{}}', 'malformed_message'],
    ['an unknown type', '{"type":"no.such.event","version":"v1","payload":{}}', 'unknown_event_type'],
    ['an unknown version', '{"type":"account.created","version":"v9","payload":{}}', 'unknown_event_version'],
    ['an invalid payload', '{"type":"account.created","version":"v1","payload":{"account_number":1}}', 'invalid_payload'],
    ['deeply nested arrays (valid JSON)', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'malformed_message'],
  ];
  it.each(cases)('%s → %s', (_label, input, code) => {
    const result = decodeEvent(input);
    expectWellFormed(result);
    expectError(result, code as 'malformed_message');
    expect(decodeEvent(utf8(input))).toEqual(result);
  });

  it('reads 1e309 as Infinity and -0 as 0, and rejects the non-finite number', () => {
    const error = expectError(decodeEvent('{"type":"account.created","version":"v1","payload":{"account_number":1e309,"account_user_emails":[]}}'), 'invalid_payload');
    expect(error.issues).toEqual([{ path: '/payload/account_number', code: 'type', message: expect.any(String) }]);
  });
});
