/**
 * The generator, stage by stage: load (read, check, resolve) → emit schemas, types,
 * validators, index (registry, event entries, manifest), docs, AsyncAPI, and the REST API
 * (its schemas, types, validators, operations, docs page and OpenAPI). Everything happens
 * in memory on one thread; writing is the caller's last step, so a failure anywhere leaves
 * `generated/` untouched.
 */
import { loadCatalog, type CatalogSourceFile } from './catalog/load-catalog.js';
import type { CatalogProblem } from './catalog/problems.js';
import { byCodeUnit } from '../runtime/contract/code-unit-order.js';
import { emitApiDocs } from './emit/api-docs.js';
import { emitApiFormats } from './emit/api-formats.js';
import { emitApiSchemas } from './emit/api-json-schema.js';
import { emitApiOperations } from './emit/api-operations.js';
import { emitApiTypes } from './emit/api-types.js';
import { emitApiValidators } from './emit/api-validators.js';
import { emitAsyncApi } from './emit/asyncapi.js';
import { emitDocs } from './emit/docs.js';
import type { EmittedFile } from './emit/emitted-file.js';
import { emitEventEntries } from './emit/event-entries.js';
import { emitSchemas } from './emit/json-schema.js';
import { emitManifest } from './emit/manifest.js';
import { emitOpenApi } from './emit/openapi.js';
import { emitRegistry } from './emit/registry.js';
import { emitTypes } from './emit/typescript.js';
import { emitValidators } from './emit/validators.js';
import type { CatalogModel } from './model.js';

export interface StageTiming {
  stage: string;
  ms: number;
}

export type GenerateResult =
  | { ok: true; model: CatalogModel; files: EmittedFile[]; warnings: CatalogProblem[]; timings: StageTiming[] }
  | { ok: false; errors: CatalogProblem[]; warnings: CatalogProblem[]; timings: StageTiming[] };

/** Every emitter, in the order it runs and is reported. Each is a pure function of the model. */
const EMITTERS: readonly { stage: string; emit: (model: CatalogModel) => EmittedFile[] | Promise<EmittedFile[]>; runsFor?: (model: CatalogModel) => boolean }[] = [
  { stage: 'schemas', emit: emitSchemas },
  { stage: 'types', emit: emitTypes },
  { stage: 'validators', emit: emitValidators },
  { stage: 'index', emit: (model) => [...emitRegistry(model), ...emitEventEntries(model), emitManifest(model)] },
  { stage: 'docs', emit: emitDocs },
  { stage: 'asyncapi', emit: (model) => [emitAsyncApi(model)] },
  // The REST API (none when the catalog declares no operations).
  {
    stage: 'api',
    runsFor: (model) => model.api !== undefined,
    emit: async (model) => [...emitApiSchemas(model), ...(await emitApiTypes(model)), ...emitApiValidators(model), ...emitApiFormats(model), ...emitApiOperations(model), ...emitApiDocs(model), ...emitOpenApi(model)],
  },
];

export async function generate(catalogFiles: CatalogSourceFile[]): Promise<GenerateResult> {
  const timings: StageTiming[] = [];
  const timed = async <T>(stage: string, run: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const result = await run();
    timings.push({ stage, ms: performance.now() - start });
    return result;
  };

  const loaded = await timed('load', () => loadCatalog(catalogFiles));
  if (!loaded.model) return { ok: false, errors: loaded.errors, warnings: loaded.warnings, timings };
  const model = loaded.model;
  const files: EmittedFile[] = [];
  for (const { stage, emit, runsFor } of EMITTERS) if (runsFor?.(model) ?? true) files.push(...(await timed(stage, () => emit(model))));
  files.sort((a, b) => byCodeUnit(a.path, b.path));
  return { ok: true, model, files, warnings: loaded.warnings, timings };
}
