/**
 * The site builder reads only what the package publishes, and refuses, saying what to run,
 * when it cannot: a built package from another generation, no built package, a manifest not
 * of the published shape. A refused build leaves the previous site as it was.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PublishedFileError, readPackage } from '../../site-builder/read-package.js';
import { SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'site-read-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A repository-like folder with the published files and a `dist/` holding only `registry.cjs`. */
function fakeRoot(name: string, options: { registry?: string; manifest?: unknown } = {}): string {
  const root = join(work, name);
  mkdirSync(join(root, 'generated', 'docs'), { recursive: true });
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (const file of ['openapi.yaml', 'registry.cjs', 'docs/pages.json']) cpSync(join(ROOT, 'generated', file), join(root, 'generated', file));
  writeFileSync(join(root, 'generated', 'manifest.json'), options.manifest === undefined ? readFileSync(join(ROOT, 'generated', 'manifest.json')) : JSON.stringify(options.manifest));
  if (options.registry !== undefined) writeFileSync(join(root, 'dist', 'registry.cjs'), options.registry);
  return root;
}

describe('readPackage', () => {
  it('refuses a dist/ built from another generation, saying to build', () => {
    expect(() => readPackage(fakeRoot('stale', { registry: '// another generation\n' }))).toThrow(
      new PublishedFileError('dist/ was built from another generation than generated/ (its registry.cjs differs): run npm run build (the site bundles the built package\'s validators from dist/)'),
    );
  });

  it('refuses a missing dist/, saying to build', () => {
    expect(() => readPackage(fakeRoot('unbuilt'))).toThrow(/^registry\.cjs not found: run npm run build/);
  });

  it('names the place in the manifest that is not of the published shape', () => {
    const manifest = { events: [{ type: 'a', version: 'v1', name: 'a-v1', tsName: 'A', schema: 's', payloadSchema: 'p', section: 'S', sources: [], fields: [{ name: 'x', type: 'string', optional: 'no' }] }], sharedTypes: [], gaps: [] };
    expect(() => readPackage(fakeRoot('shape', { manifest }))).toThrow('generated/manifest.json/events/0/fields/0/optional: expected a boolean');
  });

  it('npm run site exits 1 saying why, and leaves the previous site as it was', () => {
    const out = join(work, 'site');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'index.html'), 'the previous site');
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'site-builder/cli.ts', '--out', out, '--dist', join(work, 'no-such-dist')], { cwd: ROOT, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^✘ site: registry\.cjs not found: run npm run build .*; .* left unchanged\n$/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('the previous site');
  }, SPAWNS);
});
