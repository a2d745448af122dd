/**
 * Runs `runWorkerStages` on a worker thread. The worker runs the same code on the same
 * model, so the output is exactly what the main thread would have produced.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { CatalogModel } from './model.js';
import type { TimedFiles } from './worker-stages.js';

const ROLE = 'generator-worker-stages';

/** Resolves with the worker's files and stage timings; rejects with its error. */
export function runWorkerStagesOnThread(model: CatalogModel): Promise<TimedFiles> {
  return new Promise((resolve, reject) => {
    const [entry, evalOption] = workerEntry();
    const worker = new Worker(entry, { ...evalOption, workerData: { role: ROLE, model } });
    worker.once('message', (message: { ok: true; result: TimedFiles } | { ok: false; error: string }) => {
      if (message.ok) resolve(message.result);
      else reject(new Error(message.error));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`generator worker exited with code ${code}`));
    });
  });
}

/**
 * This very file, as a worker. Run from TypeScript source, the worker must first register
 * tsx's loader itself: Node 20 does not carry `--import` hooks into worker threads.
 */
function workerEntry(): [URL] | [string, { eval: true }] {
  const self = new URL(import.meta.url);
  if (!self.pathname.endsWith('.ts')) return [self];
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(self.href)}); })`;
  return [bootstrap, { eval: true }];
}

if (!isMainThread && (workerData as { role?: string } | undefined)?.role === ROLE) {
  const { model } = workerData as { model: CatalogModel };
  import('./worker-stages.js')
    .then(({ runWorkerStages }) => runWorkerStages(model))
    .then(
      (result) => parentPort!.postMessage({ ok: true, result }),
      (error: unknown) => parentPort!.postMessage({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    );
}
