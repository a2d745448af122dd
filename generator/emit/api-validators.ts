import { Ajv2020, type Options as AjvOptions } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { codeBanner } from '../common/banner.js';
import type { CatalogModel } from '../model.js';
import { apiSchemas, type ApiSchema } from './api-json-schema.js';
import type { EmittedFile } from './emitted-file.js';
import { runtimeRequires } from './runtime-requires.js';
import { RUNTIME_IMPORTS } from '../../runtime/contract/runtime-imports.js';

const standaloneCode = standaloneModule.default;
/** ajv's helper; Node hands over the CommonJS module (its `default` inside), vitest the `default` itself. */
const ucs2length = ((ucs2lengthModule as { default?: unknown }).default ?? ucs2lengthModule) as ((text: string) => number) & { code: string };

export const API_VALIDATORS_PATH = 'api/validators.cjs';
export const OPERATION_VALIDATORS_PATH = 'api/operation-validators.ts';

/**
 * Ajv options of the REST validators; anything that checks the same bodies with ajv at run
 * time (tests) uses these. Every error is collected (bodies are small, and a rejected
 * request reports all its issues at once). `validateFormats: false`: `format` stays in the
 * schemas for readers, while each stated format is enforced by its `pattern`, which ajv
 * compiles into the module itself; a format checker would be an import of ajv-formats.
 */
export function apiValidatorAjvOptions(): AjvOptions {
  return { allErrors: true, messages: false, strict: true, allowUnionTypes: true, validateFormats: false };
}

/**
 * ajv's helper for `minLength` (a string's length in characters, not UTF-16 code units) is a
 * `require` in standalone code; the module has no imports, so the helper's own source is
 * written in its place, found by the very text ajv writes for it (`ucs2length.code`).
 */
function inlineLengthHelper(code: string): string {
  return code.split(ucs2length.code).join(`(${ucs2length.toString()})`);
}

/**
 * One CommonJS module with every validator of the REST API (`<operationId>_<part>`: params,
 * query, request, response_<status>), ajv standalone code with no imports at all, and its
 * `.d.cts`.
 */
export function emitApiValidators(model: CatalogModel): EmittedFile[] {
  if (!model.api) return [];
  const schemas = apiSchemas(model.api);
  const ajv = new Ajv2020({ ...apiValidatorAjvOptions(), code: { source: true, esm: false, lines: true } });
  const refs: Record<string, string> = {};
  for (const schema of schemas) {
    if (!ajv.validateSchema(schema.schema)) throw new Error(`api validators: ${schema.id} is not valid JSON Schema 2020-12: ${ajv.errorsText(ajv.errors)}`);
    ajv.addSchema(schema.schema);
    refs[schema.exportName] = schema.id;
  }
  let code: string;
  try {
    code = inlineLengthHelper(standaloneCode(ajv, refs));
  } catch (error) {
    throw new Error(`api validators: ajv cannot compile the REST API's schemas: ${error instanceof Error ? error.message : String(error)}`);
  }
  const imports = runtimeRequires(code);
  if (imports.length > 0) throw new Error(`api validators: the standalone code contains require(${imports.join(', ')}): a keyword's ajv helper would have to be imported at run time`);
  const banner = codeBanner(model.api.sourceFiles);
  const declarations = [
    `import type { CompiledValidator } from '${RUNTIME_IMPORTS.apiValidatorTypes}' with { 'resolution-mode': 'import' };`,
    '',
    ...schemas.map((s) => `/** ${s.operationId} ${s.part}. */\nexport declare const ${s.exportName}: CompiledValidator;`),
    '',
  ].join('\n');
  return [
    { path: API_VALIDATORS_PATH, contents: `${banner}// Validators of the REST API (ajv standalone code; no imports, no eval).\n${code.trim()}\n` },
    { path: API_VALIDATORS_PATH.replace(/\.cjs$/, '.d.cts'), contents: banner + declarations },
    { path: OPERATION_VALIDATORS_PATH, contents: banner + operationValidators(model.api.operations.map((op) => op.operationId), schemas) },
  ];
}

/**
 * `api/operation-validators.ts`: the validators of `api/validators.cjs` by operation id, then
 * part and status, typed by the operation map of `api/types.ts`, so that the run time looks a
 * validator up by what a request is, never by a name it rebuilds, and a status the types name
 * without its validator is a type error rather than a request that cannot be checked.
 */
function operationValidators(operationIds: readonly string[], schemas: readonly ApiSchema[]): string {
  const entry = (operationId: string): string[] => {
    const own = schemas.filter((s) => s.operationId === operationId);
    const part = (name: 'params' | 'query' | 'request'): string => {
      const schema = own.find((s) => s.part === name);
      return `    ${name}: ${schema ? `validators.${schema.exportName}` : 'undefined'},`;
    };
    const responses = own.flatMap((s) => (s.part.startsWith('response-') ? [`      ${s.part.slice('response-'.length)}: validators.${s.exportName},`] : []));
    return [`  ${operationId}: {`, part('params'), part('query'), part('request'), '    responses: {', ...responses, '    },', '  },'];
  };
  return [
    `import type { OperationValidators } from '${RUNTIME_IMPORTS.apiValidatorTypes}';`,
    "import type { ApiOperations, OperationId } from './types.js';",
    "import * as validators from './validators.cjs';",
    '',
    '/** Every validator of the REST API, by operation id, then part (`undefined` where the operation takes none) and status. */',
    'export const apiValidators: { readonly [Op in OperationId]: OperationValidators<ApiOperations[Op]> } = {',
    ...operationIds.flatMap(entry),
    '};',
    '',
  ].join('\n');
}
