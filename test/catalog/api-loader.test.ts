/**
 * The REST API's part of the catalog through the whole loader: its sections, rules and
 * resolution report every mistake at its place, as the events' do.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../generator/catalog/load-catalog.js';
import { formatProblem } from '../../generator/catalog/problems.js';

const EVENTS = { path: 'catalog/a.yaml', text: 'section: S\nevents:\n  a.b:\n    v1:\n      fields: { x: string }\n' };

const INFO = { path: 'catalog/api/a.yaml', text: 'section: API\napi_info:\n  title: Things API\n' };

function load(...lines: string[]) {
  return loadCatalog([EVENTS, INFO, { path: 'catalog/api/b.yaml', text: lines.join('\n') + '\n' }]);
}
const errors = (...lines: string[]): string[] => load(...lines).errors.map(formatProblem);

const TYPES = ['api_types:', '  Thing:', '    fields:', '      name: string', '      when?: { type: datetime, why_optional: "optional" }'];
const OPERATION = (...body: string[]): string[] => ['operations:', '  getThing:', ...body.map((l) => `    ${l}`)];

describe('the API sections of the catalog', () => {
  it('load into the model beside the events, their files kept apart from the events’ banners', () => {
    const { model, errors: problems } = load('section: API', ...TYPES, ...OPERATION('method: POST', 'path: /v1/thing/', 'request: Thing', 'responses:', '  "201": { json: "Thing[]", description: made }', '  "404": { not_shown: "Body shapes: not shown.", description: gone }'));
    expect(problems.map(formatProblem)).toEqual([]);
    expect(model!.sourceFiles).toEqual(['catalog/a.yaml']);
    expect(model!.api!.sourceFiles).toEqual(['catalog/api/a.yaml', 'catalog/api/b.yaml']);
    expect(model!.api!.title).toBe('Things API');
    expect(model!.api!.types[0]!.fields.map((f) => [f.name, f.type, f.optional])).toEqual([
      ['name', { kind: 'primitive', name: 'string' }, false],
      ['when', { kind: 'format', name: 'datetime' }, true],
    ]);
    expect(model!.api!.operations[0]!.responses.map((r) => [r.status, r.json, r.notShown])).toEqual([
      [201, [{ kind: 'array', items: { kind: 'named', name: 'Thing' } }], undefined],
      [404, undefined, 'Body shapes: not shown.'],
    ]);
  });

  it('need the API’s title, once', () => {
    const without = loadCatalog([EVENTS, { path: 'catalog/api/b.yaml', text: 'section: API\napi_gaps:\n  - { topic: t, seed: "x: not shown." }\n' }]);
    expect(without.errors.map(formatProblem)).toEqual(['catalog/api/b.yaml:1:1 the REST API needs an "api_info" with its title (in one of its files)']);
    expect(errors('section: API', 'api_info:', '  title: Again')).toEqual(['catalog/api/b.yaml:2:1 api_info is declared once (first at catalog/api/a.yaml:2:1)']);
  });

  it('carry each operation’s emitted events by outcome, and the assumption they are', () => {
    const { model, errors: problems } = load(
      'section: API',
      ...TYPES,
      ...OPERATION('method: POST', 'path: /v1/thing/', 'request: Thing', 'responses: { "201": { json: Thing } }', 'emits:', '  created: [a.b@v1]'),
      'api_assumptions:',
      '  - { topic: events, seed: "Which REST operation emits which event: not shown.", assumed: "emits" }',
    );
    expect(problems.map(formatProblem)).toEqual([]);
    expect(model!.api!.operations[0]!.emits.map(({ outcome, events }) => ({ outcome, events }))).toEqual([{ outcome: 'created', events: [{ type: 'a.b', version: 'v1' }] }]);
    expect(model!.api!.assumptions.map(({ topic, seed, assumed }) => ({ topic, seed, assumed }))).toEqual([{ topic: 'events', seed: 'Which REST operation emits which event: not shown.', assumed: 'emits' }]);
  });

  it('leave the model without an API when no file declares one', () => {
    expect(loadCatalog([EVENTS]).model!.api).toBeUndefined();
  });

  it.each<[string, string[], string[]]>([
    ['an unknown key of an operation', [...TYPES, ...OPERATION('method: GET', 'path: /v1/x/', 'verb: GET', 'responses: { "200": { json: Thing } }')], ['catalog/api/b.yaml:11:5 operation "getThing": unknown key "verb"; allowed: method, path, summary, description, params, query, request, responses, emits']],
    ['an unknown type in a response, with a suggestion', [...TYPES, ...OPERATION('method: GET', 'path: /v1/x/', 'responses: { "200": { json: Thingy } }')], ['catalog/api/b.yaml:11:33 unknown type "Thingy" for operation "getThing" response 200 (did you mean "Thing"?)']],
    ['a path template that is not the declared params', [...TYPES, ...OPERATION('method: GET', 'path: /v1/x/{code}/', 'params: { id: string }', 'responses: { "200": { json: Thing } }')], ['catalog/api/b.yaml:10:11 operation "getThing": path parameters {code} must be the declared params (id), in order']],
    ['a GET with a request body', [...TYPES, ...OPERATION('method: GET', 'path: /v1/x/', 'request: Thing', 'responses: { "200": { json: Thing } }')], ['catalog/api/b.yaml:9:13 operation "getThing": a GET has no request body']],
    ['a status that is not three digits, and one without a body', [...TYPES, ...OPERATION('method: GET', 'path: /v1/x/', 'responses:', '  "2xx": { json: Thing }', '  "404": { description: gone }')], ['catalog/api/b.yaml:12:7 operation "getThing": response status "2xx" must be a three-digit HTTP status', 'catalog/api/b.yaml:13:7 operation "getThing": response 404 needs a body (json, text) or the seed\'s words (not_shown)']],
    ['enum on a number, and enum with examples', ['api_types:', '  T:', '    fields:', '      n: { type: number, enum: [A] }', '      s: { type: string, enum: [A], examples: [B] }'], ['catalog/api/b.yaml:5:7 API type "T": field "n" has enum but is not a string (number)', 'catalog/api/b.yaml:6:7 API type "T": field "s" has both enum (every value) and examples (values seen): keep one']],
    ['at_least_one_of naming a missing and a required field', ['api_types:', '  T:', '    at_least_one_of: [a, b]', '    fields:', '      b: string'], ['catalog/api/b.yaml:4:23 API type "T": at_least_one_of names "a", which is not one of its fields', 'catalog/api/b.yaml:4:26 API type "T": at_least_one_of names "b", which is required anyway (write it "b?")']],
    ['a type name that is not PascalCase', ['api_types:', '  thing:', '    fields: { a: string }'], ['catalog/api/b.yaml:3:3 invalid API type name "thing": use PascalCase letters and digits (it is the TypeScript name too)']],
    ['an API gap without the seed’s words', ['api_gaps:', '  - topic: limits'], ['catalog/api/b.yaml:3:5 API gap: missing "seed"']],
    [
      'emitted events that are not in the catalog, or not as type@version',
      [...TYPES, ...OPERATION('method: POST', 'path: /v1/x/', 'request: Thing', 'responses: { "201": { json: Thing } }', 'emits:', '  created: [a.c@v1, a.b, a.b@v2]', '  Refused: [a.b@v1, a.b@v1]', '  skipped: []')],
      [
        'catalog/api/b.yaml:14:17 operation "getThing" emits created: unknown event type "a.c" (did you mean "a.b"?)',
        'catalog/api/b.yaml:14:25 operation "getThing" emits created: write the event as type@version ("a.b@v1")',
        'catalog/api/b.yaml:14:30 operation "getThing" emits created: event "a.b" has no version "v2" (it has v1)',
        'catalog/api/b.yaml:15:7 operation "getThing": emits outcome "Refused" must be lower_snake_case letters and digits',
        'catalog/api/b.yaml:15:7 operation "getThing" emits Refused: "a.b@v1" is listed twice',
        'catalog/api/b.yaml:16:16 operation "getThing": emits skipped must be a non-empty list of events (type@version)',
      ],
    ],
    [
      'retry rules on a success, without the seed\'s words, or with a retried that is not true or false',
      [...TYPES, ...OPERATION('method: GET', 'path: /v1/x/', 'responses:', '  "200": { json: Thing, retry: { retried: true, seed: "again" } }', '  "429": { not_shown: "x", retry: { retried: true } }', '  "500": { not_shown: "x", retry: { retried: maybe, seed: "retry as-is" } }')],
      [
        'catalog/api/b.yaml:12:36 operation "getThing": response 200 is not a failure: only a 4xx or 5xx response has a retry rule',
        'catalog/api/b.yaml:13:39 operation "getThing": response 429: retry: missing "seed"',
        'catalog/api/b.yaml:14:50 operation "getThing": response 500: retry: retried must be true or false',
      ],
    ],
    ['an API assumption without what is assumed', ['api_assumptions:', '  - { topic: events, seed: "Which REST operation emits which event: not shown." }'], ['catalog/api/b.yaml:3:5 API assumption: missing "assumed"']],
  ])('report %s at its place', (_, lines, want) => {
    expect(errors('section: API', ...lines)).toEqual(want);
  });
});
