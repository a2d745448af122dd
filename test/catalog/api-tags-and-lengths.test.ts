/**
 * What the REST catalog says for the published documents' sake: `api_info`'s contact and
 * tags (every operation in exactly one), and a field's `min_length`. Each mistake is
 * reported at its place, and nothing is written.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../generator/catalog/load-catalog.js';
import { formatProblem } from '../../generator/catalog/problems.js';

const EVENTS = { path: 'catalog/a.yaml', text: 'section: S\nevents:\n  a.b:\n    v1:\n      fields: { x: string }\n' };

const OPERATIONS = [
  'operations:',
  '  getThing:',
  '    method: GET',
  '    path: /v1/thing/{code}/',
  '    params:',
  '      code: { type: string, min_length: 1 }',
  '    responses: { "200": { json: string } }',
  '  listThings:',
  '    method: GET',
  '    path: /v1/things/',
  '    responses: { "200": { json: "string[]" } }',
];

function load(info: string[], operations: string[] = OPERATIONS) {
  const text = ['section: API', 'api_info:', '  title: Things API', ...info.map((l) => `  ${l}`), ...operations].join('\n') + '\n';
  return loadCatalog([EVENTS, { path: 'catalog/api/a.yaml', text }]);
}
const errors = (info: string[], operations?: string[]): string[] => load(info, operations).errors.map(formatProblem);

describe('api_info: contact and tags', () => {
  it('load into the model: the contact, and each tag with its description and operations', () => {
    const { model, errors: problems } = load([
      'contact: "The operator (no address is shown)"',
      'tags:',
      '  - { name: One, description: "The one thing.", operations: [getThing] }',
      '  - { name: All, description: "Every thing.", operations: [listThings] }',
    ]);
    expect(problems.map(formatProblem)).toEqual([]);
    expect(model!.api!.contact).toBe('The operator (no address is shown)');
    expect(model!.api!.tags).toEqual([
      { name: 'One', description: 'The one thing.', operations: ['getThing'] },
      { name: 'All', description: 'Every thing.', operations: ['listThings'] },
    ]);
  });

  it('are optional: no contact, no tags', () => {
    const { model, errors: problems } = load([]);
    expect(problems).toEqual([]);
    expect(model!.api!.contact).toBeUndefined();
    expect(model!.api!.tags).toEqual([]);
  });

  it('refuse an unknown operation (with the closest name), one in two tags, and one in none', () => {
    expect(errors(['tags:', '  - { name: One, description: "d", operations: [getThings, listThings] }'])).toEqual([
      'catalog/api/a.yaml:5:51 API tag "One": unknown operation "getThings" (did you mean "getThing"?)',
      'catalog/api/a.yaml:5:7 API tags: "getThing" is in no tag (when operations are grouped, each is in one)',
    ].sort(byPosition));
    expect(errors(['tags:', '  - { name: One, description: "d", operations: [getThing, listThings] }', '  - { name: Two, description: "e", operations: [listThings] }'])).toEqual([
      'catalog/api/a.yaml:6:51 API tag "Two": operation "listThings" is already in tag "One" (an operation is in one tag)',
    ]);
  });

  it('refuse a tag without a description or with an empty one, a tag named twice, and keys it does not know', () => {
    expect(errors(['tags:', '  - { name: One, operations: [getThing, listThings] }'])).toEqual(['catalog/api/a.yaml:5:7 API tag: missing "description"']);
    expect(errors(['tags:', '  - { name: One, description: " ", operations: [getThing, listThings] }'])).toEqual(['catalog/api/a.yaml:5:33 API tag: description must be a non-empty string']);
    expect(errors(['tags:', '  - { name: One, description: "d", operations: [getThing] }', '  - { name: One, description: "e", operations: [listThings] }'])).toEqual([
      'catalog/api/a.yaml:6:7 API tag "One" is declared twice',
    ]);
    expect(errors(['tags:', '  - { name: One, description: "d", operations: [getThing, listThings], colour: red }'])).toEqual([expect.stringMatching(/^catalog\/api\/a\.yaml:5:\d+ .*colour/)]);
    expect(errors(['tags: One'])).toEqual(['catalog/api/a.yaml:4:9 api_info: tags must be a list']);
  });
});

describe('a field’s min_length', () => {
  it('reaches the model on a string field', () => {
    const { model, errors: problems } = load([]);
    expect(problems).toEqual([]);
    expect(model!.api!.operations[0]!.params.map((p) => [p.name, p.minLength])).toEqual([['code', 1]]);
  });

  it('is refused on a field that is not a string, and when it is not a whole number of 0 or more', () => {
    const withParam = (param: string): string[] => OPERATIONS.map((line) => (line.includes('code: {') ? `      code: ${param}` : line));
    expect(errors([], withParam('{ type: integer, min_length: 1 }'))).toEqual(['catalog/api/a.yaml:9:42 min_length of field "code" of operation "getThing" params: only a string field has a length (the field is integer)']);
    expect(errors([], withParam('{ type: string, min_length: -1 }'))).toEqual(['catalog/api/a.yaml:9:41 operation "getThing": params: field "code": min_length must be a whole number of characters, 0 or more']);
    expect(errors([], withParam('{ type: string, min_length: one }'))).toEqual(['catalog/api/a.yaml:9:41 operation "getThing": params: field "code": min_length must be a whole number of characters, 0 or more']);
  });
});

/** Problems come sorted by position. */
function byPosition(a: string, b: string): number {
  const at = (s: string) => s.split(' ')[0]!.split(':').slice(1).map(Number);
  const [la, ca] = at(a);
  const [lb, cb] = at(b);
  return la! - lb! || ca! - cb!;
}
