/**
 * Each catalog rule on its own: a raw catalog read from a few lines of YAML, one rule checked,
 * its problems as `file:line:col message` lines. (loader-errors.test.ts shows the same
 * mistakes through the whole loader.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatProblem, ProblemList } from '../../generator/catalog/problems.js';
import { mergeFiles, type RawCatalog } from '../../generator/catalog/read/raw-catalog.js';
import { readCatalogFile } from '../../generator/catalog/read/read-catalog-file.js';
import { ReuseFlattener } from '../../generator/catalog/resolve/flatten-reuse.js';
import { resolveCatalog } from '../../generator/catalog/resolve/resolve-catalog.js';
import { FORMATS, resolveType, type TypeVocabulary } from '../../generator/catalog/resolve/resolve-type.js';
import { DECLARATION_RULES, MODEL_RULES } from '../../generator/catalog/rules/index.js';
import { gapReferences } from '../../generator/catalog/rules/gap-references.js';
import { OBJECT_PROTOTYPE_NAMES, objectPrototypeNames } from '../../generator/catalog/rules/object-prototype-names.js';
import { typescriptNames } from '../../generator/catalog/rules/typescript-names.js';
import { uniqueDeclarations } from '../../generator/catalog/rules/unique-declarations.js';
import { unusedSharedTypes } from '../../generator/catalog/rules/unused-shared-types.js';
import { validNames } from '../../generator/catalog/rules/valid-names.js';
import type { DeclarationRule } from '../../generator/catalog/rules/catalog-rule.js';
import { RESERVED_TS_NAMES } from '../../generator/common/ts-names.js';
import { loadCatalog, loadCatalogFromDisk, readCatalogDir } from '../../generator/catalog/load-catalog.js';
import type { TypeRef } from '../../generator/model.js';

/** Raw declarations of `catalog/a.yaml` (and more files), read without any rule. */
function raw(...files: string[][]): RawCatalog {
  const problems = new ProblemList();
  const read = files.map((lines, i) => readCatalogFile(`catalog/${'abc'[i]}.yaml`, lines.join('\n') + '\n', problems)!);
  expect(problems.items.map(formatProblem), 'the YAML itself is well-formed').toEqual([]);
  return mergeFiles(read);
}

function check(rule: DeclarationRule, catalog: RawCatalog): string[] {
  const problems = new ProblemList();
  rule.check(catalog, problems);
  return problems.items.map(formatProblem);
}

const event = (type: string, version: string, ...fieldLines: string[]): string[] => ['events:', `  ${type}:`, `    ${version}:`, ...(fieldLines.length > 0 ? ['      fields:', ...fieldLines.map((l) => `        ${l}`)] : ['      fields: {}'])];

