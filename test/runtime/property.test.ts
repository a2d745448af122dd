/**
 * Property-based tests (fast-check) of the run-time API on arbitrary and hostile input:
 * `validateEvent` and `decodeEvent` never throw and always return a well-formed result, nothing
 * global is modified, valid events stay valid under extra envelope keys, and the tolerant
 * verdict includes the strict one. More than 100,000 generated inputs per run (counted, and
 * checked by the last test).
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, type RunnerTask } from 'vitest';
import type { FieldModel } from '../../generator/model.js';
import { decodeEvent, validateEvent, type ValidationMode, type ValidationResult } from '../../runtime/index.js';
import { clip, ECHO_LIMIT, quote, QUOTE_LIMIT } from '../../runtime/internal/echo.js';
import { fullPayload, minimalPayload } from '../../generator/samples/payload-samples.js';
import { malformedResultReason, model, ownSnapshot, resolvePointer, snapshotDiff, type Envelope } from './support.js';

const MODES: readonly ValidationMode[] = ['tolerant', 'strict'];

/** Inputs actually checked, over every property of this file (some properties check several per run). */
let checked = 0;
/** The sum of `numRuns` over the properties that ran. */
let plannedRuns = 0;
const MIN_TOTAL = 100_000;
const runs = (numRuns: number): fc.Parameters<unknown> => {
  plannedRuns += numRuns;
  return { numRuns };
};

// ---------------------------------------------------------------------------------------------
// Globals that must not change.

const guarded = { 'Object.prototype': Object.prototype, 'Array.prototype': Array.prototype, 'Function.prototype': Function.prototype, Object, JSON };
let before: Map<string, ReturnType<typeof ownSnapshot>>;
beforeAll(() => {
  before = new Map(Object.entries(guarded).map(([name, target]) => [name, ownSnapshot(target)]));
});
function expectGlobalsUnchanged(): void {
  for (const [name, target] of Object.entries(guarded)) expect(snapshotDiff(before.get(name)!, ownSnapshot(target)), name).toEqual([]);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}
afterEach(expectGlobalsUnchanged);

// ---------------------------------------------------------------------------------------------
// Checks.

/** A plain assertion for hot loops (vitest's `expect` costs more than the code under test). */
function must(condition: boolean, message: () => string): void {
  if (!condition) throw new Error(message());
}
const issuesAre = (result: ValidationResult, expected: { path: string; code: string }[]): boolean =>
  !result.ok && result.error.issues.length === expected.length && result.error.issues.every((i, k) => i.path === expected[k]!.path && i.code === expected[k]!.code);
const describeResult = (result: ValidationResult): string => (result.ok ? 'valid' : `${result.error.code}: ${result.error.message}`);

const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Validates in both modes, checks both results are well formed, and strict ⊆ tolerant (not for
 * `unstable` input: getters that answer differently on each read can make either verdict).
 */
function validateBoth(message: unknown, unstable = false): Record<ValidationMode, ValidationResult> {
  checked++;
  const results = {} as Record<ValidationMode, ValidationResult>;
  for (const mode of MODES) {
    let result: ValidationResult;
    try {
      result = validateEvent(message, { mode });
    } catch (thrown) {
      throw new Error(`validateEvent threw in ${mode} mode: ${String(thrown)}`);
    }
    const reason = malformedResultReason(result);
    if (reason !== undefined) throw new Error(`${mode}: ${reason}`);
    if (result.ok && result.event !== message) throw new Error(`${mode}: a valid result must return the message itself`);
    results[mode] = result;
  }
  const { tolerant, strict } = results;
  if (unstable) return results;
  if (strict.ok && !tolerant.ok) throw new Error(`strict accepts what tolerant rejects: ${tolerant.error.message}`);
  if (!strict.ok && strict.error.code === 'invalid_payload' && strict.error.issues.every((i) => i.code === 'additional_property') && !tolerant.ok) {
    throw new Error(`strict rejects only unlisted properties but tolerant rejects too: ${tolerant.error.message}`);
  }
  if (!tolerant.ok && !strict.ok && tolerant.error.code !== 'invalid_payload' && tolerant.error.code !== strict.error.code) {
    throw new Error(`envelope verdicts differ between modes: ${tolerant.error.code} vs ${strict.error.code}`);
  }
  return results;
}

