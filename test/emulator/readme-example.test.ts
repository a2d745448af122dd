/**
 * README.md's "Run the service locally", as written: its command started (from the sources,
 * on a free port instead of 4010), then each `$ ` line of its console block run with `sh`
 * and its output compared with the lines the README shows under it.
 */
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

function section(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n### Run the service locally');
  expect(start, 'the README has the section').toBeGreaterThan(-1);
  return readme.slice(start, readme.indexOf('\n### ', start + 1));
}

/** `$ command` lines (joined over trailing backslashes) and the output the README shows for each. */
function exchange(console: string): { command: string; output: string }[] {
  const steps: { command: string; output: string[] }[] = [];
  const lines = console.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.startsWith('$ ')) {
      let command = lines[i]!.slice(2);
      while (command.endsWith('\\')) command = `${command.slice(0, -1)} ${lines[++i]!.trim()}`;
      steps.push({ command, output: [] });
    } else if (lines[i] !== '') steps.at(-1)!.output.push(lines[i]!);
  }
  return steps.map((s) => ({ command: s.command, output: s.output.join('\n') }));
}

it(
  'the README’s emulate command serves the curl exchange it shows, and the event it shows',
  async () => {
    const text = section();
    const command = /```sh\n(npx event-catalog emulate [^\n]*)\n```/.exec(text)?.[1];
    expect(command, 'the command').toBeDefined();
    const args = command!.replace('npx event-catalog emulate', '').trim().split(/\s+/);
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'runtime/cli/main.ts'), 'emulate', ...args, '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const found = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out)?.[1];
          if (found) resolve(found);
        });
        void exited.then((code) => reject(new Error(`emulate exited ${code}`)));
      });
      expect(text).toContain('It prints `listening on http://127.0.0.1:4010`');
      const steps = exchange(/```console\n([\s\S]*?)```/.exec(text)![1]!);
      expect(steps.map((s) => s.command.split(' ').slice(0, 2).join(' '))).toEqual(['curl -s', 'curl -s', 'curl -s']);
      for (const step of steps) {
        const { stdout } = await run('sh', ['-c', step.command.replaceAll('http://127.0.0.1:4010', url)]);
        expect(stdout.trimEnd(), step.command).toBe(step.output);
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  },
  SPAWNS,
);
