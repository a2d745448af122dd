/**
 * The bench worker: `node --expose-gc worker.mjs <job.json> <result.json>`. The harness bundles
 * this file with esbuild and runs it with plain `node` (no loader hooks), so each in-process
 * group runs in a fresh process that has loaded nothing but the package under test, the peers
 * and mitata. (The bus group runs processes of its own: `bus-run.ts`.)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { measureErrorPath, type ErrorPathJob } from './error-path.js';
import { measureThroughput, type ThroughputJob } from './throughput.js';

export type WorkerJob = ThroughputJob | ErrorPathJob;

async function main(): Promise<void> {
  const [jobFile, resultFile] = process.argv.slice(2);
  if (!jobFile || !resultFile) throw new Error('usage: worker <job.json> <result.json>');
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as WorkerJob;
  const result = job.group === 'throughput' ? await measureThroughput(job) : await measureErrorPath(job);
  writeFileSync(resultFile, JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