/** For well-behaved (non-hostile) messages: every payload issue points into the message. */
function expectIssuesPointIntoMessage(message: unknown, result: ValidationResult): void {
  if (result.ok || result.error.code !== 'invalid_payload') return;
  for (const issue of result.error.issues) {
    if (issue.code === 'too_many_issues' && issue.path === '/payload') continue;
    if (!issue.path.startsWith('/payload/')) throw new Error(`payload issue outside the payload: ${issue.path}`);
    const tokens = issue.path.split('/');
    const parent = resolvePointer(message, tokens.slice(0, -1).join('/'));
    if (!parent.found || typeof parent.value !== 'object' || parent.value === null) throw new Error(`issue ${issue.code} at ${issue.path}: parent does not exist`);
    // A long property name is clipped in the path: it stands for the member whose clipped name it is.
    const clipped = Object.keys(parent.value).find((key) => key.length > ECHO_LIMIT && escapeToken(clip(key)) === tokens[tokens.length - 1]);
    const at = clipped === undefined ? resolvePointer(message, issue.path) : { found: true, value: (parent.value as Record<string, unknown>)[clipped] };
    if (issue.code === 'required' && at.found && at.value !== undefined) throw new Error(`required at ${issue.path}, but the property is there`);
    // A hole in a sparse array reads as `undefined`: a wrong value at an index the array has.
    const hole = Array.isArray(parent.value) && Number(tokens[tokens.length - 1]) < parent.value.length;
    if ((issue.code === 'type' || issue.code === 'additional_property') && !at.found && !hole) throw new Error(`${issue.code} at ${issue.path}, which does not exist`);
  }
}

function decodeChecked(raw: string | Uint8Array, mode?: ValidationMode): ValidationResult {
  checked++;
  let result: ValidationResult;
  try {
    result = decodeEvent(raw, mode === undefined ? undefined : { mode });
  } catch (thrown) {
    throw new Error(`decodeEvent threw: ${String(thrown)}`);
  }
  const reason = malformedResultReason(result);
  if (reason !== undefined) throw new Error(reason);
  return result;
}

/** A `json_syntax` error's position agrees with itself: line and column are those of the offset. */
function syntaxPosition(text: string, result: ValidationResult, stripBom = true): { offset: number; line: number; column: number } | undefined {
  if (result.ok || result.error.issues[0]?.code !== 'json_syntax') return undefined;
  const match = /line (\d+), column (\d+) \(offset (\d+)\)/.exec(result.error.message);
  if (!match) throw new Error(`json_syntax error without a position: ${result.error.message}`);
  const [line, column, offset] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const body = stripBom && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (offset > body.length) throw new Error(`offset ${offset} beyond the text (${body.length})`);
  const lines = body.slice(0, offset).split('\n');
  if (line !== lines.length || column !== lines[lines.length - 1]!.length + 1) throw new Error(`line ${line}, column ${column} is not offset ${offset}`);
  return { offset, line, column };
}

// ---------------------------------------------------------------------------------------------
// Arbitraries.

const samples = model.events.map((event) => ({ event, full: fullPayload(model, event), minimal: minimalPayload(model, event) }));
type Sample = (typeof samples)[number];

const sampleArb = fc.constantFrom(...samples);
const envelopeOf = (s: Sample, which: 'full' | 'minimal' = 'full'): Envelope => ({ type: s.event.type, version: s.event.version, payload: structuredClone(s[which]) });

/** Every path (as tokens) inside a payload, objects and arrays included. */
function pathsIn(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => [[...at, i], ...pathsIn(v, [...at, i])]);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => [[...at, k], ...pathsIn(v, [...at, k])]);
  return [];
}
const samplePaths = new Map(samples.map((s) => [s, pathsIn(s.full)]));
/** Pointer (inside the payload) of the first object below the payload itself, if any. */
const firstNestedObject = new Map(
  samples.map((s) => {
    const pointers = samplePaths.get(s)!.map((p) => `/${p.map((t) => escapeToken(String(t))).join('/')}`);
    return [s, pointers.find((p) => {
      const { value } = resolvePointer(s.full, p);
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    })];
  }),
);

