/**
 * `event-catalog emulate` as a process: it prints `listening on http://HOST:PORT` once it
 * serves, answers there, and exits 0 on SIGTERM or SIGINT; usage errors exit 2, a start that
 * fails (the port taken) exits 1, each saying why.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { spawnBin } from '../cli/spawn-bin.js';
import { SPAWNS } from '../support/timeouts.js';
import { call, paths } from './http.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'emulate-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts `emulate` with `args`; resolves once it prints where it listens. */
function startCommand(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'runtime/cli/main.ts'), 'emulate', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const url = /^listening on (http:\/\/\S+)\n/.exec(stdout)?.[1];
      if (url) resolve(url);
    });
    void exited.then((code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
  return { child, listening, exited, output: () => ({ stdout, stderr }) };
}

it.each(['SIGTERM', 'SIGINT'] as const)(
  'prints one line, listening on http://HOST:PORT, serves there, and exits 0 on %s',
  async (signal) => {
    const running = startCommand(['--port', '0', '--seed', '3', '--clock', '2024-06-01T12:00:00Z', '--token', 'T']);
    const url = await running.listening;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await call(url, 'POST', paths.stageAccount, { authorization: 'Token T', body: { import_supplier: 'S', external_account_number: 'A' } })).status).toBe(201);
    expect((await call(url, 'GET', paths.listAllAccountImportProcesses('S'), { authorization: 'Token other' })).status).toBe(401);
    running.child.kill(signal);
    expect(await running.exited).toBe(0);
    expect(running.output()).toEqual({ stdout: `listening on ${url}\n`, stderr: '' });
  },
  SPAWNS,
);

it(
  'usage errors exit 2 naming the option; --help exits 0',
  async () => {
    const cases: [string[], RegExp][] = [
      [['--port', 'eighty'], /^✘ --port takes a whole number, got "eighty"\n/],
      [['--port', '70000'], /^✘ port must be from 0 to 65535, got 70000\n/],
      [['--clock', '2024-06-01'], /^✘ clock must be a datetime YYYY-MM-DDTHH:MM:SSZ, got "2024-06-01"\n/],
      [['--redis', 'redis://127.0.0.1:1'], /^✘ redis needs stream, the key to add events to\n/],
      [['--colour', 'red'], /^✘ Unknown option '--colour'/],
    ];
    for (const [args, message] of cases) {
      const result = await spawnBin(['emulate', ...args]);
      expect([args, result.code], result.stderr).toEqual([args, 2]);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain('usage: event-catalog emulate [options]');
    }
    const help = await spawnBin(['emulate', '--help']);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('--concurrency-limit N')]);
  },
  SPAWNS,
);

it(
  'a suppliers file with mistakes exits 2 listing each; a port already taken exits 1',
  async () => {
    const file = join(dir, 'suppliers.yaml');
    writeFileSync(file, 'SUP:\n  status: Sleeping\n');
    const refused = await spawnBin(['emulate', '--port', '0', '--suppliers', file]);
    expect([refused.code, refused.stderr]).toEqual([2, `✘ the suppliers file is not usable:\n  ${file}:2:3 supplier "SUP": status must be one of Ongoing, Paused, Complete, not "Sleeping"\n`]);

    const first = startCommand(['--port', '0']);
    const port = new URL(await first.listening).port;
    try {
      const second = await spawnBin(['emulate', '--port', port]);
      expect([second.code, second.stderr]).toEqual([1, expect.stringMatching(/^✘ the emulator could not start: listen EADDRINUSE/)]);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  },
  SPAWNS,
);
