/** `npm run catalog:check` as a maintainer meets it: help, a missing folder, warnings kept short. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function catalogCheck(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'generator/cli/check-catalog.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run catalog:check', () => {
  it('--help prints the usage and exits 0', () => {
    const run = catalogCheck('--help');
    expect(run.stdout).toBe('usage: npm run catalog:check [-- <catalog-dir>] [--verbose]\n');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  }, 60_000);

  it('names a missing catalog folder and exits 2 (no raw ENOENT)', () => {
    const run = catalogCheck('no-such-folder');
    expect(run.stderr).toBe('✘ catalog folder not found: no-such-folder\nusage: npm run catalog:check [-- <catalog-dir>] [--verbose]\n');
    expect(run.status).toBe(2);
  }, 60_000);

  it('says which option is unknown, shows the usage and exits 2', () => {
    const run = catalogCheck('--strcit');
    expect(run.stderr).toBe('✘ unknown option --strcit\nusage: npm run catalog:check [-- <catalog-dir>] [--verbose]\n');
    expect(run.status).toBe(2);
  }, 60_000);

  it('sums up the seed\'s unused shared types in one line; --verbose lists each with its position', () => {
    const run = catalogCheck();
    expect(run.stderr).toBe('warning: 9 shared types used by no event (--verbose lists them)\n');
    expect(run.stdout).toMatch(/^✔ catalog: 220 event types, 228 event versions, 42 shared types, 3 open events, 7 gaps \(9 warning\(s\)\)\n$/);
    expect(run.status).toBe(0);
    const verbose = catalogCheck('--verbose').stderr.trim().split('\n');
    expect(verbose).toHaveLength(9);
    for (const line of verbose) expect(line).toMatch(/^catalog\/[^:]+\.yaml:\d+:\d+ warning: shared type "[^"]+" is used by no event$/);
  }, 60_000);
});
