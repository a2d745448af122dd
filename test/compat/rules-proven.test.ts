/**
 * The compatibility rules, proven against the real validators: random edits of a small
 * catalog (fast-check) are classified by the compat diff; then the validators generated for
 * the catalog before and after the edit are loaded and run, in both modes.
 *
 * - Every edit not called breaking keeps every message valid before valid after.
 * - Every breaking change has a witness: a message valid before and rejected after (in some
 *   mode), or, where no message can show it (a field removed from an open event, a shared
 *   type turned into `object`), code written against the old types that no longer compiles.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { Project, ts } from 'ts-morph';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalog } from '../../generator/catalog/load-catalog.js';
import { compareSnapshots, snapshotFromModel, type Change } from '../../generator/compat/index.js';
import type { SchemaMode } from '../../generator/emit/schema-for.js';
import { emitTypes } from '../../generator/emit/typescript.js';
import { emitValidators, validatorPaths } from '../../generator/emit/validators.js';
import type { CatalogModel, EventVersionModel, FieldModel, TypeRef } from '../../generator/model.js';
import type { CompiledEventModule } from '../../runtime/contract/compiled-validator.js';

const MODES: readonly SchemaMode[] = ['tolerant', 'strict'];
const EDITS_PER_RUN = 150;

// ── the catalog, as data an edit can change ──────────────────────────────────────────────

interface FieldSpec {
  type: string;
  optional: boolean;
  nullable: boolean;
}
type Fields = Record<string, FieldSpec>;
interface EventSpec {
  type: string;
  version: string;
  open: boolean;
  fields: Fields;
}
interface CatalogSpec {
  shared: Record<string, Fields>;
  events: EventSpec[];
}

const f = (type: string, optional = false, nullable = false): FieldSpec => ({ type, optional, nullable });

const BASE: CatalogSpec = {
  shared: { Thing: { label: f('string'), size: f('integer', true) } },
  events: [
    {
      type: 'e.closed',
      version: 'v1',
      open: false,
      fields: {
        name: f('string'),
        count: f('integer'),
        ratio: f('number', true),
        flag: f('boolean'),
        tags: f('string[]'),
        thing: f('Thing'),
        things: f('Thing[]', true),
        note: f('string', true, true),
        blob: f('object', true),
      },
    },
    { type: 'e.open', version: 'v1', open: true, fields: { id: f('integer'), thing: f('Thing', true) } },
  ],
};

function toYaml(spec: CatalogSpec): string {
  const fieldLines = (fields: Fields, indent: string): string[] =>
    Object.entries(fields).map(([name, s]) => `${indent}${name}${s.optional ? '?' : ''}: { type: "${s.type}", nullable: ${s.nullable} }`);
  const lines = ['section: S', 'shared_types:'];
  for (const [name, fields] of Object.entries(spec.shared)) lines.push(`  ${name}:`, '    fields:', ...fieldLines(fields, '      '));
  lines.push('events:');
  const types = [...new Set(spec.events.map((e) => e.type))];
  for (const type of types) {
    lines.push(`  ${type}:`);
    for (const event of spec.events.filter((e) => e.type === type)) {
      lines.push(`    ${event.version}:`, ...(event.open ? ['      open: "the rest is not shown"'] : []), '      fields:', ...fieldLines(event.fields, '        '));
    }
  }
  return lines.join('\n') + '\n';
}

function load(spec: CatalogSpec): CatalogModel {
  const loaded = loadCatalog([{ path: 'catalog/01-proof.yaml', text: toYaml(spec) }]);
  if (!loaded.model) throw new Error(`edit gave a catalog that does not load:\n${loaded.errors.map((e) => e.message).join('\n')}\n${toYaml(spec)}`);
  return loaded.model;
}

// ── edits ────────────────────────────────────────────────────────────────────────────────

const TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'string[]', 'integer[]', 'Thing', 'Thing[]'];
const EDIT_KINDS = [
  'remove-field',
  'change-type',
  'toggle-optional',
  'toggle-nullable',
  'drop-nullable',
  'widen-integer',
  'add-field',
  'toggle-open',
  'remove-event',
  'add-version',
  'add-event-type',
  'shared-remove-field',
  'shared-add-field',
  'shared-change-type',
  'shared-toggle-optional',
  'swap-shared-type',
] as const;

interface Edit {
  kind: (typeof EDIT_KINDS)[number];
  target: number;
  type: string;
  flag: boolean;
}

const editArb: fc.Arbitrary<Edit> = fc.record({ kind: fc.constantFrom(...EDIT_KINDS), target: fc.nat(50), type: fc.constantFrom(...TYPES), flag: fc.boolean() });

const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length === 0 ? undefined : items[n % items.length]);

/** Applies one edit to a copy; always yields a catalog that loads. */
function applyEdit(base: CatalogSpec, edit: Edit): CatalogSpec {
  const spec = structuredClone(base);
  const event = pick(spec.events, edit.target)!;
  const fieldName = pick(Object.keys(event.fields), edit.target);
  const thing = spec.shared.Thing!;
  const sharedName = pick(Object.keys(thing), edit.target);
  switch (edit.kind) {
    case 'remove-field':
      if (fieldName) delete event.fields[fieldName];
      break;
    case 'change-type':
      if (fieldName) event.fields[fieldName]!.type = edit.type;
      break;
    case 'toggle-optional':
      if (fieldName) event.fields[fieldName]!.optional = !event.fields[fieldName]!.optional;
      break;
    case 'toggle-nullable':
      if (fieldName) event.fields[fieldName]!.nullable = !event.fields[fieldName]!.nullable;
      break;
    case 'drop-nullable': {
      const nullable = pick(Object.values(event.fields).filter((x) => x.nullable), edit.target);
      if (nullable) nullable.nullable = false;
      break;
    }
    case 'widen-integer': {
      const integer = pick([...Object.values(event.fields), ...Object.values(thing)].filter((x) => x.type.startsWith('integer')), edit.target);
      if (integer) integer.type = integer.type.replace('integer', 'number');
      break;
    }
    case 'add-field':
      event.fields.added = f(edit.type, edit.flag);
      break;
    case 'toggle-open':
      event.open = !event.open;
      break;
    case 'remove-event':
      spec.events.splice(spec.events.indexOf(event), 1);
      break;
    case 'add-version':
      spec.events.push({ ...structuredClone(event), version: 'v2', fields: { ...structuredClone(event.fields), added: f(edit.type, edit.flag) } });
      break;
    case 'add-event-type':
      spec.events.push({ type: 'e.new', version: 'v1', open: edit.flag, fields: { x: f(edit.type) } });
      break;
    case 'shared-remove-field':
      if (sharedName) delete thing[sharedName];
      break;
    case 'shared-add-field':
      thing.added = f(edit.type === 'Thing' || edit.type === 'Thing[]' ? 'string' : edit.type, edit.flag);
      break;
    case 'shared-change-type':
      if (sharedName) thing[sharedName]!.type = edit.type === 'Thing' || edit.type === 'Thing[]' ? 'boolean' : edit.type;
      break;
    case 'shared-toggle-optional':
      if (sharedName) thing[sharedName]!.optional = !thing[sharedName]!.optional;
      break;
    case 'swap-shared-type': {
      // Another shared type, the same structure (flag) or one field fewer, now used where Thing was.
      spec.shared.Other = structuredClone(thing);
      if (!edit.flag) delete spec.shared.Other.label;
      for (const e of spec.events) for (const field of Object.values(e.fields)) field.type = field.type.replace(/^Thing/, 'Other');
      break;
    }
  }
  return spec;
}

