/**
 * Three worker processes (`worker.ts`) consuming one broker, started and waited on until each
 * says it is ready; `cleanups` gets what kills them should the test end early.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

export interface Worker {
  name: string;
  child: ChildProcess;
  /** The ids it handled, a line each (`<id> <deliveries>`). */
  log: string;
  /** Its counts, written when it stops. */
  summary: string;
  exited: Promise<number | null>;
}

/**
 * `url` is one server, or several comma-separated (a cluster). With `firstKillsItselfAfter`, w0
 * SIGKILLs itself right after handling that many messages: mid-batch, wherever the stream is.
 */
export async function startWorkers(broker: 'nats' | 'redis', url: string, dir: string, cleanups: (() => Promise<unknown>)[], firstKillsItselfAfter?: number): Promise<Worker[]> {
  const workers = ['w0', 'w1', 'w2'].map((name, i): Worker => {
    const log = join(dir, `${name}.log`);
    const summary = join(dir, `${name}.json`);
    const killAfter = i === 0 ? firstKillsItselfAfter : undefined;
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify({ broker, url, name, log, summary, killAfter })], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { name, child, log, summary, exited };
  });
  cleanups.push(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
  });
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve());
          void w.exited.then((code) => reject(new Error(`worker ${w.name} exited with ${code} before it was ready`)));
        }),
    ),
  );
  return workers;
}
