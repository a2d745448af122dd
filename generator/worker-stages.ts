/**
 * The stages the CLI runs on a worker thread: those that need ts-morph and
 * json-schema-to-typescript (types, registry, event entries), plus docs and AsyncAPI to
 * balance the load. The main thread, which then never loads those libraries, compiles the
 * validators meanwhile (see generate.ts).
 */
import type { CatalogModel } from './model.js';
import type { EmittedFile } from './emit/emitted-file.js';
import { emitAsyncApi } from './emit/asyncapi.js';
import { emitDocs } from './emit/docs.js';
import { emitEventEntries } from './emit/event-entries.js';
import { emitRegistry } from './emit/registry.js';
import { createTsProject } from './emit/ts-project.js';
import { emitTypes } from './emit/typescript.js';

export interface TimedFiles {
  files: EmittedFile[];
  timings: { stage: string; ms: number }[];
}

export async function runWorkerStages(model: CatalogModel): Promise<TimedFiles> {
  const timings: TimedFiles['timings'] = [];
  let start = performance.now();
  const types = await emitTypes(model);
  timings.push({ stage: 'types', ms: performance.now() - start });
  start = performance.now();
  const project = createTsProject();
  const index = [...emitRegistry(model, project), ...emitEventEntries(model, project)];
  timings.push({ stage: 'index', ms: performance.now() - start });
  start = performance.now();
  const docs = emitDocs(model);
  timings.push({ stage: 'docs', ms: performance.now() - start });
  start = performance.now();
  const asyncapi = emitAsyncApi(model);
  timings.push({ stage: 'asyncapi', ms: performance.now() - start });
  return { files: [...types, ...index, ...docs, asyncapi], timings };
}