// ── messages ─────────────────────────────────────────────────────────────────────────────

type Payload = Record<string, unknown>;
const EXTRA = 'zz_unlisted';

function valueArb(type: TypeRef, model: CatalogModel, extra: boolean): fc.Arbitrary<unknown> {
  switch (type.kind) {
    case 'array':
      return fc.array(valueArb(type.items, model, extra), { maxLength: 2 });
    case 'named':
      return objectArb(model.sharedTypes.find((t) => t.name === type.name)!.fields, model, extra);
    case 'format':
      throw new Error(`the events' catalog states no formats (${type.name})`);
    case 'primitive':
      return {
        string: fc.string({ maxLength: 3 }),
        integer: fc.integer({ min: -5, max: 5 }),
        number: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ min: -5, max: 5, noNaN: true })),
        boolean: fc.boolean(),
        object: fc.dictionary(fc.constantFrom('k', 'j'), fc.integer(), { maxKeys: 2 }),
      }[type.name];
  }
}

function objectArb(fields: readonly FieldModel[], model: CatalogModel, extra: boolean): fc.Arbitrary<Payload> {
  const entries = fields.map((field) => {
    let value = valueArb(field.type, model, extra);
    if (field.nullable) value = fc.option(value, { nil: null });
    return fc.tuple(fc.constant(field.name), field.optional ? fc.option(value, { nil: undefined }) : value);
  });
  return fc.tuple(fc.tuple(...entries), extra ? fc.boolean() : fc.constant(false)).map(([pairs, withExtra]) => {
    const out: Payload = {};
    for (const [name, value] of pairs) if (value !== undefined) out[name] = value;
    if (withExtra) out[EXTRA] = 1;
    return out;
  });
}