const DANGEROUS_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'then'];
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
/** Strings that mix lone surrogates, pointer metacharacters and ordinary text. */
const nastyString = fc
  .array(fc.oneof(loneSurrogate, fc.constantFrom('~', '/', '~0', '~1', '"', '\\', '\u0000', '\n', '\uFEFF', '💥'), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 8 })
  .map((parts) => parts.join(''));
const keyArb = fc.oneof(fc.string(), fc.constantFrom(...DANGEROUS_KEYS, 'type', 'version', 'payload'), nastyString);

const anythingArb = fc.anything({
  key: keyArb,
  maxDepth: 4,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
});

const SPECIAL_NUMBERS = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, -0, 0, 1.5, -1, 5e-324, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 53)];
const valueArb = fc.oneof(
  fc.anything({ key: keyArb, maxDepth: 2, withBigInt: true, withDate: true, withMap: true, withNullPrototype: true, withSparseArray: true, withTypedArray: true }),
  fc.jsonValue(),
  fc.constantFrom(...SPECIAL_NUMBERS),
  nastyString,
  fc.constantFrom(null, undefined, true, false, '', [], {}, Symbol('value'), 10n),
);

function setAt(root: unknown, path: readonly (string | number)[], value: unknown): void {
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  Object.defineProperty(node, path[path.length - 1]!, { value, writable: true, enumerable: true, configurable: true });
}
function deleteAt(root: unknown, path: readonly (string | number)[]): void {
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
}

/** Hostile values: each call builds a fresh one. */
const throwingTraps: ProxyHandler<object> = Object.fromEntries(
  (['get', 'set', 'has', 'ownKeys', 'getOwnPropertyDescriptor', 'getPrototypeOf', 'defineProperty', 'deleteProperty', 'isExtensible', 'preventExtensions', 'apply', 'construct'] as const).map((trap) => [
    trap,
    () => {
      throw new Error(`trap ${trap}`);
    },
  ]),
);
const hostileError = (): unknown => new Proxy({}, throwingTraps);
const HOSTILE: [string, (s: Sample) => unknown][] = [
  ['proxy, every trap throws', () => new Proxy({}, throwingTraps)],
  ['array proxy, every trap throws', () => new Proxy([], throwingTraps)],
  ['revoked proxy', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    return proxy;
  }],
  ['proxy throwing a hostile error', () => new Proxy({}, { get: () => { throw hostileError(); }, getPrototypeOf: () => { throw hostileError(); } })],
  ['proxy over a valid event, get throws', (s) => new Proxy(envelopeOf(s), { get: () => { throw new Error('get'); } })],
  ['proxy over a valid event, lying about its prototype', (s) => new Proxy(envelopeOf(s), { getPrototypeOf: () => Array.prototype })],
  ['getter on type that throws', (s) => Object.defineProperty(envelopeOf(s), 'type', { get: () => { throw new Error('type'); }, enumerable: true })],
  ['getter on payload that throws', (s) => Object.defineProperty(envelopeOf(s), 'payload', { get: () => { throw new Error('payload'); }, enumerable: true })],
  ['getter on a payload field that throws', (s) => {
    const message = envelopeOf(s);
    const key = Object.keys(s.full)[0] ?? 'x';
    Object.defineProperty(message.payload, key, { get: () => { throw new Error('field'); }, enumerable: true });
    return message;
  }],
  ['payload that is a proxy whose traps throw', (s) => ({ ...envelopeOf(s), payload: new Proxy(structuredClone(s.full), throwingTraps) })],
  ['payload proxy whose ownKeys throws', (s) => ({ ...envelopeOf(s), payload: new Proxy(structuredClone(s.full), { ownKeys: () => { throw new Error('ownKeys'); } }) })],
  ['a revoked proxy deep in the payload', (s) => {
    const message = envelopeOf(s);
    const paths = samplePaths.get(s)!;
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    if (paths.length > 0) setAt(message.payload, paths[paths.length - 1]!, proxy);
    return message;
  }],
  ['a getter returning a different value each time', (s) => {
    let n = 0;
    return Object.defineProperty(envelopeOf(s), 'payload', { get: () => (n++ % 2 === 0 ? structuredClone(s.full) : 'now a string'), enumerable: true });
  }],
  ['a payload field whose getter alternates', (s) => {
    const message = envelopeOf(s);
    const key = Object.keys(s.full)[0] ?? 'x';
    let n = 0;
    const good = (s.full as Record<string, unknown>)[key];
    Object.defineProperty(message.payload, key, { get: () => (n++ % 2 === 0 ? good : Symbol('bad')), enumerable: true });
    return message;
  }],
  ['a frozen valid event', (s) => {
    const freeze = (v: unknown): unknown => {
      if (typeof v === 'object' && v !== null) Object.values(v).forEach(freeze);
      return Object.freeze(v);
    };
    return freeze(envelopeOf(s));
  }],
  ['a sealed, non-extensible valid event', (s) => Object.seal(Object.preventExtensions(envelopeOf(s)))],
  ['a null-prototype valid event', (s) => Object.assign(Object.create(null) as object, envelopeOf(s))],
  ['symbols as type, version, payload', () => ({ type: Symbol('type'), version: Symbol('v1'), payload: Symbol('payload') })],
  ['symbol keys on a valid event', (s) => ({ ...envelopeOf(s), [Symbol('type')]: 'x', [Symbol.toPrimitive]: () => { throw new Error('toPrimitive'); } })],
  ['symbol keys and values in the payload', (s) => {
    const message = envelopeOf(s);
    Object.assign(message.payload as object, { [Symbol('extra')]: Symbol('value') });
    return message;
  }],
  ['a class instance with the right fields', (s) => Object.assign(new (class Event {})(), envelopeOf(s))],
  ['a function with the right fields', (s) => Object.assign(() => undefined, envelopeOf(s))],
  ['an object whose toString and valueOf throw', (s) => ({ ...envelopeOf(s), type: { toString: () => { throw new Error('toString'); }, valueOf: () => { throw new Error('valueOf'); } } })],
  ['a cyclic payload', (s) => {
    const message = envelopeOf(s);
    (message.payload as Record<string, unknown>).self = message.payload;
    (message.payload as Record<string, unknown>).root = message;
    return message;
  }],
];
const hostileArb = fc.tuple(fc.constantFrom(...HOSTILE), sampleArb).map(([[label, build], s]) => ({ label, message: build(s) }));
const isUnstable = (label: string): boolean => label.includes('different value each time') || label.includes('alternates');

