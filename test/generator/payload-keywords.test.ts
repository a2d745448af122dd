/**
 * One list of payload keywords (runtime/contract/payload-keywords.ts) for the two engines that
 * read payload schemas: the generated boolean check and the runtime's search of a rejected
 * payload for its errors. For each listed keyword, both give ajv's verdicts, and the search
 * ajv's errors; a keyword off the list stops generation, naming the event.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { payloadSchema } from '../../generator/emit/json-schema.js';
import type { JsonSchema } from '../../generator/emit/schema-for.js';
import { payloadCheckCode } from '../../generator/emit/payload-check.js';
import { validatorAjvOptions } from '../../generator/emit/validators.js';
import type { CompiledValidator, PayloadSchema } from '../../runtime/contract/compiled-validator.js';
import { payloadValidator } from '../../runtime/internal/payload-errors.js';
import { isPayloadKeyword, PAYLOAD_ASSERTIONS, type PayloadAssertion } from '../../runtime/contract/payload-keywords.js';

interface KeywordCase {
  schema: JsonSchema;
  valid: unknown[];
  invalid: unknown[];
}

/** Cases for every listed keyword: adding one to the list does not compile until it has its cases here. */
const CASES: Record<PayloadAssertion, KeywordCase[]> = {
  type: [
    { schema: { type: 'string' }, valid: ['', 'a'], invalid: [1, null, {}, []] },
    { schema: { type: ['integer', 'null'] }, valid: [0, -3, null], invalid: [1.5, Number.NaN, '1'] },
  ],
  $ref: [
    {
      schema: { type: 'object', properties: { a: { $ref: '#/$defs/A' } }, $defs: { A: { type: 'object', properties: { n: { type: 'integer' }, next: { $ref: '#/$defs/A' } } } } },
      valid: [{}, { a: { n: 1, next: { n: 2 } } }],
      invalid: [{ a: 1 }, { a: { n: 'x' } }, { a: { next: { n: 1.5 } } }],
    },
  ],
  anyOf: [
    // Branches without `type`: their object keywords hold for objects only (the search once skipped them).
    {
      schema: { type: 'object', properties: { a: { type: 'string' } }, anyOf: [{ properties: { a: true }, required: ['a'] }, { properties: { b: true }, required: ['b'] }] },
      valid: [{ a: 'x' }, { b: 1 }],
      invalid: [{}, { c: 1 }, { a: 1 }],
    },
  ],
  items: [{ schema: { type: 'array', items: { type: 'string' } }, valid: [[], ['a', 'b']], invalid: [[1], ['a', null], 'a', {}] }],
  required: [
    { schema: { type: 'object', properties: { a: true, b: true }, required: ['a', 'b'] }, valid: [{ a: 1, b: null }], invalid: [{}, { a: 1 }, { b: 1, c: 2 }, [], 'x'] },
    { schema: { type: ['object', 'null'], properties: { a: { type: 'string' } }, required: ['a'] }, valid: [null, { a: '' }], invalid: [{}, { a: 1 }, 'x'] },
  ],
  additionalProperties: [
    { schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }, valid: [{}, { a: '' }], invalid: [{ b: 1 }, { a: '', 'x/y': 1 }] },
    { schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }, valid: [{ b: 1 }, { a: '', c: [] }], invalid: [{ a: 1 }] },
  ],
  properties: [
    {
      schema: { type: 'object', properties: { a: { type: 'string' }, 'b~c/d': { type: ['number', 'null'] } }, required: ['a'] },
      valid: [{ a: '' }, { a: '', 'b~c/d': null }],
      invalid: [{ a: 1 }, { a: '', 'b~c/d': 'x' }, { a: [], 'b~c/d': {} }],
    },
  ],
};

/** The generated check, made callable (the generated module declares it the same way). */
function generatedCheck(schema: JsonSchema): (data: unknown) => boolean {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- test only: runs the emitted text
  return new Function(`${payloadCheckCode('accepts', schema)}\nreturn accepts;`)() as (data: unknown) => boolean;
}

const errorsOf = (validate: CompiledValidator | ((data: unknown) => boolean) & { errors?: unknown }, data: unknown) => {
  const valid = validate(data);
  const errors = ((validate.errors ?? []) as { instancePath: string; schemaPath: string; keyword: string; params: object }[]).map(({ instancePath, schemaPath, keyword, params }) => ({ instancePath, schemaPath, keyword, params: { ...params } }));
  return { valid, errors };
};

