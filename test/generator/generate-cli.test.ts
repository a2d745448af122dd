/**
 * `npm run generate` as a maintainer meets it: --check, atomic writes, stale-file removal,
 * and the committed generated/ being exactly a fresh generation of catalog/.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readCatalogDir } from '../../generator/catalog/load-catalog.js';
import { generate } from '../../generator/generate.js';
import { compareGenerated, listFiles, writeGenerated } from '../../generator/write/write-generated.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/generator/fixtures/multiple-versions/catalog');
const work = mkdtempSync(join(tmpdir(), 'generate-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runGenerate(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'generator/cli/generate.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file's bytes under a folder, to prove nothing changed. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((path) => [path, readFileSync(join(dir, path), 'utf8')]));
}

describe('the committed generated/', () => {
  it('equals a fresh in-memory generation of catalog/', async () => {
    const result = await generate(readCatalogDir(join(ROOT, 'catalog')));
    if (!result.ok) throw new Error(result.errors.map((e) => e.message).join('\n'));
    const { stale, missing, extra, diff } = compareGenerated(join(ROOT, 'generated'), result.files);
    expect({ stale, missing, extra }, `generated/ is out of date; run npm run generate\n${diff.slice(0, 4000)}`).toEqual({ stale: [], missing: [], extra: [] });
  }, 120_000);
});

describe('npm run generate on the real catalog', () => {
  it('--check passes: the CLI produces what the in-process generation committed', () => {
    const check = runGenerate('--check');
    // The seed's nine unused shared types are one line, not nine (npm run generate -- --verbose lists them).
    expect(check.stderr.split('\n').filter((line) => line !== '')).toEqual(['warning: 9 shared types used by no event (--verbose lists them)']);
    expect(check.stdout).toMatch(/^✔ generated\/ is up to date: \d+ files from 220 event types, 228 event versions/);
    expect(check.status).toBe(0);
  }, 120_000);
});

describe('npm run generate', () => {
  const out = join(work, 'out');

  it('writes the output, prints a one-line summary with stage timings, and --check then passes', () => {
    const written = runGenerate('--catalog', FIXTURE, '--out', out);
    expect(written.status).toBe(0);
    expect(written.stdout).toMatch(/^✔ wrote .*: \d+ files from 2 event types, 5 event versions, 0 shared types, 0 open events, 0 gaps in \d+ ms \(load \d+ ms, schemas \d+ ms, types \d+ ms, validators \d+ ms, index \d+ ms, docs \d+ ms, asyncapi \d+ ms, write \d+ ms\)\n$/);
    expect(listFiles(out)).toContain('manifest.json');
    const check = runGenerate('--check', '--catalog', FIXTURE, '--out', out);
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('is up to date');
  }, 120_000);

  it('--check writes nothing, exits 1, and names stale, missing and extra files with a diff', () => {
    const before = snapshot(out);
    const manifest = join(out, 'manifest.json');
    writeFileSync(manifest, readFileSync(manifest, 'utf8').replace('"account_number"', '"acount_number"'));
    rmSync(join(out, 'types.ts'));
    writeFileSync(join(out, 'leftover.json'), '{}\n');
    const tampered = snapshot(out);

    const check = runGenerate('--check', '--catalog', FIXTURE, '--out', out);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('stale:   ');
    expect(check.stderr).toMatch(/stale: +.*manifest\.json/);
    expect(check.stderr).toMatch(/missing: +.*types\.ts/);
    expect(check.stderr).toMatch(/extra: +.*leftover\.json/);
    expect(check.stdout).toMatch(/^-\s+"name": "acount_number",$/m);
    expect(check.stdout).toMatch(/^\+\s+"name": "account_number",$/m);
    expect(snapshot(out)).toEqual(tampered);

    // A real run repairs it and removes the file no longer generated.
    expect(runGenerate('--catalog', FIXTURE, '--out', out).status).toBe(0);
    expect(snapshot(out)).toEqual(before);
  }, 120_000);

  it('--check touches nothing a killed run left, and says what it left; the next real run clears it', () => {
    // A side folder of a process that no longer runs (no pid reaches 4,194,400 on Linux).
    const leftover = `${out}.previous-4194400`;
    cpSync(out, leftover, { recursive: true });
    const before = snapshot(out);
    const check = runGenerate('--check', '--catalog', FIXTURE, '--out', out);
    expect(check.status).toBe(0);
    expect(check.stderr).toContain(`a killed run left ${basename(leftover)}; not touched (--check writes nothing)`);
    expect(existsSync(leftover)).toBe(true);
    expect(snapshot(out)).toEqual(before);

    const run = runGenerate('--catalog', FIXTURE, '--out', out);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`removed what killed runs left: ${basename(leftover)}`);
    expect(existsSync(leftover)).toBe(false);
  }, 120_000);

  it('leaves the output byte-identical when the catalog has errors, and reports them positioned', () => {
    const before = snapshot(out);
    const broken = join(work, 'broken');
    cpSync(FIXTURE, broken, { recursive: true });
    const file = join(broken, '01-versions.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('document_id: integer', 'document_id: intger'));
    const run = runGenerate('--catalog', broken, '--out', out);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/01-versions\.yaml:7:22 unknown type "intger" for field "document_id" \(did you mean "integer"\?\)/);
    expect(run.stderr).toContain('left unchanged');
    expect(snapshot(out)).toEqual(before);
  }, 120_000);

  it('removes files of events deleted from the catalog', () => {
    const smaller = join(work, 'smaller');
    cpSync(FIXTURE, smaller, { recursive: true });
    const file = join(smaller, '01-versions.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/  agreement\.revoked:[\s\S]*$/, ''));
    const target = join(work, 'smaller-out');
    cpSync(out, target, { recursive: true });
    expect(runGenerate('--catalog', smaller, '--out', target).status).toBe(0);
    expect(listFiles(target).filter((p) => p.includes('agreement.revoked'))).toEqual([]);
    expect(listFiles(out).filter((p) => p.includes('agreement.revoked')).length).toBeGreaterThan(0);
  }, 120_000);

  it('exits 2 with usage for an unknown option or a missing catalog folder', () => {
    expect(runGenerate('--chek').status).toBe(2);
    const missing = runGenerate('--catalog', join(work, 'nope'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('catalog folder not found');
  }, 120_000);
});

describe('writeGenerated', () => {
  it('puts the old folder back untouched when writing fails part-way', async () => {
    const target = join(work, 'atomic');
    await writeGenerated(target, [{ path: 'a.txt', contents: 'old\n' }, { path: 'nested/b.txt', contents: 'old b\n' }]);
    const before = snapshot(target);
    // A NUL byte in a path makes the file system refuse it after the first file is written.
    await expect(writeGenerated(target, [{ path: 'a.txt', contents: 'new\n' }, { path: 'bad\0name', contents: 'x' }])).rejects.toThrow();
    expect(snapshot(target)).toEqual(before);
    expect(listFiles(work).filter((p) => /\.(staging|writing|ready|previous|discarded)-\d+\//.test(p))).toEqual([]);
  });

  it('keeps a file whose text did not change (the same file, linked into the new folder) and writes changed ones anew', async () => {
    const target = join(work, 'unchanged');
    await writeGenerated(target, [{ path: 'same.txt', contents: 'same\n' }, { path: 'nested/changed.txt', contents: 'old\n' }, { path: 'nested/edited.txt', contents: 'generated\n' }]);
    writeFileSync(join(target, 'nested/edited.txt'), 'edited by hand\n');
    const inode = (path: string) => statSync(join(target, path)).ino;
    const before = { same: inode('same.txt'), changed: inode('nested/changed.txt'), edited: inode('nested/edited.txt') };

    await writeGenerated(target, [{ path: 'same.txt', contents: 'same\n' }, { path: 'nested/changed.txt', contents: 'new\n' }, { path: 'nested/edited.txt', contents: 'generated\n' }]);
    expect(snapshot(target)).toEqual({ 'same.txt': 'same\n', 'nested/changed.txt': 'new\n', 'nested/edited.txt': 'generated\n' });
    expect(inode('same.txt')).toBe(before.same);
    expect(inode('nested/changed.txt')).not.toBe(before.changed);
    expect(inode('nested/edited.txt')).not.toBe(before.edited);
    // Only the output folder holds it now: the old folder went, and with it the second link.
    expect(statSync(join(target, 'same.txt')).nlink).toBe(1);
  });
});
