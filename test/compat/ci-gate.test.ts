/**
 * The CI gate: `npm test` fails when the catalog breaks consumers of the committed baseline
 * (`catalog/baseline/manifest.json`, updated on purpose when a release is cut).
 *
 * `COMPAT_GATE_CATALOG` points the gate at another catalog folder; `breaking-edit.test.ts`
 * uses it to prove that a breaking edit makes this test, and so the test command, fail.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkCompatibility, DEFAULT_BASELINE, formatReport, readBaselineFile } from '../../generator/compat/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CATALOG = process.env.COMPAT_GATE_CATALOG ?? 'catalog';

describe('the catalog against the committed baseline', () => {
  it('has no breaking change (if this fails: add a new event version instead of editing a published one)', () => {
    const result = checkCompatibility({ catalog: CATALOG, cwd: ROOT });
    if (!result.ok) throw new Error(result.error);
    const breaking = result.report.changes.filter((c) => c.severity === 'breaking').map((c) => `${c.event ?? c.sharedType}: ${c.message}`);
    expect(breaking, formatReport(result.report, { catalog: `${CATALOG}/` })).toEqual([]);
  });
});

describe('the committed baseline', () => {
  it('is a catalog manifest, and says how it is updated', () => {
    const text = readFileSync(join(ROOT, DEFAULT_BASELINE), 'utf8');
    expect(JSON.parse(text).$comment).toMatch(/^Compatibility baseline: .*npm run compat -- --update-baseline/);
    const { snapshot } = readBaselineFile(DEFAULT_BASELINE, ROOT);
    expect(snapshot.events.length).toBeGreaterThan(200);
    expect(snapshot.sharedTypes.length).toBeGreaterThan(0);
  });

  it('is not part of the catalog the generator reads', () => {
    expect(readFileSync(join(ROOT, 'catalog/baseline/README.md'), 'utf8')).toContain('--update-baseline');
  });
});