// ---------------------------------------------------------------------------------------------
// Properties.

describe('validateEvent never throws and returns a well-formed result', () => {
  it('on anything (fc.anything, with dangerous keys and exotic objects)', () => {
    fc.assert(fc.property(anythingArb, (value) => void validateBoth(value)), runs(30_000));
  });

  it('on JSON values, and decodeEvent agrees on their JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        validateBoth(value);
        const text = JSON.stringify(value);
        const parsed = JSON.parse(text) as unknown;
        for (const mode of MODES) expect(decodeChecked(text, mode)).toEqual(validateEvent(parsed, { mode }));
      }),
      runs(5_000),
    );
  });

  it('on envelopes with a real type and version and an arbitrary payload', () => {
    const payloadArb = fc.oneof(
      anythingArb,
      fc.dictionary(keyArb, valueArb, { maxKeys: 6 }),
      // Keys the catalog knows for this event, with arbitrary values.
      sampleArb.chain((s) => fc.dictionary(fc.constantFrom(...Object.keys(s.full), 'x'), valueArb, { maxKeys: 8 })),
    );
    fc.assert(
      fc.property(sampleArb, payloadArb, (s, payload) => {
        const message = { type: s.event.type, version: s.event.version, payload };
        const results = validateBoth(message);
        for (const mode of MODES) expectIssuesPointIntoMessage(message, results[mode]);
      }),
      runs(5_000),
    );
  });

  it('on valid payloads with one value replaced, removed, or one property added, anywhere', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), value: valueArb }),
      fc.record({ kind: fc.constant('delete' as const) }),
      fc.record({ kind: fc.constant('add' as const), key: keyArb, value: valueArb }),
    );
    fc.assert(
      fc.property(sampleArb, fc.nat(), op, fc.boolean(), (s, pick, change, minimal) => {
        const message = envelopeOf(s, minimal ? 'minimal' : 'full');
        const paths = pathsIn(message.payload);
        const path = paths.length > 0 ? paths[pick % paths.length]! : [];
        const target = path.length > 0 ? path : undefined;
        if (change.kind === 'replace' && target) setAt(message.payload, target, change.value);
        else if (change.kind === 'delete' && target) deleteAt(message.payload, target);
        else if (change.kind === 'add') {
          let container: unknown = message.payload;
          for (const step of path) container = (container as Record<string | number, unknown>)[step];
          if (typeof container !== 'object' || container === null || Array.isArray(container)) container = message.payload;
          Object.defineProperty(container, change.key, { value: change.value, writable: true, enumerable: true, configurable: true });
        }
        const results = validateBoth(message);
        for (const mode of MODES) expectIssuesPointIntoMessage(message, results[mode]);
      }),
      runs(8_000),
    );
  });

  it('on hostile values: proxies and getters that throw, frozen, sealed, null-prototype, symbols, cycles', () => {
    fc.assert(
      fc.property(hostileArb, ({ label, message }) => {
        try {
          validateBoth(message, isUnstable(label));
        } catch (error) {
          throw new Error(`${label}: ${(error as Error).message}`);
        }
      }),
      runs(3_000),
    );
    // Each builder at least once, deterministically.
    for (const [label, build] of HOSTILE) {
      for (const s of [samples[0]!, samples[samples.length - 1]!]) {
        try {
          validateBoth(build(s), isUnstable(label));
        } catch (error) {
          throw new Error(`${label}: ${(error as Error).message}`);
        }
      }
    }
  });

  it('on deep nesting, anywhere in the message', () => {
    const nest = (depth: number, kind: 'array' | 'object', leaf: unknown): unknown => {
      let value = leaf;
      for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
      return value;
    };
    fc.assert(
      fc.property(sampleArb, fc.integer({ min: 1_000, max: 20_000 }), fc.constantFrom('array' as const, 'object' as const), fc.constantFrom('message', 'payload', 'extra', 'field', 'envelope-key'), (s, depth, kind, where) => {
        /** The message with `value` at the chosen place. */
        const place = (value: unknown): unknown => {
          const message = envelopeOf(s);
          if (where === 'message') return value;
          if (where === 'payload') message.payload = value;
          else if (where === 'extra') (message.payload as Record<string, unknown>).deep = value;
          else if (where === 'envelope-key') message.deep = value;
          else {
            const paths = samplePaths.get(s)!;
            if (paths.length > 0) setAt(message.payload, paths[0]!, value);
            else (message.payload as Record<string, unknown>).deep = value;
          }
          return message;
        };
        const results = validateBoth(place(nest(depth, kind, 'leaf')));
        if (where === 'extra' || where === 'envelope-key') expect(results.tolerant.ok).toBe(true);
        // The same as JSON text, built without recursion (JSON.stringify would recurse).
        const open = kind === 'array' ? '['.repeat(depth) : '{"a":'.repeat(depth);
        const close = kind === 'array' ? ']'.repeat(depth) : '}'.repeat(depth);
        const text = JSON.stringify(place('__DEEP__')).replace('"__DEEP__"', `${open}"leaf"${close}`);
        decodeChecked(text);
        // Truncated: a syntax error at the very end.
        const truncated = decodeChecked(text.slice(0, -Math.min(depth, 10)));
        expect(syntaxPosition(text.slice(0, -Math.min(depth, 10)), truncated)).toBeDefined();
      }),
      runs(40),
    );
  });

  it('on huge strings (1 MB and more) as type, version, values and keys', () => {
    const MB = 1 << 20;
    fc.assert(
      fc.property(sampleArb, fc.oneof(nastyString, fc.string({ minLength: 1 })).filter((t) => t.length > 0), fc.constantFrom('type', 'version', 'value', 'key', 'envelope-key', 'text'), (s, unit, where) => {
        const huge = unit.repeat(Math.ceil(MB / unit.length) + 1);
        expect(huge.length).toBeGreaterThanOrEqual(MB);
        const message = envelopeOf(s);
        if (where === 'type') message.type = huge;
        else if (where === 'version') message.version = huge;
        else if (where === 'value') (message.payload as Record<string, unknown>)[Object.keys(s.full)[0] ?? 'x'] = huge;
        else if (where === 'key') Object.defineProperty(message.payload, huge, { value: 1, enumerable: true });
        else if (where === 'envelope-key') Object.defineProperty(message, huge, { value: huge, enumerable: true });
        const results = validateBoth(message);
        if (where === 'type' || where === 'version') {
          for (const mode of MODES) if (!results[mode].ok) expect((results[mode] as { error: { message: string } }).error.message.length).toBeLessThan(1_000);
        }
        if (where === 'envelope-key') expect(results.strict.ok).toBe(true);
        if (where === 'key' && s.event.open === false) {
          expect(results.tolerant.ok).toBe(true);
          expect(results.strict.ok ? [] : results.strict.error.issues.map((i) => i.path)).toEqual([`/payload/${escapeToken(clip(huge))}`]);
        }
        const text = where === 'text' ? `{"type":"${huge}` : JSON.stringify(message);
        decodeChecked(text);
        decodeChecked(new TextEncoder().encode(text));
      }),
      runs(6),
    );
  });
});

