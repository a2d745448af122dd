/**
 * The README's NATS example, as written: extracted from README.md, type-checked with `tsc`,
 * run against a fresh `nats-server -js`. Only the package's own specifiers are mapped (by
 * tsconfig `paths`) to the sources, so the README cannot drift from the code.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { startNatsServer, type RunningBroker } from './brokers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'nats-readme-'));
let server: RunningBroker | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
}, 30_000);

/** The TypeScript blocks of the README's "#### NATS JetStream" section. */
function natsBlocks(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('#### NATS JetStream');
  const end = readme.indexOf('\n#### ', start + 1);
  const section = readme.slice(start, end);
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks.length).toBeGreaterThan(0);
  return blocks.join('\n');
}

it('the README NATS example type-checks, publishes, handles the event, and exits 0 on SIGTERM', async () => {
  writeFileSync(join(work, 'example.ts'), natsBlocks());
  writeFileSync(join(work, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  writeFileSync(
    join(work, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'],
        paths: { '@data-import/event-catalog': [join(ROOT, 'runtime/index.ts')], '@data-import/event-catalog/nats': [join(ROOT, 'runtime/nats/index.ts')] },
      },
      files: ['example.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', work], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);

  server = await startNatsServer();
  const child = spawn(process.execPath, ['--import', 'tsx', join(work, 'example.ts')], {
    cwd: work,
    env: { ...process.env, NATS_URL: server.url, TSX_TSCONFIG_PATH: join(work, 'tsconfig.json') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 30_000;
  while (!stdout.includes('account created: A-1')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the example did not handle the event: ${stdout}${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const code = await exited;
  clearTimeout(killer);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
}, 90_000);
