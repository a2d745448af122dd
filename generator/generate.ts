/**
 * The generator, stage by stage: load → (check, resolve) → emit schemas, types,
 * validators, index (registry, manifest, event entries), docs, AsyncAPI. Everything
 * happens in memory; writing is the caller's last step, so a failure anywhere leaves
 * `generated/` untouched.
 */
import { loadCatalog, type CatalogSourceFile } from './catalog/load-catalog.js';
import type { CatalogProblem } from './catalog/problems.js';
import { byCodeUnit, type EmittedFile } from './emit/emitted-file.js';
import { emitSchemas } from './emit/json-schema.js';
import { emitManifest } from './emit/manifest.js';
import { runWorkerStagesOnThread } from './worker-stages-thread.js';
import { emitValidators } from './emit/validators.js';
import type { CatalogModel } from './model.js';

export interface StageTiming {
  stage: string;
  ms: number;
}

export type GenerateResult =
  | { ok: true; model: CatalogModel; files: EmittedFile[]; warnings: CatalogProblem[]; timings: StageTiming[] }
  | { ok: false; errors: CatalogProblem[]; warnings: CatalogProblem[]; timings: StageTiming[] };

export interface GenerateOptions {
  /**
   * Run the worker stages (types, registry, event entries, docs, AsyncAPI) on a worker
   * thread while the main thread compiles the validators (the CLI does). Same code, same
   * model: same output.
   */
  parallel?: boolean;
}

/** Stage names in the order they are reported, whichever thread ran them. */
const STAGE_ORDER = ['load', 'schemas', 'types', 'validators', 'index', 'docs', 'asyncapi'];

export async function generate(catalogFiles: CatalogSourceFile[], options: GenerateOptions = {}): Promise<GenerateResult> {
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

  // Started first so it overlaps everything below; never left unobserved if those fail.
  const workerStages = options.parallel ? runWorkerStagesOnThread(model) : import('./worker-stages.js').then(({ runWorkerStages }) => runWorkerStages(model));
  workerStages.catch(() => undefined);
  const mainFiles = [
    ...(await timed('schemas', () => emitSchemas(model))),
    ...(await timed('validators', () => emitValidators(model))),
    ...(await timed('index', () => [emitManifest(model)])),
  ];
  const fromWorker = await workerStages;
  // 'index' has a part on each side (manifest here, registry and entries there): add them up.
  for (const { stage, ms } of fromWorker.timings) {
    const existing = timings.find((t) => t.stage === stage);
    if (existing) existing.ms += ms;
    else timings.push({ stage, ms });
  }
  timings.sort((a, b) => STAGE_ORDER.indexOf(a.stage) - STAGE_ORDER.indexOf(b.stage));
  const files = [...mainFiles, ...fromWorker.files].sort((a, b) => byCodeUnit(a.path, b.path));

  return { ok: true, model, files, warnings: loaded.warnings, timings };
}

