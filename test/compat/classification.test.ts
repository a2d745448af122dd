/**
 * One fixture per change class: `fixtures/base/before.yaml` is the baseline catalog, each
 * `fixtures/<case>/after.yaml` an edit of it, and `expected.json` every change the check must
 * report, with its class. The baseline side goes through a manifest, as in real use.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../generator/catalog/load-catalog.js';
import {
  compareSnapshots,
  formatReport,
  KINDS,
  nextVersion,
  RULES,
  rulesTable,
  snapshotFromManifest,
  snapshotFromModel,
  versionHistory,
  type Change,
  type CompatReport,
} from '../../generator/compat/index.js';
import { emitManifest } from '../../generator/emit/manifest.js';
import type { CatalogModel } from '../../generator/model.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const cases = readdirSync(FIXTURES).filter((name) => name !== 'base').sort();

function load(path: string, text = readFileSync(path, 'utf8')): CatalogModel {
  const loaded = loadCatalog([{ path: 'catalog/01-fixture.yaml', text }]);
  if (!loaded.model) throw new Error(`${path}:\n${loaded.errors.map((e) => e.message).join('\n')}`);
  return loaded.model;
}

const base = load(join(FIXTURES, 'base/before.yaml'));
/** The baseline as the check reads it: a manifest file. */
const baseline = snapshotFromManifest(JSON.parse(emitManifest(base).contents));

interface Expected {
  about: string;
  breaking: boolean;
  changes: Partial<Change>[];
}

/** The parts of a change the fixtures pin: kind, class, where, and (for shared types) which events it reaches. */
const pinned = (c: Change): Partial<Change> => ({
  kind: c.kind,
  severity: c.severity,
  ...(c.event !== undefined && { event: c.event }),
  ...(c.sharedType !== undefined && { sharedType: c.sharedType, affects: c.affects }),
  ...(c.field !== undefined && { field: c.field }),
});

const reports = new Map<string, CompatReport>();
for (const name of cases) reports.set(name, compareSnapshots(baseline, snapshotFromModel(load(join(FIXTURES, name, 'after.yaml'))), 'fixture'));

describe.each(cases)('change class fixture "%s"', (name) => {
  const expected = JSON.parse(readFileSync(join(FIXTURES, name, 'expected.json'), 'utf8')) as Expected;
  const report = reports.get(name)!;

  it('reports exactly the expected changes, each with its class', () => {
    expect(report.changes.map(pinned), expected.about).toEqual(expected.changes);
  });

  it(`is ${expected.breaking ? '' : 'not '}breaking, and each existing event version gets its worst change`, () => {
    expect(report.breaking).toBe(expected.breaking);
    for (const verdict of report.events) {
      const reaching = report.changes.filter((c) => c.affects.includes(verdict.event));
      const worst = ['breaking', 'changes-types', 'compatible'].find((s) => reaching.some((c) => c.severity === s));
      expect(verdict.severity).toBe(worst);
    }
    const s = report.summary;
    expect(s.unchanged + s.breaking + s.changesTypes + s.compatible).toBe(s.existing);
    expect(s.existing).toBe(baseline.events.length);
  });

  it('advises a new version for every breaking change, and nothing otherwise', () => {
    if (expected.breaking) expect(report.advice.length).toBeGreaterThan(0);
    else expect(report.advice).toEqual([]);
    expect(formatReport(report)).toContain(expected.breaking ? 'add a new version instead' : '✔ no breaking change');
  });
});

describe('the rules', () => {
  it('every change class has a fixture', () => {
    const seen = new Set([...reports.values()].flatMap((r) => r.changes.map((c) => c.kind)));
    expect(KINDS.filter((kind) => !seen.has(kind))).toEqual([]);
  });

  it('README.md shows the rules table exactly as the check applies it', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(rulesTable());
  });

  it('a shared type change names every event version that reaches it, nested ones included', () => {
    const change = reports.get('shared-field-removed')!.changes[0]!;
    expect(change.affects).toEqual(['ledger.posted@v1', 'ledger.removed@v1', 'payment.received@v1']);
    expect(reports.get('shared-field-removed')!.events.map((e) => e.event)).toEqual(change.affects);
    expect(formatReport(reports.get('shared-field-removed')!)).toContain(
      '✘ shared type Money: breaking, used by 3 event versions: ledger.posted@v1, ledger.removed@v1, payment.received@v1',
    );
  });

  it('says what a change means for tolerant and strict consumers', () => {
    const text = formatReport(reports.get('new-optional-field')!);
    expect(text).toContain(`tolerant consumers: ${RULES['field-added-optional'].tolerant}`);
    expect(text).toContain(`strict consumers:   ${RULES['field-added-optional'].strict}`);
    expect(formatReport(reports.get('required-to-optional')!)).toContain(`tolerant and strict consumers: ${RULES['field-now-optional'].tolerant}`);
  });

  it('a manifest and the model it was emitted from give the same snapshot', () => {
    expect(baseline).toEqual(snapshotFromModel(base));
  });

  it('suggests the next free version', () => {
    expect(nextVersion(baseline, 'account.closed')).toBe('v3');
    expect(nextVersion(baseline, 'account.created')).toBe('v2');
    expect(reports.get('field-removed')!.advice).toEqual([
      'leave account.created v1 as it was and add the change as a new version v2 (`extends: v1` when it only adds fields)',
    ]);
  });
});

describe('successive versions inside one catalog', () => {
  const model = load(
    'versions.yaml',
    `section: Versions
events:
  doc.sent:
    v1:
      fields:
        id: integer
        note: string
    v2:
      extends: v1
      fields:
        channel?: string
    v3:
      fields:
        id: integer
        note?: string
        channel?: string
    v4:
      fields:
        id: integer
  other.thing:
    v1:
      fields:
        id: integer
`,
  );

  it('compares each version with the one before it, in catalog order', () => {
    const steps = versionHistory(snapshotFromModel(model)).map((s) => ({ type: s.type, from: s.from, to: s.to, severity: s.severity, changes: s.changes.map((c) => c.message) }));
    expect(steps).toEqual([
      { type: 'doc.sent', from: null, to: 'v1', severity: undefined, changes: [] },
      { type: 'doc.sent', from: 'v1', to: 'v2', severity: 'compatible', changes: ['added optional field `channel` (string)'] },
      { type: 'doc.sent', from: 'v2', to: 'v3', severity: 'changes-types', changes: ['field `note` is now optional (was required)'] },
      { type: 'doc.sent', from: 'v3', to: 'v4', severity: 'breaking', changes: ['removed field `note` (string, optional)', 'removed field `channel` (string, optional)'] },
      { type: 'other.thing', from: null, to: 'v1', severity: undefined, changes: [] },
    ]);
  });

  it('the compat report lists them, marking what needed a new version', () => {
    const snapshot = snapshotFromModel(model);
    const report = compareSnapshots(snapshot, snapshot);
    expect(report.changes).toEqual([]);
    expect(report.versionHistory.map((s) => `${s.from}→${s.to}`)).toEqual(['v1→v2', 'v2→v3', 'v3→v4']);
    expect(formatReport(report)).toContain('doc.sent v3 → v4: removed field `note` (string, optional); removed field `channel` (string, optional) [breaking: needs a new version]');
  });
});