/** Messages aimed at each rule: every optional field present and arrays non-empty, none, nulls, an unlisted property. */
function targeted(event: EventVersionModel, model: CatalogModel): Payload[] {
  const sample = (type: TypeRef): unknown => {
    if (type.kind === 'array') return [sample(type.items)];
    if (type.kind === 'named') return full(model.sharedTypes.find((t) => t.name === type.name)!.fields);
    if (type.kind === 'format') throw new Error(`the events' catalog states no formats (${type.name})`);
    return { string: 'x', integer: 1, number: 1.5, boolean: true, object: {} }[type.name];
  };
  const full = (fields: readonly FieldModel[]): Payload => Object.fromEntries(fields.map((field) => [field.name, sample(field.type)]));
  const minimal = Object.fromEntries(event.fields.filter((x) => !x.optional).map((x) => [x.name, sample(x.type)]));
  const nulls = { ...full(event.fields), ...Object.fromEntries(event.fields.filter((x) => x.nullable).map((x) => [x.name, null])) };
  return [full(event.fields), minimal, nulls, { ...full(event.fields), [EXTRA]: 1 }];
}

// ── the generated validators, loaded ─────────────────────────────────────────────────────

const work = mkdtempSync(join(tmpdir(), 'compat-proof-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const require = createRequire(import.meta.url);
let builds = 0;

function validatorsOf(model: CatalogModel): Map<string, CompiledEventModule> {
  const dir = join(work, String(builds++));
  for (const file of emitValidators(model)) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.contents);
  }
  return new Map(model.events.map((e) => [e.key, require(join(dir, validatorPaths.module(e))) as CompiledEventModule]));
}

/** The modes in which a message of `key` is valid (none when the catalog has no such event). */
function validIn(validators: Map<string, CompiledEventModule>, key: string, payload: Payload): SchemaMode[] {
  const module = validators.get(key);
  return module ? MODES.filter((mode) => module.accepts[mode](payload)) : [];
}

/** One in-memory TypeScript program, reused: the lib files are read once. */
const typeProject = new Project({ useInMemoryFileSystem: true, compilerOptions: { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022 } });

/**
 * Code written against the types before the change that no longer compiles: the changed
 * property, read from a value of the new type, does not exist or is not assignable to what it
 * was. The witness for a breaking change no message can show (a field removed from an open
 * event, a shared type turned into `object`).
 */
