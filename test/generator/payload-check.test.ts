/**
 * The boolean payload checks (`accepts.tolerant` / `accepts.strict`, generator/emit/payload-check.ts)
 * give exactly ajv's verdicts: against ajv compiling the same payload schemas at run time with
 * the generator's options, for every event of the real catalog and the synthetic one (nullable
 * fields), on a full payload, a minimal one, every labelled mutation and a set of values ajv
 * treats in its own way (non-finite numbers, inherited members, arrays for objects).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { payloadSchema } from '../../generator/emit/json-schema.js';
import type { SchemaMode } from '../../generator/emit/schema-for.js';
import { payloadCheckCode } from '../../generator/emit/payload-check.js';
import { validatorAjvOptions } from '../../generator/emit/validators.js';
import type { CatalogModel, EventVersionModel } from '../../generator/model.js';
import { fullPayload, minimalPayload, mutations } from '../../generator/samples/payload-samples.js';
import { syntheticModel } from './synthetic-catalog.js';

const MODES: readonly SchemaMode[] = ['tolerant', 'strict'];

const loaded = loadCatalogFromDisk('catalog');
if (!loaded.model) throw new Error('the catalog does not load');
const model: CatalogModel = loaded.model;
const synthetic = syntheticModel();
const ajv = new Ajv2020(validatorAjvOptions(false));

/** The emitted check, made callable here (the generated module declares it the same way). */
function compileCheck(schema: Record<string, unknown>, options: { plainObject?: boolean } = {}): (data: unknown) => boolean {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- test only: runs the emitted text
  return new Function(`${payloadCheckCode('accepts', schema, options)}\nreturn accepts;`)() as (data: unknown) => boolean;
}

/** An object as `JSON.parse` makes it. */
const isPlainObject = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null);