describe('catalog rules', () => {
  it('are named, once each', () => {
    const names = [...DECLARATION_RULES, ...MODEL_RULES].map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it.each<[string, { rule: DeclarationRule; given: string[][]; want: string[] }]>([
    ['valid-names: a well-named catalog', { rule: validNames, given: [['section: S', ...event('a.b', 'v1', 'x: string')]], want: [] }],
    [
      'valid-names: event type, version and field, each at its place',
      {
        rule: validNames,
        given: [['section: S', ...event('A.b', 'one', 'Bad: string')]],
        want: [
          'catalog/a.yaml:3:3 invalid event type "A.b": use lower-case dot-separated segments of a-z, 0-9, "_" and "-", starting with a letter',
          'catalog/a.yaml:4:5 invalid version "one": use "v" and a number (v1), or "v-" and a pre-release label (v-alpha1)',
          'catalog/a.yaml:6:9 invalid field name "Bad": use a-z, 0-9 and "_", not starting with a digit',
        ],
      },
    ],
    [
      'valid-names: shared type and fragment names',
      {
        rule: validNames,
        given: [['section: S', 'shared_types:', '  9Lives:', '    fields: { x: string }', 'fragments:', '  Base:', '    fields: { y: string }']],
        want: ['catalog/a.yaml:3:3 invalid shared type name "9Lives"', 'catalog/a.yaml:6:3 invalid fragment name "Base": use UPPER_SNAKE_CASE'],
      },
    ],
    [
      'object-prototype-names: fields named like Object.prototype members, in events, shared types, fragments and gaps',
      {
        rule: objectPrototypeNames,
        given: [
          [
            'section: S',
            'shared_types:',
            '  Thing:',
            '    fields: { constructor: string }',
            'fragments:',
            '  BASE:',
            '    fields: { __proto__: string }',
            ...event('a.b', 'v1', 'constructor: string', 'ok: string'),
            'gaps:',
            '  - kind: unnamed_event',
            '    seed: "x"',
            '    visible_fields: { __proto__: string }',
          ],
        ],
        want: [
          'catalog/a.yaml:4:15 field name "constructor" is a property every JavaScript object inherits (Object.prototype.constructor)',
          'catalog/a.yaml:7:15 field name "__proto__" is a property every JavaScript object inherits',
          'catalog/a.yaml:12:9 field name "constructor"',
          'catalog/a.yaml:17:23 field name "__proto__"',
        ],
      },
    ],
    [
      'object-prototype-names: shared type names and event types too',
      {
        rule: objectPrototypeNames,
        given: [['section: S', 'shared_types:', '  toString:', '    fields: { x: string }', ...event('constructor', 'v1', 'x: string')]],
        want: ['catalog/a.yaml:3:3 shared type name "toString" is a property every JavaScript object inherits', 'catalog/a.yaml:6:3 event type "constructor"'],
      },
    ],
    [
      'unique-declarations: the same event version, shared type and fragment in two files',
      {
        rule: uniqueDeclarations,
        given: [
          ['section: A', 'shared_types:', '  T:', '    fields: { x: string }', 'fragments:', '  F:', '    fields: { x: string }', ...event('a.b', 'v1', 'x: string')],
          ['section: B', 'shared_types:', '  T:', '    fields: { x: string }', 'fragments:', '  F:', '    fields: { x: string }', ...event('a.b', 'v1', 'x: string')],
        ],
        want: [
          'catalog/b.yaml:3:3 duplicate shared type "T" (first defined at catalog/a.yaml:3:3)',
          'catalog/b.yaml:6:3 duplicate fragment "F" (first defined at catalog/a.yaml:6:3)',
          'catalog/b.yaml:10:5 duplicate event a.b@v1 (first defined at catalog/a.yaml:10:5)',
        ],
      },
    ],
    [
      'typescript-names: a shared type named like a declaration of types.ts itself (EventsByType)',
      {
        rule: typescriptNames,
        given: [['section: S', 'shared_types:', '  EventsByType:', '    fields: { x: string }']],
        want: ['catalog/a.yaml:3:3 shared type "EventsByType" maps to the TypeScript name "EventsByType", already taken by the generated module itself; rename one of them'],
      },
    ],
    [
      'typescript-names: two event types that map to one interface name',
      {
        rule: typescriptNames,
        given: [['section: S', 'events:', '  a.b-c:', '    v1: {}', '  a.b_c:', '    v1: {}']],
        want: [
          'catalog/a.yaml:6:5 event a.b_c@v1 maps to the TypeScript name "ABCV1Payload", already taken by event a.b-c@v1 at catalog/a.yaml:4:5; rename one of them',
          'catalog/a.yaml:6:5 event a.b_c@v1 maps to the TypeScript name "ABCV1Event", already taken by event a.b-c@v1 at catalog/a.yaml:4:5; rename one of them',
        ],
      },
    ],
    [
      'gap-references: after and before must name event versions',
      {
        rule: gapReferences,
        given: [['section: S', ...event('a.b', 'v1', 'x: string'), 'gaps:', '  - kind: events_not_shown', '    after: a.b@v1', '    before: a.b@v2', '    seed: "x"']],
        want: ['catalog/a.yaml:10:13 unknown event version "a.b@v2" (did you mean "a.b@v1"?)'],
      },
    ],
  ])('%s', (_name, { rule, given, want }) => {
    const found = check(rule, raw(...given));
    expect(found).toHaveLength(want.length);
    want.forEach((prefix, i) => expect(found[i]).toContain(prefix));
  });

  it('object-prototype-names knows every own name of Object.prototype', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__defineGetter__']) {
      expect(OBJECT_PROTOTYPE_NAMES.has(name), name).toBe(true);
    }
  });

  it('typescript-names reserves every declaration name of types.ts itself', () => {
    for (const name of RESERVED_TS_NAMES) {
      expect(check(typescriptNames, raw(['section: S', 'shared_types:', `  ${name}:`, '    fields: { x: string }']))).toHaveLength(1);
    }
  });

  it('unused-shared-types warns (never errs) about each shared type no event reaches, through other types too', () => {
    const catalog = raw(['section: S', 'shared_types:', '  Used:', '    fields: { inner: Inner }', '  Inner:', '    fields: { x: string }', '  Lonely:', '    fields: { x: string }', ...event('a.b', 'v1', 'u: Used')]);
    const problems = new ProblemList();
    unusedSharedTypes.check(resolveCatalog(catalog, new ProblemList()), problems);
    expect(problems.items.map(formatProblem)).toEqual(['catalog/a.yaml:7:3 warning: shared type "Lonely" is used by no event']);
    expect(problems.errors).toEqual([]);
  });

  it('the real catalog breaks no rule: in particular, no name collides with Object.prototype', () => {
    const loaded = loadCatalogFromDisk('catalog');
    expect(loaded.errors.map(formatProblem)).toEqual([]);
    const names = [...loaded.model!.events.flatMap((e) => [e.type, e.version, ...e.fields.map((f) => f.name)]), ...loaded.model!.sharedTypes.flatMap((t) => [t.name, ...t.fields.map((f) => f.name)])];
    expect(names.filter((n) => OBJECT_PROTOTYPE_NAMES.has(n))).toEqual([]);
  });
});