describe('numbers', () => {
  /** Top-level number and integer fields of the catalog. */
  const numeric = samples.flatMap((s) =>
    s.event.fields
      .filter((f): f is FieldModel & { type: { kind: 'primitive'; name: 'integer' | 'number' } } => f.type.kind === 'primitive' && (f.type.name === 'integer' || f.type.name === 'number'))
      .map((field) => ({ s, field })),
  );

  it('has integer and number fields to test', () => {
    expect(numeric.some(({ field }) => field.type.name === 'integer')).toBe(true);
    expect(numeric.some(({ field }) => field.type.name === 'number')).toBe(true);
  });

  it('accepts exactly the finite numbers (integers for integer fields), -0 included; never NaN or ±Infinity', () => {
    const numberArb = fc.oneof(fc.constantFrom(...SPECIAL_NUMBERS), fc.double(), fc.integer());
    fc.assert(
      fc.property(fc.constantFrom(...numeric), numberArb, ({ s, field }, n) => {
        const message = envelopeOf(s);
        (message.payload as Record<string, unknown>)[field.name] = n;
        const results = validateBoth(message);
        const expected = field.type.name === 'integer' ? Number.isInteger(n) : Number.isFinite(n);
        for (const mode of MODES) {
          const result = results[mode];
          const label = `${s.event.key} ${field.name} (${field.type.name}) = ${Object.is(n, -0) ? '-0' : n}: ${describeResult(result)}`;
          must(result.ok === expected, () => label);
          if (!result.ok) must(issuesAre(result, [{ path: `/payload/${escapeToken(field.name)}`, code: 'type' }]), () => label);
        }
      }),
      runs(4_000),
    );
  });

  it('reads number literals from JSON text as JSON.parse does (1e309 is Infinity and rejected, -0 is accepted)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...numeric), fc.constantFrom('1e309', '-1e309', '1E400', '-0', '-0.0', '0e10', '1e-400', '12345678901234567890', '1.0', '2.5', '-1'), ({ s, field }, literal) => {
        const message = envelopeOf(s);
        (message.payload as Record<string, unknown>)[field.name] = '__N__';
        const text = JSON.stringify(message).replace('"__N__"', literal);
        const n = JSON.parse(literal) as number;
        const expected = field.type.name === 'integer' ? Number.isInteger(n) : Number.isFinite(n);
        must(decodeChecked(text).ok === expected, () => `${s.event.key} ${field.name} = ${literal}`);
      }),
      runs(2_000),
    );
  });
});