/** Values ajv has its own rules for, put in place of each top-level field and of the whole payload. */
const ODD_VALUES: unknown[] = [null, 0, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', true, [], [1], {}, Object.create({ inherited: 1 }), new Date(0)];

function oddPayloads(m: CatalogModel, event: EventVersionModel): unknown[] {
  const full = fullPayload(m, event) as Record<string, unknown>;
  const withInherited = Object.assign(Object.create(full) as object, {});
  const out: unknown[] = [...ODD_VALUES, withInherited];
  for (const field of event.fields) {
    for (const value of ODD_VALUES) out.push({ ...full, [field.name]: value });
    const inner = full[field.name];
    if (Array.isArray(inner) && inner.length > 0) {
      for (const value of ODD_VALUES) out.push({ ...full, [field.name]: [...inner, value] });
    } else if (typeof inner === 'object' && inner !== null) {
      for (const key of Object.keys(inner)) for (const value of ODD_VALUES) out.push({ ...full, [field.name]: { ...inner, [key]: value } });
      out.push({ ...full, [field.name]: { ...inner, not_listed: 1 } });
    }
  }
  out.push({ ...full, not_listed: 1 });
  const members = JSON.stringify(full).slice(1, -1);
  out.push(JSON.parse(`{"__proto__": 1${members === '' ? '' : `, ${members}`}}`));
  return out;
}

/**
 * Objects `JSON.parse` never makes, whose members `for…in` and a read see differently: a
 * member that is not enumerable, read through a getter, keyed by a symbol, behind a proxy,
 * or on a null prototype. ajv's `additionalProperties: false` looks at what `for…in` yields
 * and its `properties` at what a read gives, so a check that counted keys instead of naming
 * them would be told apart here (a hidden listed member and a visible unlisted one make the
 * same count as the listed members alone). Built for the payload and for its first object field.
 */
function hiddenMemberObjects(object: Record<string, unknown>): [string, unknown][] {
  const keys = Object.keys(object);
  const first = keys[0];
  const out: [string, unknown][] = [];
  const hide = (target: Record<string, unknown>, key: string, descriptor: PropertyDescriptor) => Object.defineProperty(target, key, descriptor) as Record<string, unknown>;
  out.push(['an unlisted member, not enumerable', hide({ ...object }, 'not_listed', { value: 1, enumerable: false })]);
  out.push(['an unlisted member keyed by a symbol', { ...object, [Symbol('not_listed')]: 1 }]);
  out.push(['the same members on a null prototype', Object.assign(Object.create(null) as object, object)]);
  out.push(['the same members and an unlisted one on a null prototype', Object.assign(Object.create(null) as object, object, { not_listed: 1 })]);
  if (first === undefined) return out;
  const value = object[first];
  out.push(['a listed member, not enumerable', hide({ ...object }, first, { value, enumerable: false })]);
  out.push(['a listed member, not enumerable, and an unlisted one', hide({ ...object, not_listed: 1 }, first, { value, enumerable: false })]);
  out.push(['a listed member behind a getter', hide({ ...object }, first, { get: () => value, enumerable: true })]);
  out.push(['a listed member behind a getter, not enumerable, and an unlisted one', hide({ ...object, not_listed: 1 }, first, { get: () => value, enumerable: false })]);
  const withoutFirst: Record<string, unknown> = { ...object };
  delete withoutFirst[first];
  out.push(['a listed member inherited, not enumerable, and an unlisted one', Object.assign(Object.create(hide({}, first, { value, enumerable: false })) as object, withoutFirst, { not_listed: 1 })]);
  out.push(['a listed member inherited and enumerable', Object.assign(Object.create({ [first]: value }) as object, withoutFirst)]);
  // Its keys name an unlisted member in place of a listed one, its reads give every listed one.
  out.push(['a proxy listing an unlisted member, reading the listed ones', new Proxy({ ...withoutFirst, not_listed: 1 }, { get: (target, key) => (key === first ? value : Reflect.get(target, key)) })]);
  return out;
}

function hiddenMemberPayloads(m: CatalogModel, event: EventVersionModel): [string, unknown][] {
  const full = fullPayload(m, event) as Record<string, unknown>;
  const out = hiddenMemberObjects(full).map(([label, payload]): [string, unknown] => [`payload: ${label}`, payload]);
  const field = Object.keys(full).find((key) => typeof full[key] === 'object' && full[key] !== null && !Array.isArray(full[key]));
  if (field !== undefined) {
    for (const [label, inner] of hiddenMemberObjects(full[field] as Record<string, unknown>)) out.push([`${field}: ${label}`, { ...full, [field]: inner }]);
  }
  return out;
}

/**
 * Verdicts while `Object.prototype` carries a member: enumerable (every object's `for…in`
 * yields it), or not enumerable and named like a listed member missing from the payload,
 * beside an unlisted one. Taken back before anything else runs.
 */
function pollutedVerdicts(full: Record<string, unknown>, verdict: (payload: unknown) => boolean): { label: string; verdict: boolean }[] {
  const first = Object.keys(full)[0];
  const cases: { label: string; key: string; descriptor: PropertyDescriptor; payload: () => unknown }[] = [
    { label: 'an enumerable unlisted member on Object.prototype', key: 'polluted', descriptor: { value: 1, enumerable: true, configurable: true, writable: true }, payload: () => ({ ...full }) },
  ];
  if (first !== undefined) {
    const withoutFirst: Record<string, unknown> = { ...full, not_listed: 1 };
    delete withoutFirst[first];
    cases.push({ label: 'a listed member on Object.prototype, not enumerable, and an unlisted one', key: first, descriptor: { value: full[first], enumerable: false, configurable: true, writable: true }, payload: () => withoutFirst });
    const onlyOthers: Record<string, unknown> = { ...full };
    delete onlyOthers[first];
    cases.push({ label: 'a listed member on Object.prototype, enumerable', key: first, descriptor: { value: full[first], enumerable: true, configurable: true, writable: true }, payload: () => onlyOthers });
  }
  return cases.map(({ label, key, descriptor, payload }) => {
    const input = payload();
    Object.defineProperty(Object.prototype, key, descriptor);
    try {
      return { label, verdict: verdict(input) };
    } finally {
      delete (Object.prototype as Record<string, unknown>)[key];
    }
  });
}

function agreement(m: CatalogModel, event: EventVersionModel): void {
  it.each(MODES)('%s: the same verdict as ajv on every sample', (mode) => {
    const schema = payloadSchema(m, event, mode);
    // As the generated modules write it: a payload must also be a plain object.
    const check = compileCheck(schema, { plainObject: true });
    const runtime = ajv.getSchema(schema.$id as string) ?? ajv.compile(schema);
    const payloads = [fullPayload(m, event), minimalPayload(m, event), ...mutations(m, event).map((c) => c.payload), ...oddPayloads(m, event)];
    for (const [i, payload] of payloads.entries()) {
      expect(check(payload), `${event.key} ${mode}: payload #${i} ${JSON.stringify(payload)?.slice(0, 200)}`).toBe(runtime(payload) && isPlainObject(payload));
    }
  });

  it.each(MODES)('%s: the same verdict as ajv on members JSON.parse never makes (not enumerable, getters, symbols, proxies, null prototypes)', (mode) => {
    const schema = payloadSchema(m, event, mode);
    const check = compileCheck(schema, { plainObject: true });
    const runtime = ajv.getSchema(schema.$id as string) ?? ajv.compile(schema);
    for (const [label, payload] of hiddenMemberPayloads(m, event)) {
      expect(check(payload), `${event.key} ${mode}: ${label}`).toBe(runtime(payload) && isPlainObject(payload));
    }
  });

  it.each(MODES)('%s: the same verdict as ajv while Object.prototype carries a member', (mode) => {
    const schema = payloadSchema(m, event, mode);
    const check = compileCheck(schema, { plainObject: true });
    const runtime = ajv.getSchema(schema.$id as string) ?? ajv.compile(schema);
    const full = fullPayload(m, event) as Record<string, unknown>;
    const ours = pollutedVerdicts(full, check);
    const ajvs = pollutedVerdicts(full, (payload) => runtime(payload) && isPlainObject(payload));
    expect(ours).toEqual(ajvs);
  });
}

describe.each(model.events.map((event) => [event.key, event] as const))('%s', (_key, event) => agreement(model, event));
describe.each(synthetic.events.map((event) => [event.key, event] as const))('synthetic %s (nullable fields)', (_key, event) => agreement(synthetic, event));

describe('payloadCheckCode', () => {
  it.each([
    ['a keyword it does not know', { type: 'string', minLength: 1 }, /keyword "minLength" is not supported/],
    ['a reference outside $defs', { $ref: 'https://example.com/other.json' }, /only "#\/\$defs\/<name>" references/],
    ['a reference to a missing definition', { $ref: '#/$defs/missing' }, /no \$defs entry "missing"/],
    ['an unknown type', { type: 'date' }, /unknown JSON type "date"/],
  ])('fails generation on %s', (_name, schema, want) => {
    expect(() => payloadCheckCode('accepts', schema)).toThrow(want);
  });

  it.each([
    ['number and integer', { type: ['number', 'integer'] }, [1, 1.5, 'x', Number.NaN], [true, true, false, false]],
    ['integer', { type: 'integer' }, [1, -0, 2 ** 53, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '1', null], [true, true, true, false, false, false, false, false]],
    ['number', { type: 'number' }, [1, -1.5, Number.MAX_VALUE, Number.NaN, Number.NEGATIVE_INFINITY, '1', null], [true, true, true, false, false, false, false]],
    ['a recursive definition', { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } } }, [{ next: { next: {} } }, { next: { next: 1 } }], [true, false]],
    ['additional properties with a schema', { type: 'object', properties: { a: {} }, additionalProperties: { type: 'string' } }, [{ a: 1, b: 'x' }, { a: 1, b: 2 }], [true, false]],
    ['no properties at all', { type: 'object', additionalProperties: false }, [{}, { a: 1 }], [true, false]],
  ])('gives ajv’s verdicts for %s', (_name, schema, values, want) => {
    const check = compileCheck(schema);
    const runtime = new Ajv2020(validatorAjvOptions(false)).compile(schema);
    expect(values.map((v) => check(v))).toEqual(want);
    expect(values.map((v) => runtime(v))).toEqual(want);
  });

  it('with plainObject, also refuses a payload that is no plain object, whatever ajv says', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } } };
    const check = compileCheck(schema, { plainObject: true });
    const runtime = new Ajv2020(validatorAjvOptions(false)).compile(schema);
    const values = [{ a: 1 }, Object.create(null) as object, Object.create({ a: 1 }) as object, new Date(0), new (class Payload {})(), { a: 'x' }];
    expect(values.map((v) => check(v))).toEqual([true, true, false, false, false, false]);
    expect(values.map((v) => runtime(v))).toEqual([true, true, true, true, true, false]);
  });

  // The prototype test goes right after the first member read: it must be there whatever the schema reads first, or last if it reads nothing.
  it.each([
    ['reads nothing', { type: 'object' }, { a: {}, b: 1 }],
    ['lists no properties, strict', { type: 'object', additionalProperties: false }, {}],
    ['reads an optional member with no checks first', { type: 'object', properties: { a: {}, b: { type: 'integer' } } }, { a: {}, b: 1 }],
    ['reads a required member listed in no properties', { type: 'object', required: ['a'] }, { a: {}, b: 1 }],
    ['reads a member through a definition', { type: 'object', properties: { a: { $ref: '#/$defs/inner' } }, $defs: { inner: { type: 'object' } } }, { a: {}, b: 1 }],
  ])('with plainObject, refuses a payload that is no plain object when the schema %s', (_name, schema, members) => {
    const check = compileCheck(schema, { plainObject: true });
    const plain = [{ ...members }, Object.assign(Object.create(null) as object, members)];
    const notPlain = [Object.assign(Object.create({}) as object, members), Object.assign(new Date(0), members), Object.assign(new (class Payload {})(), members)];
    expect(plain.map((v) => check(v))).toEqual([true, true]);
    expect(notPlain.map((v) => check(v))).toEqual([false, false, false]);
    expect(payloadCheckCode('accepts', schema, { plainObject: true }).match(/getPrototypeOf/g)).toHaveLength(1);
  });
});