describe('each listed payload keyword: the generated check and the search agree with ajv', () => {
  const ajv = { first: new Ajv2020(validatorAjvOptions(false)), all: new Ajv2020(validatorAjvOptions(true)) };

  it('every keyword of the list has cases, and the cases use no other keyword', () => {
    expect(Object.keys(CASES).sort()).toEqual([...PAYLOAD_ASSERTIONS].sort());
    const keywordsIn = (schema: unknown): string[] =>
      typeof schema !== 'object' || schema === null ? [] : Object.entries(schema).flatMap(([key, sub]) => (key === 'properties' || key === '$defs' ? Object.values(sub as object).flatMap(keywordsIn) : [key, ...(Array.isArray(sub) ? sub.flatMap(keywordsIn) : key === 'required' || key === 'type' ? [] : keywordsIn(sub))]));
    for (const cases of Object.values(CASES)) for (const c of cases) for (const keyword of keywordsIn(c.schema)) expect(isPayloadKeyword(keyword), keyword).toBe(true);
  });

  describe.each(PAYLOAD_ASSERTIONS)('%s', (keyword) => {
    it.each(CASES[keyword].map((c, i) => [i, c] as const))('case %i', (_, c) => {
      const check = generatedCheck(c.schema);
      const search = { first: payloadValidator(c.schema as PayloadSchema, false), all: payloadValidator(c.schema as PayloadSchema, true) };
      const reference = { first: ajv.first.compile(c.schema), all: ajv.all.compile(c.schema) };
      for (const [data, expected] of [...c.valid.map((v) => [v, true] as const), ...c.invalid.map((v) => [v, false] as const)]) {
        const label = `${JSON.stringify(c.schema)} on ${JSON.stringify(data)}`;
        expect(reference.all(data), `ajv: ${label}`).toBe(expected);
        expect(check(data), `generated check: ${label}`).toBe(expected);
        for (const errors of ['first', 'all'] as const) expect(errorsOf(search[errors], data), `search (${errors}): ${label}`).toEqual(errorsOf(reference[errors], data));
      }
    });

    it('has cases the keyword decides: without it, ajv gives another verdict on one of them', () => {
      const without = (schema: unknown): unknown =>
        Array.isArray(schema) ? schema.map(without)
        : typeof schema !== 'object' || schema === null ? schema
        : Object.fromEntries(Object.entries(schema).filter(([key]) => key !== keyword).map(([key, sub]) => [key, key === 'properties' || key === '$defs' ? Object.fromEntries(Object.entries(sub as object).map(([name, value]) => [name, without(value)])) : without(sub)]));
      // Not strict: a schema without the keyword may break ajv's strict rules (`required` naming no property).
      const loose = new Ajv2020({ ...validatorAjvOptions(false), strict: false });
      const decided = CASES[keyword].some((c) => {
        const withKeyword = loose.compile(c.schema);
        const withoutKeyword = loose.compile(without(c.schema) as JsonSchema);
        return [...c.valid, ...c.invalid].some((data) => withKeyword(data) !== withoutKeyword(data));
      });
      expect(decided).toBe(true);
    });
  });
});

describe('a keyword off the list', () => {
  afterEach(() => {
    vi.doUnmock('../../generator/emit/json-schema.js');
    vi.resetModules();
  });

  it('is refused by the generated check, with the list named', () => {
    expect(isPayloadKeyword('minLength')).toBe(false);
    expect(() => payloadCheckCode('accepts', { type: 'object', properties: { a: { type: 'string', minLength: 1 } } })).toThrow('payload check: keyword "minLength" is not supported (runtime/contract/payload-keywords.ts lists those that are)');
  });

  it('the real catalog\'s payload schemas hold listed keywords only', () => {
    const { model } = loadCatalogFromDisk('catalog');
    const seen = new Set<string>();
    const walk = (schema: unknown): void => {
      if (typeof schema !== 'object' || schema === null) return;
      if (Array.isArray(schema)) return schema.forEach(walk);
      for (const [key, sub] of Object.entries(schema)) {
        seen.add(key);
        if (key === 'properties' || key === '$defs') Object.values(sub as object).forEach(walk);
        else if (key !== 'required' && key !== 'type' && key !== 'const' && key !== 'description' && key !== 'title') walk(sub);
      }
    };
    for (const event of model!.events) for (const mode of ['tolerant', 'strict'] as const) walk(payloadSchema(model!, event, mode));
    expect(seen.size).toBeGreaterThan(4);
    expect([...seen].filter((keyword) => !isPayloadKeyword(keyword))).toEqual([]);
  });

  it('added by the schema builder, stops generation naming the event, and nothing is emitted', async () => {
    vi.doMock('../../generator/emit/json-schema.js', async (importOriginal) => {
      const original = await importOriginal<typeof import('../../generator/emit/json-schema.js')>();
      // A builder that has started writing `minLength` on every string.
      const withMinLength = (schema: unknown): unknown =>
        Array.isArray(schema) ? schema.map(withMinLength)
        : typeof schema !== 'object' || schema === null ? schema
        : Object.fromEntries([...Object.entries(schema).map(([key, value]) => [key, key === 'required' ? value : withMinLength(value)]), ...((schema as JsonSchema).type === 'string' ? [['minLength', 1]] : [])]);
      return { ...original, payloadSchema: (...args: Parameters<typeof original.payloadSchema>) => withMinLength(original.payloadSchema(...args)) as JsonSchema };
    });
    const { emitValidators } = await import('../../generator/emit/validators.js');
    const { model } = loadCatalogFromDisk('catalog');
    expect(() => emitValidators(model!)).toThrow(/^validators: [^ ]+ \(tolerant\): payload check: keyword "minLength" is not supported/);
  });
});