describe('strings and keys with lone surrogates and pointer metacharacters', () => {
  const stringFields = samples.flatMap((s) => s.event.fields.filter((f) => f.type.kind === 'primitive' && f.type.name === 'string').map((field) => ({ s, field })));

  it('any string is a string: valid in both modes, from objects and from JSON text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...stringFields), nastyString, ({ s, field }, value) => {
        const message = envelopeOf(s);
        (message.payload as Record<string, unknown>)[field.name] = value;
        const results = validateBoth(message);
        must(results.strict.ok, () => describeResult(results.strict));
        // JSON.stringify escapes lone surrogates, so the text is well-formed and decodes to the same string.
        const decoded = decodeChecked(JSON.stringify(message), 'strict');
        must(decoded.ok && (decoded.event.payload as Record<string, unknown>)[field.name] === value, () => describeResult(decoded));
      }),
      runs(3_000),
    );
  });

  it('a quoted name reads as JSON escapes it, clipped, whatever its characters', () => {
    fc.assert(
      fc.property(fc.oneof(nastyString, keyArb, fc.string({ unit: 'grapheme-ascii', maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 })), (text) => {
        must(quote(text) === JSON.stringify(clip(text, QUOTE_LIMIT)), () => `${JSON.stringify(text)} → ${quote(text)}`);
      }),
      runs(10_000),
    );
  });

  it('an unlisted key is kept in tolerant mode and reported at its escaped pointer in strict mode', () => {
    fc.assert(
      fc.property(sampleArb, fc.oneof(nastyString, keyArb), valueArb, (s, key, value) => {
        fc.pre(!Object.prototype.hasOwnProperty.call(s.full, key));
        const message = envelopeOf(s);
        Object.defineProperty(message.payload, key, { value, writable: true, enumerable: true, configurable: true });
        const results = validateBoth(message);
        must(results.tolerant.ok && Object.is(Object.getOwnPropertyDescriptor(results.tolerant.event.payload, key)?.value, value), () => `tolerant: ${describeResult(results.tolerant)}`);
        if (s.event.open === false) must(issuesAre(results.strict, [{ path: `/payload/${escapeToken(key)}`, code: 'additional_property' }]), () => `strict: ${describeResult(results.strict)}`);
        else must(results.strict.ok, () => `strict, open event: ${describeResult(results.strict)}`);
      }),
      runs(3_000),
    );
  });
});

