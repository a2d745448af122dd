/**
 * The generated validator modules agree with ajv compiling the same payload schemas at run
 * time: the same verdict from `accepts`; from `payloadValidator` walking the shipped `schemas`
 * the same verdict and the same errors as ajv's first-error (`allErrors: false`) and
 * all-errors validators; and from the standalone all-errors modules (`.errors.cjs`) the same
 * verdict and errors as ajv's all-errors validator, for every event of the real catalog, in both modes, on a full payload,
 * a minimal one and every labelled mutation of `generator/samples/payload-samples.ts`.
 *
 * The modules are emitted in memory, written to a fresh temporary directory and imported
 * from there (CommonJS modules, imported as Node imports any `.cjs` file).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPAWNS } from '../support/timeouts.js';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { formatProblem } from '../../generator/catalog/problems.js';
import { payloadSchema } from '../../generator/emit/json-schema.js';
import type { SchemaMode } from '../../generator/emit/schema-for.js';
import type { EmittedFile } from '../../generator/emit/emitted-file.js';
import { emitValidators, validatorAjvOptions, validatorPaths } from '../../generator/emit/validators.js';
import type { CatalogModel, EventVersionModel, TypeRef } from '../../generator/model.js';
import type { AllErrorsValidators, CompiledEventModule, CompiledValidator, CompiledValidatorError } from '../../runtime/contract/compiled-validator.js';
import { payloadValidator } from '../../runtime/internal/payload-errors.js';
import { fullPayload, minimalPayload, mutations, type Payload } from '../../generator/samples/payload-samples.js';
import { syntheticModel } from './synthetic-catalog.js';

const MODES: readonly SchemaMode[] = ['tolerant', 'strict'];

const loaded = loadCatalogFromDisk('catalog');
if (!loaded.model) throw new Error(`catalog did not load:\n${loaded.errors.map(formatProblem).join('\n')}`);
const model: CatalogModel = loaded.model;

const synthetic: CatalogModel = syntheticModel();

const emitted = emitValidators(model);
const emittedSynthetic = emitValidators(synthetic);
const outDir = mkdtempSync(join(tmpdir(), 'event-validators-'));

/** Writes emitted files under `dir` and imports each event's (CommonJS) module. */
async function writeAndImport(files: EmittedFile[], dir: string, events: readonly EventVersionModel[]): Promise<Map<string, [CompiledEventModule, AllErrorsValidators]>> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const file of files) {
    const path = join(dir, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  const modules = new Map<string, [CompiledEventModule, AllErrorsValidators]>();
  await Promise.all(
    events.map(async (event) => {
      const url = (path: string) => pathToFileURL(join(dir, path)).href;
      modules.set(event.key, [(await import(url(validatorPaths.module(event)))) as CompiledEventModule, (await import(url(validatorPaths.errorsModule(event)))) as AllErrorsValidators]);
    }),
  );
  return modules;
}

const modules = new Map<string, CompiledEventModule>();
const standaloneModules = new Map<string, AllErrorsValidators>();

beforeAll(async () => {
  for (const [dir, files, events] of [['real', emitted, model.events], ['synthetic', emittedSynthetic, synthetic.events]] as const) {
    for (const [key, [mod, standalone]] of await writeAndImport(files, join(outDir, dir), events)) {
      modules.set(key, mod);
      standaloneModules.set(key, standalone);
    }
  }
}, SPAWNS);

afterAll(() => {
  rmSync(outDir, { recursive: true, force: true });
});

/** ajv compiling the same payload schemas at run time, with the generator's options. */
const runtimeAjv = {
  fast: new Ajv2020(validatorAjvOptions(false)),
  full: new Ajv2020(validatorAjvOptions(true)),
};

function runtimeValidator(m: CatalogModel, event: EventVersionModel, mode: SchemaMode, allErrors: boolean): ValidateFunction {
  const ajv = allErrors ? runtimeAjv.full : runtimeAjv.fast;
  const schema = payloadSchema(m, event, mode);
  return ajv.getSchema(schema.$id as string) ?? ajv.compile(schema);
}

interface Verdict {
  valid: boolean;
  errors: Pick<CompiledValidatorError, 'instancePath' | 'schemaPath' | 'keyword' | 'params'>[];
}

function verdict(validate: CompiledValidator | ValidateFunction, payload: unknown): Verdict {
  const valid = validate(payload) as boolean;
  const errors = (validate.errors ?? []).map(({ instancePath, schemaPath, keyword, params }) => ({ instancePath, schemaPath, keyword, params: { ...params } }));
  return { valid, errors };
}

interface Case {
  label: string;
  payload: Payload;
  /** Modes where the payload is valid. */
  validIn: readonly SchemaMode[];
  expectPath?: string;
}

function casesOf(m: CatalogModel, event: EventVersionModel): Case[] {
  return [
    { label: 'full payload', payload: fullPayload(m, event), validIn: MODES },
    { label: 'minimal payload', payload: minimalPayload(m, event), validIn: MODES },
    ...mutations(m, event),
  ];
}

/** The pointer an ajv error designates: the missing or unlisted property itself, or the value at fault. */
function errorPointer(error: Verdict['errors'][number]): string {
  const escape = (name: unknown): string => String(name).replace(/~/g, '~0').replace(/\//g, '~1');
  if (error.keyword === 'required') return `${error.instancePath}/${escape(error.params.missingProperty)}`;
  if (error.keyword === 'additionalProperties') return `${error.instancePath}/${escape(error.params.additionalProperty)}`;
  return error.instancePath;
}

function moduleOf(event: EventVersionModel): CompiledEventModule {
  const mod = modules.get(event.key);
  if (!mod) throw new Error(`no module imported for ${event.key}`);
  return mod;
}

const firstError = (event: EventVersionModel, mode: SchemaMode): CompiledValidator => payloadValidator(moduleOf(event).schemas[mode], false);
const allErrors = (event: EventVersionModel, mode: SchemaMode): CompiledValidator => payloadValidator(moduleOf(event).schemas[mode], true);

/** The agreement checks for one event, shared by the real catalog and the synthetic model. */
function agreementSuite(m: CatalogModel, event: EventVersionModel): void {
  const cases = casesOf(m, event);

  it.each(MODES)('accepts.%s gives runtime ajv\'s verdict on every sample', (mode) => {
    const accepts = moduleOf(event).accepts[mode];
    const runtime = runtimeValidator(m, event, mode, false);
    for (const c of cases) expect(accepts(c.payload), `${event.key} ${mode}: ${c.label}`).toBe(runtime(c.payload));
  });

  it.each(MODES)('the first-error search of schemas.%s agrees with runtime ajv (allErrors: false), errors included', (mode) => {
    const generated = firstError(event, mode);
    const runtime = runtimeValidator(m, event, mode, false);
    for (const c of cases) {
      expect(verdict(generated, c.payload), `${event.key} ${mode}: ${c.label}`).toEqual(verdict(runtime, c.payload));
    }
  });

  it.each(MODES)('the all-errors search of schemas.%s agrees with runtime ajv (allErrors: true), errors included', (mode) => {
    const generated = allErrors(event, mode);
    const runtime = runtimeValidator(m, event, mode, true);
    for (const c of cases) {
      expect(verdict(generated, c.payload), `${event.key} ${mode}: ${c.label}`).toEqual(verdict(runtime, c.payload));
    }
  });

  it.each(MODES)('the standalone all-errors validator of %s agrees with runtime ajv (allErrors: true), errors included', (mode) => {
    const standalone = standaloneModules.get(event.key)![mode];
    const runtime = runtimeValidator(m, event, mode, true);
    for (const c of cases) {
      expect(verdict(standalone, c.payload), `${event.key} ${mode}: ${c.label}`).toEqual(verdict(runtime, c.payload));
    }
  });

  it.each(MODES)('%s: full and minimal payloads pass; each mutation fails where expected, at its path', (mode) => {
    const mod = moduleOf(event);
    for (const c of cases) {
      const expectedValid = c.validIn.includes(mode);
      const fast = verdict(firstError(event, mode), c.payload);
      const full = verdict(allErrors(event, mode), c.payload);
      expect(mod.accepts[mode](c.payload), `${event.key} ${mode}: ${c.label} (accepts)`).toBe(expectedValid);
      expect(fast.valid, `${event.key} ${mode}: ${c.label} (fast)`).toBe(expectedValid);
      expect(full.valid, `${event.key} ${mode}: ${c.label} (full)`).toBe(expectedValid);
      if (!expectedValid && c.expectPath !== undefined) {
        expect(full.errors.map(errorPointer), `${event.key} ${mode}: ${c.label}`).toContain(c.expectPath);
        expect(fast.errors.map(errorPointer), `${event.key} ${mode}: ${c.label}`).toContain(c.expectPath);
      }
    }
  });

  it(`strict ${event.open ? 'accepts' : 'rejects'} an unlisted payload property${event.open ? ' (open event)' : ''}; tolerant accepts it`, () => {
    const payload = { ...fullPayload(m, event), not_in_the_catalog: true };
    const mod = moduleOf(event);
    expect(mod.accepts.tolerant(payload)).toBe(true);
    expect(mod.accepts.strict(payload)).toBe(event.open !== false);
    const strict = allErrors(event, 'strict');
    expect(strict(payload)).toBe(event.open !== false);
    if (!event.open) {
      expect(strict.errors).toEqual([expect.objectContaining({ instancePath: '', keyword: 'additionalProperties', params: { additionalProperty: 'not_in_the_catalog' } })]);
    }
  });
}

describe('emitted files', () => {
  it('has a .cjs module, an .errors.cjs module and their .d.cts for every event version, and nothing else', () => {
    const expected = model.events.flatMap((e) => [validatorPaths.module(e), validatorPaths.declarations(e), validatorPaths.errorsModule(e), validatorPaths.errorsDeclarations(e)]);
    expect(emitted.map((f) => f.path)).toEqual(expected);
    expect(validatorPaths.module(model.events[0]!)).toMatch(/^validators\/[^/]+\/[^/]+\.cjs$/);
  });

  it('every file starts with the banner', () => {
    for (const file of emitted) expect(file.contents, file.path).toMatch(/^\/\/ Generated by `npm run generate` from .*Do not edit/);
  });

  it('no module imports, requires or evaluates anything', () => {
    const modules = [...emitted, ...emittedSynthetic].filter((f) => f.path.endsWith('.cjs'));
    expect(modules.length).toBe(2 * model.events.length + emittedSynthetic.length / 2);
    for (const file of modules) {
      for (const banned of ['require(', 'import ', 'new Function', 'eval(']) {
        expect(file.contents.includes(banned), `${file.path} contains ${banned}`).toBe(false);
      }
      if (file.path.endsWith('.errors.cjs')) {
        expect(file.contents).toMatch(/^exports\.tolerant = validate\d+;$/m);
        expect(file.contents).toMatch(/^exports\.strict = validate\d+;$/m);
      } else {
        expect(file.contents).toContain('exports.accepts = { tolerant: acceptsTolerant, strict: acceptsStrict };');
        expect(file.contents).toContain('exports.schemas = {');
      }
    }
  });

  it('declarations type the exports with the runtime contract', () => {
    for (const file of emitted.filter((f) => f.path.endsWith('.errors.d.cts'))) {
      expect(file.contents, file.path).toContain("import type { CompiledValidator } from '../../../runtime/contract/compiled-validator.js' with { 'resolution-mode': 'import' };");
      expect(file.contents, file.path).toContain('export declare const tolerant: CompiledValidator;');
      expect(file.contents, file.path).toContain('export declare const strict: CompiledValidator;');
    }
    for (const file of emitted.filter((f) => f.path.endsWith('.d.cts') && !f.path.endsWith('.errors.d.cts'))) {
      expect(file.contents, file.path).toContain("import type { PayloadCheckPair, PayloadSchemaPair } from '../../../runtime/contract/compiled-validator.js' with { 'resolution-mode': 'import' };");
      expect(file.contents, file.path).toContain('export declare const accepts: PayloadCheckPair;');
      expect(file.contents, file.path).toContain('export declare const schemas: PayloadSchemaPair;');
    }
  });

  it('emitting twice gives identical bytes', () => {
    expect(emitValidators(model)).toEqual(emitted);
  }, SPAWNS);

  it("an event's module does not depend on the other events (order, presence)", () => {
    const some = model.events.filter((_, i) => i % 25 === 0);
    const alone = emitValidators({ ...model, events: [...some].reverse() });
    const byPath = new Map(emitted.map((f) => [f.path, f.contents]));
    for (const file of alone) expect(file.contents, file.path).toBe(byPath.get(file.path));
  });

  it('ships schemas without annotations, properties in catalog order', () => {
    const mod = moduleOf(model.events.find((e) => e.key === 'account.created@v1')!);
    expect(mod.schemas.tolerant).toEqual({
      type: 'object',
      properties: { account_number: { type: 'string' }, account_user_emails: { type: 'array', items: { type: 'string' } }, is_imported: { type: 'boolean' } },
      required: ['account_number', 'account_user_emails'],
    });
    expect(mod.schemas.strict).toEqual({ ...mod.schemas.tolerant, additionalProperties: false });
  });

  it('names the event when ajv rejects a schema', () => {
    const event = { ...synthetic.events[0]!, fields: [{ ...synthetic.events[0]!.fields[0]!, type: { kind: 'primitive', name: 'date' } as unknown as TypeRef }] };
    expect(() => emitValidators({ ...synthetic, events: [event] })).toThrow(/synthetic\.thing@v1/);
  });
});

describe.each(model.events.map((event) => [event.key, event] as const))('%s', (_key, event) => {
  agreementSuite(model, event);
});

describe.each(synthetic.events.map((event) => [event.key, event] as const))('synthetic %s (nullable fields)', (_key, event) => {
  agreementSuite(synthetic, event);

  it('accepts null where the field is nullable', () => {
    const payload = { ...fullPayload(synthetic, event), thing: null, count: null, things: [{ label: 'a', note: null }] };
    for (const mode of MODES) {
      expect(moduleOf(event).accepts[mode](payload)).toBe(true);
      expect(firstError(event, mode)(payload)).toBe(true);
      expect(allErrors(event, mode)(payload)).toBe(true);
    }
  });
});

/**
 * Payloads broken in several places at once (values swapped for any JSON value, members
 * dropped or added, at any depth): the schema search still reports ajv's errors, in ajv's
 * order, in both settings. Events with shared types nested in arrays and nullable ones.
 */
describe('on payloads broken in many places at once', () => {
  const deep = [...model.events].sort((a, b) => JSON.stringify(payloadSchema(model, b)).length - JSON.stringify(payloadSchema(model, a)).length).slice(0, 6);
  const subjects = [...deep.map((event) => [model, event] as const), ...synthetic.events.map((event) => [synthetic, event] as const)];
  const json = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, fc.constantFrom(null, true, 0, 1.5, -3, 'x', '', Number.NaN), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('id', 'label', 'note', 'a/b', 'x~y', 'extra'), tie('value'), { maxKeys: 3 })),
  })).value;

  /** Every path to a value inside `value`, containers included. */
  function paths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
    if (typeof value !== 'object' || value === null) return [at];
    const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
    return [at, ...keys.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...at, key]))];
  }

  function broken(base: Payload, edits: [pick: number, kind: number, replacement: unknown][]): Payload {
    const payload = structuredClone(base);
    for (const [pick, kind, replacement] of edits) {
      const all = paths(payload).filter((p) => p.length > 0);
      if (all.length === 0) break;
      const path = all[pick % all.length]!;
      const parent = path.slice(0, -1).reduce<unknown>((v, key) => (v as Record<string | number, unknown>)[key], payload) as Record<string | number, unknown>;
      const key = path.at(-1)!;
      if (kind === 0 && !Array.isArray(parent)) delete parent[key];
      else if (kind === 1 && !Array.isArray(parent)) parent[`extra_${pick % 3}`] = replacement;
      else parent[key] = replacement;
    }
    return payload;
  }

  it.each(subjects.map(([m, event]) => [event.key, m, event] as const))('%s', (_key, m, event) => {
    const base = fullPayload(m, event);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.nat(2), json), { minLength: 1, maxLength: 4 }), (edits) => {
        const payload = broken(base, edits);
        for (const mode of MODES) {
          expect(verdict(firstError(event, mode), payload)).toEqual(verdict(runtimeValidator(m, event, mode, false), payload));
          expect(verdict(allErrors(event, mode), payload)).toEqual(verdict(runtimeValidator(m, event, mode, true), payload));
          expect(moduleOf(event).accepts[mode](payload)).toBe(runtimeValidator(m, event, mode, false)(payload));
        }
      }),
      { numRuns: 300, seed: 20261123 },
    );
  });
});
