/**
 * `generator/cli/run-compiled.mjs`, what `npm run generate` runs: a TypeScript command
 * compiled ahead into `.cache/compiled/`, rebuilt whenever a file it was built from changes.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LAUNCHER = join(ROOT, 'generator/cli/run-compiled.mjs');
const work = mkdtempSync(join(tmpdir(), 'run-compiled-'));
const entry = join(work, 'entry.ts');
const cached = join(ROOT, '.cache/compiled', `entry-${createHash('sha256').update(entry).digest('hex').slice(0, 12)}`);
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  for (const suffix of ['.mjs', '.inputs.json']) rmSync(cached + suffix, { force: true });
});

const run = (file: string, ...args: string[]) => spawnSync(process.execPath, [LAUNCHER, file, ...args], { cwd: ROOT, encoding: 'utf8' });

describe('run-compiled', () => {
  it('runs the command with its arguments, and rebuilds it when a file it imports changes (not otherwise)', { timeout: 60_000 }, () => {
    writeFileSync(entry, "import { word } from './dep.js';\nconst args: string[] = process.argv.slice(2);\nconsole.log([word, ...args].join(' '));\n");
    writeFileSync(join(work, 'dep.ts'), "export const word: string = 'one';\n");
    expect(run(entry, 'a', '--b').stdout).toBe('one a --b\n');

    writeFileSync(join(work, 'dep.ts'), "export const word: string = 'two';\n");
    expect(run(entry, 'a').stdout).toBe('two a\n');

    const built = statSync(`${cached}.mjs`).mtimeMs;
    expect(run(entry).stdout).toBe('two\n');
    expect(statSync(`${cached}.mjs`).mtimeMs, 'nothing changed: the compiled command is reused').toBe(built);
  });

  it('reports an error at its place in the TypeScript source', { timeout: 60_000 }, () => {
    const failing = join(work, 'failing.ts');
    writeFileSync(failing, "const n: number = 1;\n\nthrow new Error(`failed ${n}`);\n");
    const result = run(failing);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('failed 1');
    expect(result.stderr).toContain(`${failing}:3`);
    for (const suffix of ['.mjs', '.inputs.json']) rmSync(join(ROOT, '.cache/compiled', `failing-${createHash('sha256').update(failing).digest('hex').slice(0, 12)}${suffix}`), { force: true });
  });

  it('runs npm run generate: --check passes on the real catalog', { timeout: 120_000 }, () => {
    const result = run(join(ROOT, 'generator/cli/generate.ts'), '--check');
    expect(result.stdout + result.stderr).toMatch(/✔ generated\/ is up to date/);
    expect(result.status).toBe(0);
  });
});