describe('__proto__, constructor, prototype', () => {
  it('as own keys (also from JSON.parse) anywhere: nothing is polluted, verdicts are as for any other key', () => {
    fc.assert(
      fc.property(sampleArb, fc.constantFrom(...DANGEROUS_KEYS), fc.oneof(fc.jsonValue(), fc.constant({ polluted: true })), fc.constantFrom('envelope', 'payload', 'nested', 'message-via-json'), (s, key, value, where) => {
        const message = envelopeOf(s);
        if (where === 'envelope') Object.defineProperty(message, key, { value, enumerable: true, writable: true, configurable: true });
        else if (where === 'payload') Object.defineProperty(message.payload, key, { value, enumerable: true, writable: true, configurable: true });
        else if (where === 'nested') {
          const nested = firstNestedObject.get(s);
          const target = nested ? resolvePointer(message.payload, nested).value : message.payload;
          Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
        }
        const member = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
        const payloadText = JSON.stringify(message.payload);
        const text =
          where === 'message-via-json'
            ? `{${member},"type":${JSON.stringify(message.type)},"version":${JSON.stringify(message.version)},"payload":{${member}${payloadText === '{}' ? '' : ','}${payloadText.slice(1)}}`
            : JSON.stringify(message);
        const fromJson = JSON.parse(text) as Envelope;
        for (const m of [where === 'message-via-json' ? fromJson : message, fromJson]) {
          const results = validateBoth(m);
          must(Object.getPrototypeOf(m) === Object.prototype, () => 'the message lost its prototype');
          if (where === 'envelope') must(results.strict.ok, () => describeResult(results.strict));
          if (where === 'payload' || where === 'message-via-json') {
            must(results.tolerant.ok, () => describeResult(results.tolerant));
            must(Object.prototype.hasOwnProperty.call(m.payload, key), () => `${key} is not an own property of the payload`);
            if (s.event.open === false) must(issuesAre(results.strict, [{ path: `/payload/${key}`, code: 'additional_property' }]), () => describeResult(results.strict));
            else must(results.strict.ok, () => describeResult(results.strict));
          }
        }
        expect(decodeChecked(text)).toEqual(validateEvent(fromJson));
        must(({} as Record<string, unknown>).polluted === undefined, () => 'Object.prototype polluted');
      }),
      runs(2_000),
    );
  });
});