async function typeWitness(before: CatalogModel, after: CatalogModel, change: Change): Promise<boolean> {
  if (change.field === undefined) return false;
  const owner =
    change.event !== undefined
      ? `${before.events.find((e) => e.key === change.event)!.tsName}Payload`
      : before.sharedTypes.find((t) => t.name === change.sharedType)?.tsName;
  if (owner === undefined) return false;
  const path = change.field.split('.');
  const typeAt = (ns: string): string => path.reduce((type, name) => `NonNullable<${type}>['${name}']`, `${ns}.${owner}`);
  typeProject.createSourceFile('/before.ts', (await emitTypes(before))[0]!.contents, { overwrite: true });
  typeProject.createSourceFile('/after.ts', (await emitTypes(after))[0]!.contents, { overwrite: true });
  const use = typeProject.createSourceFile(
    '/use.ts',
    `import type * as B from './before';\nimport type * as A from './after';\ndeclare const now: ${typeAt('A')};\nexport const used: ${typeAt('B')} = now;\n`,
    { overwrite: true },
  );
  return use.getPreEmitDiagnostics().length > 0;
}

/** Every rule but those about shared types that disappear or appear on their own. */
const REACHABLE_KINDS = [
  'event-version-removed',
  'field-removed',
  'field-type-changed',
  'field-now-required',
  'field-added-required',
  'field-no-longer-nullable',
  'event-closed',
  'field-now-optional',
  'field-now-nullable',
  'event-type-added',
  'event-version-added',
  'field-added-optional',
  'event-opened',
  'field-type-widened',
  'field-type-renamed',
];

// ── the property ─────────────────────────────────────────────────────────────────────────

describe('compatibility rules against the generated validators', () => {
  const base = load(BASE);
  const baseValidators = validatorsOf(base);
  const seen = new Map<string, number>();

  it(
    `hold for ${EDITS_PER_RUN} random edits: nothing but a breaking change rejects a message valid before, and each breaking change has a witness`,
    async () => {
      await fc.assert(
        fc.asyncProperty(editArb, fc.integer(), async (edit, seed) => {
          const after = load(applyEdit(BASE, edit));
          const report = compareSnapshots(snapshotFromModel(base), snapshotFromModel(after));
          for (const change of report.changes) seen.set(change.kind, (seen.get(change.kind) ?? 0) + 1);
          const afterValidators = validatorsOf(after);

          // Messages of every baseline event: aimed ones, and random ones valid before.
          const messages = base.events.map((event) => ({
            event,
            payloads: [...targeted(event, base), ...fc.sample(objectArb(event.fields, base, true), { numRuns: 25, seed })],
          }));
          const rejectedAfter = messages.flatMap(({ event, payloads }) =>
            payloads.flatMap((payload) => {
              const before = validIn(baseValidators, event.key, payload);
              const now = validIn(afterValidators, event.key, payload);
              return before.filter((mode) => !now.includes(mode)).map((mode) => ({ key: event.key, mode, payload }));
            }),
          );

          if (!report.breaking) {
            expect(rejectedAfter, `${JSON.stringify(edit)} was called ${report.changes.map((c) => c.kind).join(', ') || 'no change'}`).toEqual([]);
            return;
          }
          for (const change of report.changes.filter((c) => c.severity === 'breaking')) {
            const reached = change.event !== undefined ? [change.event] : change.affects;
            const witnessed = rejectedAfter.some((r) => reached.includes(r.key)) || (await typeWitness(base, after, change));
            expect(witnessed, `no witness for ${change.kind} (${change.message}) after ${JSON.stringify(edit)}`).toBe(true);
          }
        }),
        { numRuns: EDITS_PER_RUN, seed: 20_240_501 },
      );
      // The edits reached every rule an edit of this catalog can trigger.
      expect(REACHABLE_KINDS.filter((kind) => !seen.has(kind))).toEqual([]);
    },
    120_000,
  );

});
