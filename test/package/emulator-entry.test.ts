/**
 * The emulator as users get it: built, packed, installed from the tarball without the
 * optional broker clients. `npx event-catalog emulate` serves and stops cleanly; the
 * `./emulator` entry loads from ESM and CommonJS and has no type resolution problems; the
 * package root never loads it; `--nats` without the client says what to install.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { packedTarball } from '../support/packed-package.js';
import { BUILDS, SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = '@data-import/event-catalog';
const work = mkdtempSync(join(tmpdir(), 'emulator-consumer-'));
const consumer = join(work, 'consumer');
let tarballPath = '';
const write = (file: string, text: string) => writeFileSync(join(consumer, file), text);
const node = (file: string) => spawnSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8', timeout: 30_000 });

beforeAll(() => {
  tarballPath = packedTarball();
  mkdirSync(consumer, { recursive: true });
  write('package.json', JSON.stringify({ name: 'emulator-consumer', private: true, version: '1.0.0' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=peer', tarballPath], { cwd: consumer, stdio: 'pipe' });
}, BUILDS);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Starts the installed command (through `npx`, or its bin itself); resolves once it prints where it listens. */
function startInstalled(command: string, args: string[]) {
  // A group of its own: `npx` does not pass SIGTERM on to the command it runs, so the test stops the group.
  const child = spawn(command, args, { cwd: consumer, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const found = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout)?.[1];
      if (found) resolve(found);
    });
    void exited.then(({ code }) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  return { child, url, exited };
}

it(
  'npx event-catalog emulate prints listening on http://…, and serves there without any broker client',
  async () => {
    const running = startInstalled('npx', ['--no-install', 'event-catalog', 'emulate', '--port', '0', '--seed', '9', '--clock', '2024-05-01T09:00:00Z']);
    try {
      const url = await running.url;
      const headers = { authorization: 'Token t', 'content-type': 'application/json' };
      const staged = await fetch(`${url}/v1/data-import/account-import-process/create-or-update/`, { method: 'POST', headers, body: JSON.stringify({ import_supplier: 'S', external_account_number: 'A' }) });
      expect([staged.status, await staged.json()]).toEqual([201, { import_supplier: 'S', external_account_number: 'A' }]);
      const processed = await fetch(`${url}/v1/data-import/account-import-process/process/`, { method: 'POST', headers, body: JSON.stringify({ import_supplier_code: 'S', external_account_number: 'A', operations_team_name: 'T' }) });
      expect(processed.status).toBe(201);
      const events = (await (await fetch(`${url}/_emulator/events`)).json()) as { event: { type: string } }[];
      expect(events.map((e) => e.event.type)).toEqual(['data_import.import_process.complete']);
    } finally {
      process.kill(-running.child.pid!, 'SIGTERM');
      await running.exited;
    }
  },
  SPAWNS,
);

it(
  'the installed bin exits 0 on SIGTERM, having said nothing on stderr',
  async () => {
    const running = startInstalled(join(consumer, 'node_modules/.bin/event-catalog'), ['emulate', '--port', '0']);
    await running.url;
    running.child.kill('SIGTERM');
    expect(await running.exited).toEqual({ code: 0, stderr: '' });
  },
  SPAWNS,
);

it('the entry loads from ESM and CommonJS, and the root never loads it', () => {
  const script = (load: string) => `${load}
const emulator = await startEmulator({ port: 0 });
const response = await fetch(emulator.url + '/v1/data-import/all-account-import-processes/S/', { headers: { authorization: 'Token t' } });
await emulator.close();
console.log(JSON.stringify([response.status, await response.json()]));`;
  write('esm.mjs', script(`const { startEmulator } = await import('${PACKAGE}/emulator');`));
  write('cjs.cjs', `(async () => {${script(`const { startEmulator } = require('${PACKAGE}/emulator');`)}\n})();`);
  for (const file of ['esm.mjs', 'cjs.cjs']) {
    const result = node(file);
    expect([file, result.stderr]).toEqual([file, '']);
    expect(JSON.parse(result.stdout)).toEqual([200, []]);
  }
  write('root.cjs', `require('${PACKAGE}'); console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('/dist/emulator'))));`);
  expect(JSON.parse(node('root.cjs').stdout)).toEqual([]);
});

it(
  'the entry has no type resolution problems (are the types wrong?)',
  () => {
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarballPath, '--entrypoints', './emulator', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
    const report = JSON.parse(result.stdout) as { problems?: unknown[]; analysis?: { problems?: unknown[] } };
    expect(report.analysis?.problems ?? report.problems).toEqual([]);
    expect(result.status).toBe(0);
  },
  SPAWNS,
);

it(
  'emulate --nats without the NATS client installed exits 2 naming what to install',
  () => {
    const result = spawnSync('npx', ['--no-install', 'event-catalog', 'emulate', '--port', '0', '--nats', 'nats://127.0.0.1:1'], { cwd: consumer, encoding: 'utf8', timeout: 30_000 });
    expect([result.status, result.stderr]).toEqual([2, '✘ the broker client is not installed: npm install @nats-io/jetstream @nats-io/transport-node\n']);
  },
  SPAWNS,
);