describe('valid events stay valid', () => {
  it('after adding arbitrary extra envelope keys (kept on the event), in both modes', () => {
    const extraValue = fc.oneof(fc.jsonValue({ maxDepth: 2 }), nastyString, fc.constantFrom(...SPECIAL_NUMBERS, null, undefined, Symbol('value'), 10n, new Date(0)));
    const extraKeys = fc.dictionary(keyArb.filter((k) => k !== 'type' && k !== 'version' && k !== 'payload'), extraValue, { maxKeys: 6 });
    fc.assert(
      fc.property(sampleArb, fc.boolean(), extraKeys, (s, minimal, extras) => {
        const message = envelopeOf(s, minimal ? 'minimal' : 'full');
        for (const key of Reflect.ownKeys(extras)) Object.defineProperty(message, key, { value: (extras as Record<string | symbol, unknown>)[key], enumerable: true, writable: true, configurable: true });
        const results = validateBoth(message);
        for (const mode of MODES) {
          const result = results[mode];
          if (!result.ok) throw new Error(`${s.event.key} ${mode}: ${result.error.message}`);
          for (const key of Reflect.ownKeys(extras)) {
            must(Object.is(Object.getOwnPropertyDescriptor(result.event, key)?.value, (extras as Record<string | symbol, unknown>)[key]), () => `extra key ${String(key)} not kept`);
          }
        }
      }),
      runs(4_000),
    );
  });
});

describe('decodeEvent never throws', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), nastyString, fc.json()), (text) => {
        for (const t of [text, `\uFEFF${text}`]) syntaxPosition(t, decodeChecked(t));
      }),
      runs(20_000),
    );
  });

  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.json().map((t) => new TextEncoder().encode(t))), (bytes) => {
        const result = decodeChecked(bytes);
        if (!result.ok && result.error.issues[0]?.code === 'json_syntax') syntaxPosition(new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes), result, false);
      }),
      runs(20_000),
    );
  });

  it('on valid event text with one edit: the reported position is at or after the edit', () => {
    const texts = samples.map((s) => JSON.stringify(envelopeOf(s), null, s.event.key.length % 2 === 0 ? 2 : undefined));
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('insert' as const), text: fc.oneof(fc.constantFrom(',', '}', ']', '{', '[', ':', '"', '\\', 'x', ' ', '\n', '0', '-', 'e', '.'), fc.string({ maxLength: 3 })) }),
      fc.record({ kind: fc.constant('delete' as const), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('truncate' as const) }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...texts), fc.nat(), edit, (text, pick, change) => {
        const at = pick % (text.length + 1);
        const edited =
          change.kind === 'insert' ? text.slice(0, at) + change.text + text.slice(at) : change.kind === 'delete' ? text.slice(0, at) + text.slice(at + change.count) : text.slice(0, at);
        fc.pre(edited.charCodeAt(0) !== 0xfeff);
        const result = decodeChecked(edited);
        let parsed: unknown;
        let parses = true;
        try {
          parsed = JSON.parse(edited);
        } catch {
          parses = false;
        }
        if (parses) {
          expect(result).toEqual(validateEvent(parsed));
        } else {
          const position = syntaxPosition(edited, result);
          must(position !== undefined, () => `no position for ${JSON.stringify(edited)}: ${describeResult(result)}`);
          // Everything before the edit is the start of valid JSON, so the mistake is not there.
          must(position!.offset >= at, () => `position ${position!.offset} before the edit at ${at} in ${JSON.stringify(edited)}`);
        }
      }),
      runs(8_000),
    );
  });
});

afterAll(() => {
  expectGlobalsUnchanged();
});

describe('budget', () => {
  it(`ran properties on at least ${MIN_TOTAL} generated inputs`, (ctx) => {
    // The counts add up the other tests of this file: with a name filter (-t) they did not run.
    const tests = (tasks: readonly RunnerTask[]): RunnerTask[] => tasks.flatMap((t) => (t.type === 'suite' ? tests(t.tasks) : [t]));
    if (tests(ctx.task.file.tasks).some((t) => t !== ctx.task && t.mode !== 'run')) ctx.skip('counted only when every test of this file runs');
    expect(plannedRuns).toBeGreaterThanOrEqual(MIN_TOTAL);
    expect(checked).toBeGreaterThanOrEqual(MIN_TOTAL);
    console.info(`property runs: ${plannedRuns}; inputs checked (validate or decode calls): ${checked}`);
  });
});

