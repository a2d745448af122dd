import { describe, expect, it } from 'vitest';
import { loadCatalog, type CatalogSourceFile } from '../../generator/catalog/load-catalog.js';
import { formatProblem } from '../../generator/catalog/problems.js';

/** A catalog of one file, `catalog/a.yaml`, from lines of YAML. */
const oneFile = (...lines: string[]): CatalogSourceFile[] => [{ path: 'catalog/a.yaml', text: lines.join('\n') + '\n' }];

const errorsOf = (files: CatalogSourceFile[]): string[] => loadCatalog(files).errors.map(formatProblem);

const SHARED = ['shared_types:', '  Period:', '    fields:', '      start: string'];

describe('catalog loader: one test per mistake class, message and exact line:col', () => {
  it.each<[string, { given: CatalogSourceFile[]; want: string[] }]>([
    [
      'YAML syntax error',
      { given: oneFile('section: S', 'events:', '  a.b:', '    v1: { fields: [x', ''), want: ['catalog/a.yaml:6:1 YAML syntax: Flow sequence in block collection must be sufficiently indented and end with a ]'] },
    ],
    [
      'unknown key at file level, with a suggestion',
      { given: oneFile('section: S', 'shared_type:', '  X: {}'), want: ['catalog/a.yaml:2:1 catalog file: unknown key "shared_type" (did you mean "shared_types"?)'] },
    ],
    [
      'unknown key inside an event version',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      feilds:', '        x: string'),
        want: ['catalog/a.yaml:5:7 event "a.b" v1: unknown key "feilds" (did you mean "fields"?)'],
      },
    ],
    [
      'unknown type reference, with the closest name',
      {
        given: oneFile('section: S', ...SHARED, 'events:', '  a.b:', '    v1:', '      fields:', '        p: Perod'),
        want: ['catalog/a.yaml:10:12 unknown type "Perod" for field "p" (did you mean "Period"?)'],
      },
    ],
    [
      'seed letter used as a type',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      fields:', '        x: s'),
        want: ['catalog/a.yaml:6:12 unknown type "s" for field "x" (the seed\'s "s" is written "string")'],
      },
    ],
    [
      'duplicate type+version in one file',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      fields: { x: string }', '    v1:', '      fields: { y: string }'),
        want: ['catalog/a.yaml:6:5 event "a.b": duplicate key "v1" (first at 4:5)'],
      },
    ],
    [
      'invalid event type name',
      { given: oneFile('section: S', 'events:', '  Account.Created:', '    v1: {}'), want: ['catalog/a.yaml:3:3 invalid event type "Account.Created": use lower-case'] },
    ],
    [
      'invalid version name',
      { given: oneFile('section: S', 'events:', '  a.b:', '    version1: {}'), want: ['catalog/a.yaml:4:5 invalid version "version1": use "v" and a number (v1)'] },
    ],
    [
      'invalid field name',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      fields:', '        accountNumber: string'),
        want: ['catalog/a.yaml:6:9 invalid field name "accountNumber": use a-z, 0-9 and "_"'],
      },
    ],
    [
      'field named __proto__',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      fields:', '        __proto__: string'),
        want: ['catalog/a.yaml:6:9 field name "__proto__" is a property every JavaScript object inherits'],
      },
    ],
    [
      'bad field notation (seed array syntax)',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      fields:', '        xs: a[s]'),
        want: ['catalog/a.yaml:6:13 bad type notation "a[s]" for field "xs": expected a primitive, a shared type name, or T[] (write "string[]" for an array)'],
      },
    ],
    [
      'dangling reference in extends',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      fields: { x: string }', '    v2:', '      extends: v3'),
        want: ['catalog/a.yaml:7:16 unknown event version "a.b@v3" in extends (did you mean "a.b@v1"?)'],
      },
    ],
    [
      'unknown fragment in extends',
      {
        given: oneFile('section: S', 'fragments:', '  BASE:', '    fields: { x: string }', 'events:', '  a.b:', '    v1:', '      extends: BAZE'),
        want: ['catalog/a.yaml:8:16 unknown fragment "BAZE" in extends (did you mean "BASE"?)'],
      },
    ],
    [
      'cycle in reuse',
      {
        given: oneFile('section: S', 'fragments:', '  ONE:', '    extends: TWO', '  TWO:', '    extends: ONE', 'events:', '  a.b:', '    v1:', '      extends: ONE'),
        want: ['catalog/a.yaml:6:14 extends cycle: ONE → TWO → ONE'],
      },
    ],
    [
      'field defined twice through reuse',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      fields: { x: string }', '    v2:', '      extends: v1', '      fields:', '        x: integer'),
        want: ['catalog/a.yaml:9:9 field "x" is already defined by a.b@v1'],
      },
    ],
    [
      'two catalog names that map to one TypeScript name',
      {
        given: oneFile('section: S', 'events:', '  a.b-c:', '    v1: {}', '  a.b_c:', '    v1: {}'),
        want: [
          'catalog/a.yaml:6:5 event a.b_c@v1 maps to the TypeScript name "ABCV1Payload", already taken by event a.b-c@v1 at catalog/a.yaml:4:5; rename one of them',
          'catalog/a.yaml:6:5 event a.b_c@v1 maps to the TypeScript name "ABCV1Event"',
        ],
      },
    ],
    [
      'shared type that takes a name the generated module reserves',
      { given: oneFile('section: S', 'shared_types:', '  CatalogEvent:', '    fields: { x: string }'), want: ['catalog/a.yaml:3:3 shared type "CatalogEvent" maps to the TypeScript name "CatalogEvent", already taken by the generated module itself'] },
    ],
    [
      'shared type named like the module\'s own EventsByType (TypeScript would merge the two interfaces)',
      { given: oneFile('section: S', 'shared_types:', '  EventsByType:', '    fields: { x: string }'), want: ['catalog/a.yaml:3:3 shared type "EventsByType" maps to the TypeScript name "EventsByType", already taken by the generated module itself'] },
    ],
    [
      'field named constructor (validators would read Object.prototype.constructor)',
      {
        given: oneFile('section: S', 'events:', '  a.b:', '    v1:', '      fields:', '        constructor: string'),
        want: ['catalog/a.yaml:6:9 field name "constructor" is a property every JavaScript object inherits (Object.prototype.constructor)'],
      },
    ],
    [
      'gap pointing at an event that does not exist',
      {
        given: oneFile('section: S', 'gaps:', '  - kind: events_not_shown', '    after: a.b@v1', '    seed: "Events after a.b v1: not shown."'),
        want: ['catalog/a.yaml:4:12 unknown event version "a.b@v1"'],
      },
    ],
    [
      'missing section',
      { given: oneFile('events: {}'), want: ['catalog/a.yaml:1:1 catalog file: missing "section"'] },
    ],
  ])('%s', (_name, { given, want }) => {
    const errors = errorsOf(given);
    expect(errors).toHaveLength(want.length);
    want.forEach((prefix, i) => expect(errors[i]).toContain(prefix));
    // Messages start with the position: that is what editors and CI logs link on.
    want.forEach((prefix, i) => expect(errors[i]!.startsWith(prefix.slice(0, prefix.indexOf(' ')))).toBe(true));
  });

  it('reports shared types that no event uses as warnings, not errors', () => {
    const result = loadCatalog(oneFile('section: S', ...SHARED, 'events:', '  a.b:', '    v1: { fields: { x: string } }'));
    expect(result.errors).toEqual([]);
    expect(result.model).toBeDefined();
    expect(result.warnings.map(formatProblem)).toEqual(['catalog/a.yaml:3:3 warning: shared type "Period" is used by no event']);
  });

  it('reports every mistake in every file in one run, in file and line order, and returns no model', () => {
    const result = loadCatalog([
      { path: 'catalog/a.yaml', text: ['section: A', 'events:', '  a.b:', '    v1:', '      fields:', '        p: Perod', '        q: a[i]'].join('\n') },
      { path: 'catalog/b.yaml', text: ['section: B', 'events:', '  a.b:', '    v1:', '      extends: NOPE', '  c.d:', '    v1:', '      colour: red'].join('\n') },
      { path: 'catalog/c.yaml', text: 'section: C\nevents: [\n' },
    ]);
    expect(result.model).toBeUndefined();
    const lines = result.errors.map(formatProblem);
    expect(lines.map((l) => l.slice(0, l.indexOf(' ')))).toEqual([
      'catalog/a.yaml:6:12',
      'catalog/a.yaml:7:12',
      'catalog/b.yaml:4:5',
      'catalog/b.yaml:8:7',
      'catalog/c.yaml:3:1',
    ]);
    expect(lines[2]).toContain('duplicate event a.b@v1 (first defined at catalog/a.yaml:4:5)');
  });
});
