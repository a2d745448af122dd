/**
 * A baseline manifest the check could misread: a format it does not know, or a value of the
 * wrong kind that would be taken as "absent" (`nullable: "sometimes"` read as not nullable).
 * `npm run compat` refuses it with exit 2 and says where, instead of comparing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BaselineError, DEFAULT_BASELINE, readBaselineFile } from '../../generator/compat/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'hostile-manifest-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Manifest = { formatVersion?: unknown; events: { open?: unknown; fields: Record<string, unknown>[] }[]; sharedTypes: { usedBy?: unknown[] }[] };
const baseline = (): Manifest => JSON.parse(readFileSync(join(ROOT, DEFAULT_BASELINE), 'utf8')) as Manifest;

function written(name: string, edit: (m: Manifest) => void): string {
  const manifest = baseline();
  edit(manifest);
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify(manifest));
  return path;
}

describe('a baseline manifest', () => {
  it.each<[string, (m: Manifest) => void, RegExp]>([
    ['an unknown format version', (m) => (m.formatVersion = 2), /its format version is 2, and this version of the tool reads format 1 only/],
    ['a format version that is not a number', (m) => (m.formatVersion = '1'), /its format version is "1"/],
    ['nullable: "sometimes"', (m) => (m.events[0]!.fields[0]!.nullable = 'sometimes'), /\/events\/0\/fields\/0\/nullable: must be boolean, not "sometimes"/],
    ['open: "yes"', (m) => (m.events[1]!.open = 'yes'), /\/events\/1\/open: must be boolean, not "yes"/],
    ['a shared type used by a number', (m) => (m.sharedTypes[0]!.usedBy = [7]), /\/sharedTypes\/0\/usedBy\/0: must be string, not 7/],
    ['a field without a type', (m) => delete m.events[2]!.fields[0]!.type, /\/events\/2\/fields\/0\/type: missing/],
  ])('is refused, with where, for %s', (_, edit, message) => {
    const path = written('refused', edit);
    expect(() => readBaselineFile(path)).toThrow(BaselineError);
    expect(() => readBaselineFile(path)).toThrow(message);
  });

  it('lists at most five problems, then how many more', () => {
    const path = written('many', (m) => m.events.slice(0, 8).forEach((e) => (e.open = 'yes')));
    expect(() => readBaselineFile(path)).toThrow(/(\/events\/\d\/open: must be boolean, not "yes"; ){4}\/events\/4\/open: must be boolean, not "yes"; and 3 more$/);
  });

  it.each<[string, (m: Manifest) => void]>([
    ['the committed baseline', () => undefined],
    ['format version 1, said', (m) => (m.formatVersion = 1)],
    ['keys of its own (a tool may add them)', (m) => Object.assign(m, { 'x-note': 'hi' })],
  ])('is read: %s', (_, edit) => {
    expect(readBaselineFile(written('read', edit)).snapshot.events.length).toBeGreaterThan(200);
  });
});

describe('npm run compat', () => {
  it.each([
    ['an unknown format version', (m: Manifest) => (m.formatVersion = 99), 'its format version is 99'],
    ['nullable: "sometimes"', (m: Manifest) => (m.events[0]!.fields[0]!.nullable = 'sometimes'), 'nullable: must be boolean, not "sometimes"'],
  ])('exits 2 against a manifest with %s, saying why', { timeout: 90_000 }, (name, edit, message) => {
    const against = written(name.replace(/\W+/g, '-'), edit);
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'generator/cli/compat.ts'), '--against', against], { cwd: ROOT, encoding: 'utf8' });
    expect(run.stderr).toContain(`✘ ${against} is not a catalog manifest: `);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
    expect(run.status).toBe(2);
  });
});
