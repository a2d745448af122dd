/**
 * The README as a new user meets it: a project made by the README's own commands
 * (`npm init -y && npm pkg set type=module`), the packed package installed from its tarball
 * beside the packages the examples name, and every TypeScript example of the README taken as
 * it stands — nothing declared around it — type-checked with TypeScript 5.9 and 7, and run
 * with `tsx`: those that talk to a broker or to the REST service against a real one started
 * here (nats-server, redis-server, the package's own emulator).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, startRedisServer, type RunningBroker } from '../../scripts/local-brokers.js';
import { packedTarball } from '../support/packed-package.js';
import { BUILDS, SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'readme-'));
const project = join(work, 'project');
const servers: RunningBroker[] = [];

/** A TypeScript block of the README: its file name (`// tracing.ts` on its first line names it) and text. */
interface Example {
  file: string;
  text: string;
}

function readmeExamples(): Example[] {
  const blocks = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  return blocks.map((text, i) => ({ file: /^\/\/ ([\w-]+\.ts)\n/.exec(text)?.[1] ?? `example-${i + 1}.ts`, text }));
}
const examples = readmeExamples();
const exampleUsing = (marker: string): Example => {
  const found = examples.filter((example) => example.text.includes(marker));
  expect(found, marker).toHaveLength(1);
  return found[0]!;
};

const installedVersion = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(() => {
  const tarball = packedTarball();

  // The README's commands, as a new user types them.
  mkdirSync(project);
  execFileSync('npm', ['init', '-y'], { cwd: project, stdio: 'pipe' });
  execFileSync('npm', ['pkg', 'set', 'type=module'], { cwd: project, stdio: 'pipe' });
  // The package, and the packages the examples name beside it, at the versions this repository tests with.
  const beside = ['@nats-io/jetstream', '@nats-io/transport-node', 'ioredis', '@opentelemetry/api', '@opentelemetry/sdk-node'].map((name) => `${name}@${installedVersion(name)}`);
  const tools = ['typescript', 'tsx', '@types/node'].map((name) => `${name}@${installedVersion(name)}`);
  const npmInstall = (args: string[]) => {
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...args], { cwd: project, encoding: 'utf8' });
    if (install.status !== 0) throw new Error(`npm install ${args.join(' ')} failed:\n${install.stderr}`);
  };
  npmInstall([tarball, ...beside]);
  npmInstall(['--save-dev', ...tools]);
  for (const { file, text } of examples) writeFileSync(join(project, file), text);
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true, types: ['node'] }, files: examples.map((e) => e.file) }),
  );
}, BUILDS);

afterAll(async () => {
  for (const server of servers) await server.stop();
  rmSync(work, { recursive: true, force: true });
}, 30_000);

it('has TypeScript examples, each its own file', () => {
  expect(examples.length).toBeGreaterThanOrEqual(10);
  expect(new Set(examples.map((e) => e.file)).size).toBe(examples.length);
});

it.each([
  ['typescript 5.9', () => join(project, 'node_modules/typescript/bin/tsc')],
  ['typescript 7', () => join(ROOT, 'node_modules/typescript-7/bin/tsc')],
])('every example type-checks as it stands, with %s', (_name, compiler) => {
  const result = spawnSync(process.execPath, [compiler(), '-p', project], { cwd: project, encoding: 'utf8' });
  expect(result.stdout + result.stderr).toBe('');
  expect(result.status).toBe(0);
}, SPAWNS);

/** Runs an example with tsx, as the README says; `until` in its output, then SIGTERM (or its own exit). */
async function runExample(file: string, env: Record<string, string> = {}, options: { until?: string; preload?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const args = [join(project, 'node_modules/tsx/dist/cli.mjs'), ...(options.preload ? ['--import', `./${options.preload}`] : []), file];
  const child = spawn(process.execPath, args, { cwd: project, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  if (options.until !== undefined) {
    while (!stdout.includes(options.until) && child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGTERM');
  }
  const code = await exited;
  clearTimeout(killer);
  return { code, stdout, stderr, ms: performance.now() - started };
}

describe('the examples run', () => {
  const standalone = () => examples.filter((e) => !/\/nats'|\/redis-streams'|DATA_IMPORT_URL|sdk-node/.test(e.text));

  it('every example that needs no server runs to its end, exit 0, with no warning or stack trace', async () => {
    expect(standalone().length).toBeGreaterThanOrEqual(6);
    for (const { file } of standalone()) {
      const { code, stderr } = await runExample(file);
      // An example may print its own refusals with console.error (the decode example does): those are its output.
      expect({ file, code, trouble: /warning|\n\s+at \S/i.test(stderr) ? stderr : '' }).toEqual({ file, code: 0, trouble: '' });
    }
  }, BUILDS);

  it('the REST client example runs against the emulator the package installs (npx event-catalog emulate)', async () => {
    const emulator = spawn(join(project, 'node_modules/.bin/event-catalog'), ['emulate', '--port', '0'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      emulator.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      while (!/listening on (http:\/\/\S+)/.test(out) && emulator.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
      const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
      const { code, stdout, stderr } = await runExample(exampleUsing('DATA_IMPORT_URL').file, { DATA_IMPORT_URL: url });
      expect(code).toBe(0);
      // Nothing staged in a fresh emulator: the note is refused with the seed's 404, which the example reports on stderr.
      expect(stderr).toBe('the account is not imported yet\n');
      expect(stdout).toBe('');
    } finally {
      emulator.kill('SIGTERM');
    }
  }, SPAWNS);

  it.each([
    ['NATS', '/nats\'', 'NATS_URL', startNatsServer],
    ['Redis', '/redis-streams\'', 'REDIS_URL', startRedisServer],
  ] as const)('the %s example publishes, handles the event, and exits 0 on SIGTERM', async (_name, marker, variable, start) => {
    const server = await start();
    servers.push(server);
    const { code, stderr } = await runExample(exampleUsing(marker).file, { [variable]: server.url }, { until: 'account created: A-1' });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  }, SPAWNS);

  it('the Redis example, with no Redis to reach, fails within seconds in one line', async () => {
    const { code, stderr, ms } = await runExample(exampleUsing('/redis-streams\'').file, { REDIS_URL: 'redis://127.0.0.1:1' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^✘ cannot reach Redis at redis:\/\/127\.0\.0\.1:1: .*ECONNREFUSED.*\n$/);
    expect(ms).toBeLessThan(10_000);
  }, SPAWNS);

  it('the tracing setup, loaded before the NATS example, prints its send and process spans in one trace and exits 0', async () => {
    const server = await startNatsServer();
    servers.push(server);
    const { code, stdout, stderr } = await runExample(exampleUsing('/nats\'').file, { NATS_URL: server.url }, { until: 'account created: A-1', preload: exampleUsing('sdk-node').file });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    // The console exporter prints each span as an object literal: its trace id, then its name.
    const spans = [...stdout.matchAll(/traceId: '([0-9a-f]{32})'[\s\S]*?name: '([^']+)'/g)].map((m) => ({ traceId: m[1], name: m[2] }));
    const send = spans.find((span) => span.name === 'send events.account.created.v1');
    expect(send, stdout).toBeDefined();
    expect(spans.find((span) => span.name === 'process events.account.created.v1')?.traceId).toBe(send!.traceId);
  }, SPAWNS);
});