describe('resolving', () => {
  const at = { file: 'catalog/a.yaml', line: 1, col: 1 };
  const events: TypeVocabulary = { names: new Set(['Thing']), aName: 'a shared type', formats: [] };
  const rest: TypeVocabulary = { names: new Set(['Note']), aName: 'an API type', formats: FORMATS };

  it.each<[string, { given: string; vocabulary?: TypeVocabulary; want: TypeRef | string }]>([
    ['a primitive', { given: 'integer', want: { kind: 'primitive', name: 'integer' } }],
    ['a shared type in nested arrays', { given: 'Thing[][]', want: { kind: 'array', items: { kind: 'array', items: { kind: 'named', name: 'Thing' } } } }],
    ['the seed\'s array notation', { given: 'a[s]', want: 'bad type notation "a[s]" for field "f": expected a primitive, a shared type name, or T[] (write "string[]" for an array)' }],
    ['a seed letter', { given: 'b', want: 'unknown type "b" for field "f" (the seed\'s "b" is written "boolean")' }],
    ['a name close to a shared type', { given: 'Thnig', want: 'unknown type "Thnig" for field "f" (did you mean "Thing"?)' }],
    ['a format, where the events state none', { given: 'date', want: 'unknown type "date" for field "f"' }],
    ['a format of the REST API, in a list', { given: 'datetime[]', vocabulary: rest, want: { kind: 'array', items: { kind: 'format', name: 'datetime' } } }],
    ['an API type', { given: 'Note', vocabulary: rest, want: { kind: 'named', name: 'Note' } }],
    ['bad notation in the REST API', { given: 'Note[', vocabulary: rest, want: 'bad type notation "Note[" for field "f": expected a primitive, a format (date, datetime, decimal), an API type name, or T[]' }],
    ['a name close to a format', { given: 'datetim', vocabulary: rest, want: 'unknown type "datetim" for field "f" (did you mean "datetime"?)' }],
  ])('resolveType: %s', (_name, { given, vocabulary = events, want }) => {
    const problems = new ProblemList();
    const type = resolveType({ typeText: given, position: at }, 'field "f"', vocabulary, problems);
    if (typeof want === 'string') expect(problems.items.map((p) => p.message)).toEqual([want]);
    else expect({ type, problems: problems.items }).toEqual({ type: want, problems: [] });
  });

  it('ReuseFlattener: inherited fields first, in order, through fragments and versions; each payload flattened once', () => {
    const catalog = raw(['section: S', 'fragments:', '  BASE:', '    fields: { a: string }', 'events:', '  e.x:', '    v1:', '      extends: BASE', '      fields: { b: string }', '    v2:', '      extends: [v1]', '      fields: { c: string }']);
    const problems = new ProblemList();
    const reuse = new ReuseFlattener(catalog.fragments, catalog.events, (f) => ({ name: f.name, type: { kind: 'primitive', name: 'string' }, optional: false, nullable: false, position: f.position }), problems);
    expect(reuse.event(catalog.events[1]!).map((f) => f.name)).toEqual(['a', 'b', 'c']);
    expect(reuse.event(catalog.events[0]!)).toBe(reuse.event(catalog.events[0]!));
    expect(reuse.isFlattened(catalog.fragments[0]!)).toBe(true);
    expect(problems.items).toEqual([]);
  });
});

describe('the names types.ts declares', () => {
  it('are the catalog\'s own or reserved: nothing the module declares can be taken by a catalog type', () => {
    const fixture = fileURLToPath(new URL('../generator/fixtures/docs-reference/', import.meta.url));
    const model = loadCatalog(readCatalogDir(join(fixture, 'catalog'), fixture)).model!;
    const own = new Set([...model.sharedTypes.map((t) => t.tsName), ...model.events.flatMap((e) => [`${e.tsName}Payload`, `${e.tsName}Event`])]);
    const declared = [...readFileSync(join(fixture, 'golden/types.ts'), 'utf8').matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);
    expect(declared.filter((name) => !own.has(name))).toEqual([...RESERVED_TS_NAMES].sort((a, b) => declared.indexOf(a) - declared.indexOf(b)));
  });
});
