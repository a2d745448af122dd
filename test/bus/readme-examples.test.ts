/**
 * The README's broker examples, as written: each section's TypeScript extracted from
 * README.md, type-checked with `tsc`, run against a fresh broker, stopped with SIGTERM. Only
 * the package's own specifiers are mapped (by tsconfig `paths`) to the sources, so the README
 * cannot drift from the code.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { startNatsServer, startRedisServer, type RunningBroker } from './brokers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'readme-examples-'));
const servers: RunningBroker[] = [];
afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(work, { recursive: true, force: true });
}, 30_000);

/** The TypeScript blocks of one README section (from its heading to the next heading of level 2 to 4). */
function sectionBlocks(heading: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(heading);
  expect(start, heading).toBeGreaterThan(-1);
  const next = /\n#{2,4} /g;
  next.lastIndex = start + heading.length;
  const end = next.exec(readme)?.index ?? readme.length;
  const blocks = [...readme.slice(start, end).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  expect(blocks.length).toBeGreaterThan(0);
  return blocks.join('\n');
}

const examples = [
  { name: 'NATS', heading: '#### NATS JetStream', entry: 'nats', start: startNatsServer, urlVariable: 'NATS_URL' },
  { name: 'Redis', heading: '#### Redis Streams', entry: 'redis-streams', start: startRedisServer, urlVariable: 'REDIS_URL' },
] as const;

/** Writes one example project: `example.ts` from a README section, its package.json and tsconfig, type-checked. */
function exampleProject(name: string, entry: string, files: Record<string, string>): string {
  const dir = join(work, name);
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'],
        paths: { '@data-import/event-catalog': [join(ROOT, 'runtime/index.ts')], [`@data-import/event-catalog/${entry}`]: [join(ROOT, `runtime/${entry}/index.ts`)] },
      },
      files: Object.keys(files),
    }),
  );
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
  return dir;
}

/** Runs the example until it has handled the event, then sends SIGTERM: its exit code and output. */
async function runUntilHandled(dir: string, env: Record<string, string>, preload: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload.flatMap((file) => ['--import', `./${file}`]), join(dir, 'example.ts')], {
    cwd: dir,
    env: { ...process.env, ...env, TSX_TSCONFIG_PATH: join(dir, 'tsconfig.json') },
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
  return { code, stdout, stderr };
}

it.each(examples)('the README $name example type-checks, publishes, handles the event, and exits 0 on SIGTERM', async ({ name, heading, entry, start, urlVariable }) => {
  const dir = exampleProject(name, entry, { 'example.ts': sectionBlocks(heading) });
  const server = await start();
  servers.push(server);
  const { code, stderr } = await runUntilHandled(dir, { [urlVariable]: server.url });
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
}, 90_000);

it('the README tracing setup, loaded before the NATS example, prints its send and process spans in one trace and exits 0', async () => {
  const dir = exampleProject('tracing', 'nats', { 'example.ts': sectionBlocks('#### NATS JetStream'), 'tracing.ts': sectionBlocks('### Operators in production: traces and metrics') });
  const server = await startNatsServer();
  servers.push(server);
  const { code, stdout, stderr } = await runUntilHandled(dir, { NATS_URL: server.url }, ['tracing.ts']);
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  // The console exporter prints each span as an object literal: its trace id, name and kind.
  const spans = [...stdout.matchAll(/traceId: '([0-9a-f]{32})'[\s\S]*?name: '([^']+)'/g)].map((m) => ({ traceId: m[1], name: m[2] }));
  const send = spans.find((span) => span.name === 'send events.account.created.v1');
  const processed = spans.find((span) => span.name === 'process events.account.created.v1');
  expect(send, stdout).toBeDefined();
  expect(processed?.traceId).toBe(send!.traceId);
}, 90_000);
