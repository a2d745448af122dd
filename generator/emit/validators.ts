import { Ajv2020, type Options as AjvOptions } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { codeBanner, eventSources } from '../common/banner.js';
import type { CatalogModel, EventVersionModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { payloadSchema } from './json-schema.js';
import type { JsonSchema, SchemaMode } from './schema-for.js';
import { payloadCheckCode } from './payload-check.js';
import { runtimeRequires } from './runtime-requires.js';
import { validatorPaths } from './validator-paths.js';
import { RUNTIME_IMPORTS } from '../../runtime/contract/runtime-imports.js';
import { PAYLOAD_ANNOTATIONS } from '../../runtime/contract/payload-keywords.js';

/**
 * The payload validators, two CommonJS modules per event version (see
 * `runtime/contract/compiled-validator.ts`). CommonJS because the registry loads each synchronously
 * with a literal `require` when its event's first message (or first rejection) arrives; ES
 * modules import them just as well. Every file is independent of every other event: editing
 * one event changes its two files.
 *
 * - `validators/<type>/<version>.cjs`: per mode, the plain boolean check every message runs
 *   (`accepts`, `payload-check.ts`: ajv's verdict without its error bookkeeping) and the
 *   payload schema without its annotations (`schemas`). The per-event entries read a rejected
 *   payload with the runtime's `payloadValidator`, which walks that schema for ajv's errors:
 *   a bundle of a few events carries no error code per event.
 * - `validators/<type>/<version>.errors.cjs`: ajv standalone code, the all-errors validator
 *   of each mode, which the package root reads a rejected payload with.
 *
 * `test/generator/validators-agree.test.ts` holds the checks, the standalone validators and
 * the schema walk to ajv compiling the same schemas.
 */

// `ajv/dist/standalone` is CommonJS with `module.exports = standaloneCode` and `.default`.
const standaloneCode = standaloneModule.default;

/** The modes a module exports, in export order. */
const MODES: readonly SchemaMode[] = ['tolerant', 'strict'];

/**
 * Ajv options the validators agree with. Anything that validates the same payloads at run
 * time with ajv (tests, tools) must use these so its verdicts and errors are the same.
 *
 * - `strict`: a schema mistake (unknown keyword, `required` property not in `properties`, …)
 *   is an error instead of being ignored.
 * - `allowUnionTypes`: `strictTypes` would otherwise reject `type: [T, "null"]`, which is how
 *   the schema builder writes a nullable field.
 * - `messages: false`: the runtime writes its own messages from `keyword` and `params`.
 */
export function validatorAjvOptions(allErrors: boolean): AjvOptions {
  return { allErrors, messages: false, strict: true, allowUnionTypes: true };
}

export { validatorPaths } from './validator-paths.js';

/** From `generated/validators/<type>/<version>.d.cts` to the repository's `runtime/` (an ES module, hence `resolution-mode`). */
const RUNTIME_TYPES = RUNTIME_IMPORTS.validatorTypes;

/** Keywords that say nothing about validity: left out of the shipped schemas. */
const ANNOTATIONS = new Set<string>(PAYLOAD_ANNOTATIONS);

/** Every event's validator files. */
export function emitValidators(model: CatalogModel): EmittedFile[] {
  const files: EmittedFile[] = [];
  for (const event of model.events) {
    const banner = codeBanner(eventSources(model, event));
    // Both modules read the same two schemas: build them once.
    const schemas = MODES.map((mode) => payloadSchema(model, event, mode));
    files.push({ path: validatorPaths.module(event), contents: banner + validatorModule(event, schemas) });
    files.push({ path: validatorPaths.declarations(event), contents: banner + DECLARATIONS });
    files.push({ path: validatorPaths.errorsModule(event), contents: banner + errorsModule(event, schemas) });
    files.push({ path: validatorPaths.errorsDeclarations(event), contents: banner + ERRORS_DECLARATIONS });
  }
  return files;
}

const ERRORS_DECLARATIONS = `import type { CompiledValidator } from '${RUNTIME_TYPES}' with { 'resolution-mode': 'import' };

/** ajv's all-errors validator of the tolerant payload schema. */
export declare const tolerant: CompiledValidator;
/** ajv's all-errors validator of the strict payload schema. */
export declare const strict: CompiledValidator;
`;

/** ajv standalone code of both modes' all-errors validators, in one module of its own. */
function errorsModule(event: EventVersionModel, schemas: readonly JsonSchema[]): string {
  // A fresh instance per event keeps ajv's counter-based names independent of other events.
  // `validateSchema: false` and `meta: false` skip only the meta-schema check, which
  // `checkSchema` does once per schema with a shared instance; strict mode's compile-time
  // checks still run.
  const ajv = new Ajv2020({ ...validatorAjvOptions(true), validateSchema: false, meta: false, code: { source: true, esm: false, lines: true } });
  const refs: Record<string, string> = {};
  let code: string;
  try {
    MODES.forEach((mode, i) => {
      ajv.addSchema(schemas[i]!);
      refs[mode] = schemas[i]!.$id as string;
    });
    code = standaloneCode(ajv, refs);
  } catch (error) {
    throw new Error(`validators: ajv cannot compile the payload schema of ${event.key}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // ajv writes `require("ajv/dist/runtime/…")` for helpers some keywords need (string
  // lengths, deep equality, formats): the module must have no imports at all.
  const imports = runtimeRequires(code);
  if (imports.length > 0) {
    throw new Error(`validators: the standalone code of ${event.key} contains require(${imports.join(', ')}): its schema uses a keyword whose ajv helper would have to be imported at run time`);
  }
  return [
    `// All-errors payload validators of ${event.type} ${event.version} (ajv standalone code; no imports, no eval).`,
    dropUnusedSchemaConstants(code.trim()),
    '',
  ].join('\n');
}

/**
 * ajv emits the source schemas it touched as `const schemaN = {…};` lines (with their titles
 * and descriptions) even where the code never reads them: drop those no other line names.
 */
function dropUnusedSchemaConstants(code: string): string {
  const lines = code.split('\n');
  const declaration = /^const (schema\d+) = .*;$/;
  /** How many lines name each constant. */
  const namedOn = new Map<string, number>();
  for (const line of lines) for (const name of new Set(line.match(/\bschema\d+\b/g))) namedOn.set(name, (namedOn.get(name) ?? 0) + 1);
  return lines
    .filter((line) => {
      const name = declaration.exec(line)?.[1];
      // Its own declaration is one of the lines that name it.
      return name === undefined || namedOn.get(name)! > 1;
    })
    .join('\n');
}

const DECLARATIONS = `import type { PayloadCheckPair, PayloadSchemaPair } from '${RUNTIME_TYPES}' with { 'resolution-mode': 'import' };

/** Payload checks without errors: the path every message takes. */
export declare const accepts: PayloadCheckPair;
/** The payload schemas without annotations: what a rejected payload is searched against for its issues. */
export declare const schemas: PayloadSchemaPair;
`;

function validatorModule(event: EventVersionModel, schemas: readonly JsonSchema[]): string {
  schemas.forEach((schema, i) => checkSchema(event, MODES[i]!, schema));
  return [
    `// Payload validators of ${event.type} ${event.version} (no imports, no eval).`,
    "'use strict';",
    '',
    '/** Verdicts only, no errors: the path every message takes. */',
    'exports.accepts = { tolerant: acceptsTolerant, strict: acceptsStrict };',
    '',
    '/** The payload schemas: a rejected payload is searched against them for its issues. */',
    'exports.schemas = {',
    ...MODES.map((mode, i) => `  ${mode}: ${JSON.stringify(withoutAnnotations(schemas[i]!))},`),
    '};',
    '',
    checks(event, schemas),
  ].join('\n');
}

/** The boolean check of each mode (`acceptsTolerant`, `acceptsStrict`). */
function checks(event: EventVersionModel, schemas: readonly JsonSchema[]): string {
  return MODES.map((mode, i) => {
    const name = mode === 'tolerant' ? 'acceptsTolerant' : 'acceptsStrict';
    try {
      return payloadCheckCode(name, schemas[i]!, { plainObject: true });
    } catch (error) {
      throw new Error(`validators: ${event.key} (${mode}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }).join('\n');
}

/**
 * A schema without annotations, keys in their order (property order is error order). Only
 * `additionalProperties: true | false` is searched at run time: a schema there fails generation.
 */
function withoutAnnotations(schema: unknown, at = '#'): unknown {
  if (Array.isArray(schema)) return schema.map((item, i) => withoutAnnotations(item, `${at}/${i}`));
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept: JsonSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    if (keyword === 'additionalProperties' && typeof value !== 'boolean') throw new Error(`validators: additionalProperties at ${at} must be true or false`);
    // Property names and `$defs` names are data, not keywords: keep every one.
    kept[keyword] = keyword === 'properties' || keyword === '$defs' ? mapValues(value as JsonSchema, (sub, name) => withoutAnnotations(sub, `${at}/${keyword}/${name}`)) : keyword === 'required' || keyword === 'type' ? value : withoutAnnotations(value, `${at}/${keyword}`);
  }
  return kept;
}

const mapValues = (object: JsonSchema, map: (value: unknown, key: string) => unknown): JsonSchema => Object.fromEntries(Object.entries(object).map(([key, value]) => [key, map(value, key)]));

let metaSchemaChecker: Ajv2020 | undefined;

/** Checks a schema against the draft 2020-12 meta-schema, with one Ajv instance for the whole run. */
function checkSchema(event: EventVersionModel, mode: SchemaMode, schema: JsonSchema): void {
  const checker = (metaSchemaChecker ??= new Ajv2020({ strict: true, allowUnionTypes: true }));
  if (!checker.validateSchema(schema)) {
    throw new Error(`validators: the ${mode} payload schema of ${event.key} is not valid JSON Schema 2020-12: ${checker.errorsText(checker.errors)}`);
  }
}
