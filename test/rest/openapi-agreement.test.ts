/**
 * One contract, one verdict: requests and responses generated from `generated/openapi.yaml`
 * (property-based, fast-check), valid and broken, each judged by the document's own schemas
 * (Ajv2020 with ajv-formats' full `date` / `date-time` checks, as an OpenAPI validator would)
 * and by the package's `validateRequest` / `validateResponse`: the verdicts must be the same
 * on every case.
 *
 * Cases are made from the document alone: a valid value of each schema, then none or one
 * mutation (a key removed, an undocumented key added, a value of another kind, a tricky date,
 * datetime or decimal). Parameters are sent as an HTTP request carries them: a boolean query
 * parameter may be the text `true` / `false`, which the document's side reads as a boolean (as
 * OpenAPI's form style does). Undocumented query or path parameters are not generated: the
 * document gives no verdict on them.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateRequest, validateResponse } from '../../runtime/rest/index.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = Record<string, any>;

const addFormats = addFormatsModule.default;
const DOCUMENT_ID = 'openapi.json';
const document = parse(readFileSync(new URL('../../generated/openapi.yaml', import.meta.url), 'utf8')) as Schema;

const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv, { mode: 'full' });
ajv.addSchema(document, DOCUMENT_ID);

/** A pointer into the document as a `$ref` fragment (path keys hold `/`, `{` and `}`). */
const refTo = (tokens: readonly string[]): string => `${DOCUMENT_ID}#/${tokens.map((t) => encodeURIComponent(t.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;
const compiled = new Map<string, ValidateFunction>();
function documentValidator(tokens: readonly string[]): ValidateFunction {
  const ref = refTo(tokens);
  let validate = compiled.get(ref);
  if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: ref })));
  return validate;
}

const resolve = (schema: Schema): Schema => {
  if (typeof schema.$ref !== 'string') return schema;
  const tokens = (schema.$ref as string).replace(/^#\//, '').split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  return resolve(tokens.reduce((node: Schema, token) => node[token], document));
};

// ---------------------------------------------------------------------------------------
// Valid values of a schema
// ---------------------------------------------------------------------------------------

const MAX_ITEMS = 3;

function valueOf(input: Schema | boolean, depth = 0): fc.Arbitrary<Json> {
  if (input === true) return fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>;
  if (input === false) throw new Error('a false schema has no values');
  const schema = resolve(input);
  if (schema.allOf) return objectOf({ ...schema, allOf: undefined }, depth, schema.allOf as Schema[]);
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map((s) => valueOf(s, depth)));
  if ('const' in schema) return fc.constant(schema.const as Json);
  if (schema.enum) return fc.constantFrom(...(schema.enum as Json[]));
  const types: string[] = [schema.type ?? []].flat();
  if (types.length > 1) return fc.oneof(...types.map((type) => valueOf({ ...schema, type }, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer();
    case 'number':
      return fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'string':
      return schema.pattern ? fc.stringMatching(new RegExp(schema.pattern as string)) : fc.string({ maxLength: 12 });
    case 'array':
      return fc.array(valueOf(schema.items as Schema, depth + 1), { maxLength: depth > 2 ? 1 : MAX_ITEMS });
    case 'object':
      return objectOf(schema, depth, []);
    default:
      return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  }
}

/** An object: required properties, some optional ones, other keys where the object is open; "at least one of" kept only sometimes (an invalid case the generator makes on its own). */
function objectOf(schema: Schema, depth: number, allOf: readonly Schema[]): fc.Arbitrary<Json> {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set<string>((schema.required ?? []) as string[]);
  const oneOfRequired = allOf.flatMap((part) => (part.anyOf ?? []).flatMap((alt: Schema) => alt.required ?? []));
  const record = fc.record(Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, valueOf(s, depth + 1)])), {
    requiredKeys: [...required],
  }) as fc.Arbitrary<Record<string, Json>>;
  const withOneOf = oneOfRequired.length === 0 ? record : fc.tuple(record, fc.constantFrom(...oneOfRequired), fc.boolean()).chain(([value, name, keep]) =>
    keep && !(name in value) ? valueOf(properties[name]!, depth + 1).map((v) => ({ ...value, [name]: v })) : fc.constant(value));
  if (schema.additionalProperties !== true) return withOneOf;
  const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((key) => !(key in properties)), fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>, { maxKeys: 2 });
  return fc.tuple(withOneOf, extra).map(([value, more]) => ({ ...more, ...(value as Record<string, Json>) }));
}

// ---------------------------------------------------------------------------------------
// Mutations: none, or one at a random place
// ---------------------------------------------------------------------------------------

/** Strings near the edge of the stated formats: non-leap 29 February, day 30 of February, offsets, decimals. */
const TRICKY_STRINGS = [
  '2023-02-29', '1900-02-29', '2100-02-29', '2000-02-29', '2024-02-29', '2024-02-30', '2024-04-31', '2024-13-01', '0000-02-29',
  '3033-02-29T12:02:38Z', '2023-02-29T00:00:00Z', '2024-02-29T23:59:59Z', '2000-02-29T12:00:00Z', '2024-02-29T24:00:00Z', '2024-06-30T23:59:60Z', '2024-01-02T03:04:05+01:00', '2024-01-02t03:04:05z',
  '12.5', '12.50', '-0.00', '1e3', '', 'true', 'false',
];
const OTHER_KINDS: Json[] = [null, 0, 1.5, -7, 'text', true, false, [], {}];

type Mutation = { kind: 'none' } | { kind: 'remove' | 'add' | 'replace'; at: number; pick: number; value: Json };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ kind: 'none' } as const) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constantFrom('remove', 'add', 'replace', 'replace') as fc.Arbitrary<'remove' | 'add' | 'replace'>,
      at: fc.nat(),
      pick: fc.nat(),
      value: fc.oneof(fc.constantFrom(...TRICKY_STRINGS), fc.constantFrom(...OTHER_KINDS)),
    }),
  },
);

/** Every place in a value: a path of keys and indexes. */
function places(value: Json, at: (string | number)[] = []): (string | number)[][] {
  const here = [at];
  if (Array.isArray(value)) return here.concat(value.flatMap((v, i) => places(v, [...at, i])));
  if (value !== null && typeof value === 'object') return here.concat(Object.entries(value).flatMap(([k, v]) => places(v, [...at, k])));
  return here;
}

function mutate(value: Json, m: Mutation, options: { addKeys: boolean }): Json {
  if (m.kind === 'none') return value;
  const copy = structuredClone(value);
  const all = places(copy);
  const path = all[m.at % all.length]!;
  if (m.kind === 'replace') {
    if (path.length === 0) return m.value;
    const parent = path.slice(0, -1).reduce((node: any, key) => node[key], copy);
    parent[path[path.length - 1]!] = m.value;
    return copy;
  }
  const target = path.reduce((node: any, key) => node[key], copy);
  if (target === null || typeof target !== 'object' || Array.isArray(target)) return copy;
  const keys = Object.keys(target);
  if (m.kind === 'remove' && keys.length > 0) delete target[keys[m.pick % keys.length]!];
  if (m.kind === 'add' && options.addKeys) target[m.pick % 2 === 0 ? 'undocumented_field' : ''] = m.value;
  return copy;
}

// ---------------------------------------------------------------------------------------
// The two verdicts
// ---------------------------------------------------------------------------------------

type Operation = { path: string; method: string; spec: Schema };
const operations: Operation[] = Object.entries(document.paths as Record<string, Record<string, Schema>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, spec]) => ({ path, method, spec })),
);

interface RequestCase {
  params: Record<string, Json>;
  query: Record<string, Json>;
  body?: Json;
}

/** A query value as it arrives in a URL and an OpenAPI validator reads it (form style): `true` / `false` text is a boolean where the schema says boolean. */
const readQueryValue = (schema: Schema, value: Json): Json => (schema.type === 'boolean' && (value === 'true' || value === 'false') ? value === 'true' : value);

function documentAcceptsRequest(op: Operation, request: RequestCase): boolean {
  for (const parameter of (op.spec.parameters ?? []) as Schema[]) {
    const values = parameter.in === 'path' ? request.params : request.query;
    if (!Object.hasOwn(values, parameter.name)) {
      if (parameter.required) return false;
      continue;
    }
    const value = parameter.in === 'query' ? readQueryValue(parameter.schema as Schema, values[parameter.name]!) : values[parameter.name]!;
    const index = (op.spec.parameters as Schema[]).indexOf(parameter);
    if (!documentValidator(['paths', op.path, op.method, 'parameters', String(index), 'schema'])(value)) return false;
  }
  if (op.spec.requestBody) return request.body !== undefined && documentValidator(['paths', op.path, op.method, 'requestBody', 'content', 'application/json', 'schema'])(request.body);
  return request.body === undefined;
}

function documentAcceptsResponse(op: Operation, status: string, body: Json): boolean {
  const content = op.spec.responses[status].content as Record<string, Schema> | undefined;
  // No content: the seed does not show the body, and any body is accepted.
  if (!content) return true;
  return Object.keys(content).some((type) => documentValidator(['paths', op.path, op.method, 'responses', status, 'content', type, 'schema'])(body));
}

function requestCase(op: Operation): fc.Arbitrary<RequestCase> {
  const parameters = (op.spec.parameters ?? []) as Schema[];
  const part = (where: 'path' | 'query') => {
    const own = parameters.filter((p) => p.in === where);
    return fc.record(Object.fromEntries(own.map((p) => [p.name as string, valueOf(p.schema as Schema)])), { requiredKeys: own.filter((p) => p.required).map((p) => p.name as string) }) as fc.Arbitrary<Record<string, Json>>;
  };
  const asText = (query: Record<string, Json>, texts: boolean[]) => Object.fromEntries(Object.entries(query).map(([k, v], i) => [k, typeof v === 'boolean' && texts[i % texts.length] ? String(v) : v]));
  const body = op.spec.requestBody ? valueOf(op.spec.requestBody.content['application/json'].schema as Schema) : fc.constant(undefined);
  return fc
    .record({ params: part('path'), query: part('query'), texts: fc.array(fc.boolean(), { minLength: 1, maxLength: 2 }), body, which: fc.constantFrom('params', 'query', 'body'), m: mutation })
    .map(({ params, query, texts, body, which, m }) => {
      const request: RequestCase = { params, query: asText(query, texts), ...(body !== undefined && { body }) };
      if (which === 'body' && body !== undefined) request.body = mutate(body, m, { addKeys: true });
      // Parameters: no undocumented ones, and an object, as a router hands them over.
      if (which !== 'body') {
        const mutated = mutate(request[which], m, { addKeys: false });
        if (mutated !== null && typeof mutated === 'object' && !Array.isArray(mutated)) request[which] = mutated;
      }
      return request;
    });
}

const counts = { cases: 0, accepted: 0, refused: 0 };
const count = (verdict: boolean): void => {
  counts.cases += 1;
  counts[verdict ? 'accepted' : 'refused'] += 1;
};

const RUNS_PER_REQUEST = 400;
const RUNS_PER_RESPONSE = 120;

describe('the OpenAPI document and the package’s validators', () => {
  describe.each(operations.map((op) => [op.spec.operationId as string, op] as const))('%s', (operationId, op) => {
    it('give the same verdict on every generated request', () => {
      const verdicts = { accepted: 0, refused: 0 };
      fc.assert(
        fc.property(requestCase(op), (request) => {
          const ours = validateRequest(operationId, { params: request.params, query: request.query, body: request.body }).ok;
          const theirs = documentAcceptsRequest(op, request);
          count(ours);
          verdicts[ours ? 'accepted' : 'refused'] += 1;
          return ours === theirs;
        }),
        { numRuns: RUNS_PER_REQUEST },
      );
      // Both verdicts occur: the cases are not all of one kind.
      expect(verdicts.accepted).toBeGreaterThan(0);
      expect(verdicts.refused).toBeGreaterThan(0);
    });

    it.each(Object.keys(op.spec.responses as object))('give the same verdict on every generated response %s', (status) => {
      const content = op.spec.responses[status].content as Record<string, Schema> | undefined;
      const body: fc.Arbitrary<Json> = content ? fc.oneof(...Object.values(content).map((c) => valueOf(c.schema as Schema))) : (fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>);
      fc.assert(
        fc.property(body, mutation, (value, m) => {
          const response = mutate(value, m, { addKeys: true });
          const ours = validateResponse(operationId, Number(status), response).ok;
          count(ours);
          return ours === documentAcceptsResponse(op, status, response);
        }),
        { numRuns: RUNS_PER_RESPONSE },
      );
    });
  });

  afterAll(() => {
    // The floor: at least 5,000 cases, with both verdicts well represented.
    expect(counts.cases).toBeGreaterThanOrEqual(5_000);
    expect(Math.min(counts.accepted, counts.refused)).toBeGreaterThan(counts.cases / 10);
  });
});

/** The cases where the document and the validators once disagreed, each with the verdict both must give. */
describe('the cases the two once disagreed on', () => {
  const op = (operationId: string): Operation => operations.find((o) => o.spec.operationId === operationId)!;
  const notes = { import_supplier: 'ACME', external_account_number: 'A-1', notes: [{ body: 'Moved in.', created_at: '2024-02-29T12:00:00Z' }] };
  const cases: [string, string, RequestCase, boolean][] = [
    ['an undocumented field in a request body', 'createNotes', { params: {}, query: {}, body: { ...notes, colour: 'red' } }, false],
    ['an undocumented field in a nested request object', 'createNotes', { params: {}, query: {}, body: { ...notes, notes: [{ body: 'x', colour: 'red' }] } }, false],
    ['an undocumented field in the open account object', 'validateAccount', { params: {}, query: {}, body: { import_supplier: 'ACME', external_account_number: 'A-1', anything: 1 } }, true],
    ['29 February of a leap year', 'createNotes', { params: {}, query: {}, body: notes }, true],
    ['29 February of a non-leap year (datetime)', 'createNotes', { params: {}, query: {}, body: { ...notes, notes: [{ body: 'x', created_at: '3033-02-29T12:02:38Z' }] } }, false],
    ['29 February of 1900 (a century, not a leap year)', 'createNotes', { params: {}, query: {}, body: { ...notes, notes: [{ body: 'x', created_at: '1900-02-29T00:00:00Z' }] } }, false],
    ['a note with neither body nor document_paths', 'createNotes', { params: {}, query: {}, body: { ...notes, notes: [{ is_pinned: true }] } }, false],
    ['a query boolean as text', 'createTransactions', { params: {}, query: { check_previously_added: 'false' }, body: { import_supplier: 'ACME', external_account_number: 'A-1', transactions: [] } }, true],
  ];
  it.each(cases)('%s', (_, operationId, request, verdict) => {
    expect(validateRequest(operationId, request).ok).toBe(verdict);
    expect(documentAcceptsRequest(op(operationId), request)).toBe(verdict);
  });

  it.each([
    ['2023-02-29', false],
    ['2100-02-29', false],
    ['2000-02-29', true],
  ] as const)('a response date %s', (issued_date, verdict) => {
    const statement = { bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31', statement_id: 'S-1', issued_date, number: '1', gross_amount: 12.5 };
    const body = { import_supplier: 'ACME', external_account_number: 'A-1', statements: [statement] };
    expect(validateResponse('createHistoricalStatements', 200, body).ok).toBe(verdict);
    expect(documentAcceptsResponse(op('createHistoricalStatements'), '200', body)).toBe(verdict);
  });
});
