/**
 * The generator, stage by stage: load → (check, resolve) → emit schemas, types,
 * validators, index (registry, manifest, event entries), docs, AsyncAPI. Everything happens in memory; writing is the caller's
 * last step, so a failure anywhere leaves `generated/` untouched.
 */
import { loadCatalog, type CatalogSourceFile } from './catalog/load-catalog.js';
import type { CatalogProblem } from './catalog/problems.js';
import { emitAsyncApi } from './emit/asyncapi.js';
import { emitDocs } from './emit/docs.js';
import type { EmittedFile } from './emit/emitted-file.js';
import { byCodeUnit } from './emit/emitted-file.js';
import { emitSchemas } from './emit/json-schema.js';
import { emitEventEntries } from './emit/event-entries.js';
import { emitManifest } from './emit/manifest.js';
import { emitRegistry } from './emit/registry.js';
import { createTsProject } from './emit/ts-project.js';
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

  const project = createTsProject();
  const files = [
    ...(await timed('schemas', () => emitSchemas(model))),
    ...(await timed('types', () => emitTypes(model))),
    ...(await timed('validators', () => emitValidators(model))),
    ...(await timed('index', () => [...emitRegistry(model, project), emitManifest(model), ...emitEventEntries(model, project)])),
    ...(await timed('docs', () => emitDocs(model))),
    await timed('asyncapi', () => emitAsyncApi(model)),
  ].sort((a, b) => byCodeUnit(a.path, b.path));

  return { ok: true, model, files, warnings: loaded.warnings, timings };
}
