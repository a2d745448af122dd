import { Ajv2020, type Options as AjvOptions } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { codeBanner, eventSources } from '../common/banner.js';
import type { CatalogModel, EventVersionModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { payloadSchema, type JsonSchema, type SchemaMode } from './json-schema.js';
import { payloadCheckCode } from './payload-check.js';
import { runtimeRequires } from './runtime-requires.js';
import { validatorPaths } from './validator-paths.js';

/**
 * Precompiled (ajv standalone) payload validators, one CommonJS module per event version:
 * `validators/<type>/<version>.cjs` and its `.d.cts` (see `runtime/compiled-validator.ts`).
 * CommonJS because the registry loads each module synchronously with a literal `require`
 * when its event's first message arrives; ES modules import them just as well.
 *
 * Every message first runs `accepts` (`payload-check.ts`): one plain boolean function per
 * mode, ajv's verdict without its error bookkeeping. Only a rejected payload runs ajv's code
 * for its errors.
 *
 * Each module holds two chunks of ajv standalone code, one per `allErrors` setting (an Ajv
 * instance option, so one instance each): `fast` (stop at the first error) built when the
 * module loads, and `full()` (every error) built on first call. ajv names its functions and
 * constants by per-instance counters (`validate10`, `schema11`, …), so each chunk is generated
 * as CommonJS-style code and wrapped in its own function scope, where `exports` is a local
 * object; the names of one chunk can never clash with the other's. Fresh Ajv instances per
 * event make every file independent of every other event: editing one event changes one file.
 */

// `ajv/dist/standalone` is CommonJS with `module.exports = standaloneCode` and `.default`.
const standaloneCode = standaloneModule.default;

/** The modes a module exports, in export order. */
const MODES: readonly SchemaMode[] = ['tolerant', 'strict'];

/**
 * Ajv options of the generated validators. Anything that validates the same payloads at run
 * time with ajv (tests, tools) must use these so its verdicts and errors are the same.
 *
 * - `strict`: a schema mistake (unknown keyword, `required` property not in `properties`, …)
 *   fails generation instead of being ignored.
 * - `allowUnionTypes`: `strictTypes` would otherwise reject `type: [T, "null"]`, which is how
 *   the schema builder writes a nullable field.
 * - `messages: false`: the runtime writes its own messages from `keyword` and `params`.
 */
export function validatorAjvOptions(allErrors: boolean): AjvOptions {
  return { allErrors, messages: false, strict: true, allowUnionTypes: true };
}

export { validatorPaths } from './validator-paths.js';

/** From `generated/validators/<type>/<version>.d.cts` to the repository's `runtime/` (an ES module, hence `resolution-mode`). */
const RUNTIME_TYPES = '../../../runtime/compiled-validator.js';

/** Every event's validator files. */
export function emitValidators(model: CatalogModel): EmittedFile[] {
  const files: EmittedFile[] = [];
  for (const event of model.events) {
    const banner = codeBanner(eventSources(model, event));
    files.push({ path: validatorPaths.module(event), contents: banner + validatorModule(model, event) });
    files.push({ path: validatorPaths.declarations(event), contents: banner + DECLARATIONS });
  }
  return files;
}

const DECLARATIONS = `import type { CompiledValidatorPair } from '${RUNTIME_TYPES}' with { 'resolution-mode': 'import' };
import type { PayloadCheckPair } from '${RUNTIME_TYPES}' with { 'resolution-mode': 'import' };

/** Payload checks without errors (the same verdicts as \`fast\`): the path every message takes. */
export declare const accepts: PayloadCheckPair;
/** Payload validators that stop at the first error. */
export declare const fast: CompiledValidatorPair;
/** Payload validators that collect every error; built on first call. */
export declare function full(): CompiledValidatorPair;
`;

function validatorModule(model: CatalogModel, event: EventVersionModel): string {
  const schemas = MODES.map((mode) => payloadSchema(model, event, mode));
  return [
    `// Payload validators of ${event.type} ${event.version} (ajv standalone code; no imports, no eval).`,
    "'use strict';",
    '',
    'let fullPair;',
    '',
    '/** Verdicts only, no errors: the path every message takes. */',
    'exports.accepts = { tolerant: acceptsTolerant, strict: acceptsStrict };',
    '',
    '/** Stop at the first error: for a huge rejected payload whose bounded search found no fault. */',
    'exports.fast = buildFast();',
    '',
    '/** Collect every error: built on first call, used only for rejected messages. */',
    'exports.full = function full() {',
    '  return (fullPair ??= buildFull());',
    '};',
    '',
    chunk('buildFast', standalone(event, schemas, false)),
    '',
    chunk('buildFull', standalone(event, schemas, true)),
    '',
    checks(event, schemas),
  ].join('\n');
}

/** The boolean check of each mode (`acceptsTolerant`, `acceptsStrict`). */
function checks(event: EventVersionModel, schemas: JsonSchema[]): string {
  return MODES.map((mode, i) => {
    const name = mode === 'tolerant' ? 'acceptsTolerant' : 'acceptsStrict';
    try {
      return payloadCheckCode(name, schemas[i]!, { plainObject: true });
    } catch (error) {
      throw new Error(`validators: ${event.key} (${mode}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }).join('\n');
}

/** One standalone chunk inside its own function: its names stay local, `exports` is a plain object. */
function chunk(name: string, code: string): string {
  const body = code
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
  return `function ${name}() {\n  const exports = {};\n${body}\n  return exports;\n}\n`;
}

/** ajv standalone code (CommonJS-style `exports.<mode> = …`) for both modes of one event. */
function standalone(event: EventVersionModel, schemas: JsonSchema[], allErrors: boolean): string {
  const variant = allErrors ? 'full (allErrors: true)' : 'fast (allErrors: false)';
  // A fresh instance per event and setting keeps ajv's counter-based names independent of
  // other events. `validateSchema: false` and `meta: false` only skip the meta-schema check,
  // which `checkSchema` has done once per schema with a shared instance (a fresh one would
  // compile the 2020-12 meta-schemas again: ~15 ms each, against ~2 ms for the rest). The
  // generated code is the same either way; strict mode's compile-time checks still run.
  const ajv = new Ajv2020({ ...validatorAjvOptions(allErrors), validateSchema: false, meta: false, code: { source: true, esm: false, lines: true } });
  const refs: Record<string, string> = {};
  let code: string;
  try {
    MODES.forEach((mode, i) => {
      const schema = schemas[i]!;
      if (!allErrors) checkSchema(event, mode, schema);
      ajv.addSchema(schema);
      refs[mode] = schema.$id as string;
    });
    code = standaloneCode(ajv, refs);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`validators: ajv cannot compile the payload schema of ${event.key} (${variant}): ${reason}`);
  }
  // ajv writes `require("ajv/dist/runtime/…")` for helpers some keywords need (string
  // lengths, deep equality, formats, $async): the modules must have no imports at all.
  const imports = runtimeRequires(code);
  if (imports.length > 0) {
    throw new Error(
      `validators: the ${variant} standalone code of ${event.key} contains require(${imports.join(', ')}): its schema uses a keyword whose ajv helper would have to be imported at run time`,
    );
  }
  return dropUnusedSchemaConstants(code.replace(/^"use strict";\n/, '').trim());
}

let metaSchemaChecker: Ajv2020 | undefined;

/** Checks a schema against the draft 2020-12 meta-schema, with one Ajv instance for the whole run. */
function checkSchema(event: EventVersionModel, mode: SchemaMode, schema: JsonSchema): void {
  const checker = (metaSchemaChecker ??= new Ajv2020({ strict: true, allowUnionTypes: true }));
  if (!checker.validateSchema(schema)) {
    throw new Error(`validators: the ${mode} payload schema of ${event.key} is not valid JSON Schema 2020-12: ${checker.errorsText(checker.errors)}`);
  }
}

/**
 * ajv emits the source schemas it touched as `const schemaN = {…};` lines (with their titles
 * and descriptions) even where the code never reads them. Drop those no other line names;
 * a bundler's minifier would not, because they sit inside the chunk's function.
 */
function dropUnusedSchemaConstants(code: string): string {
  const lines = code.split('\n');
  const declaration = /^const (schema\d+) = .*;$/;
  const kept = lines.filter((line) => {
    const name = declaration.exec(line)?.[1];
    if (name === undefined) return true;
    const use = new RegExp(`\\b${name}\\b`);
    return lines.some((other) => other !== line && use.test(other));
  });
  return kept.join('\n');
}
