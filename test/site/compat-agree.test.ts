/**
 * The site classifies version changes on the published manifest by its own copy of the
 * compatibility rules (the site reads only what the package publishes). This holds the copy
 * to the maintainers' compatibility check (`generator/compat/`): the same changes, in the same
 * order, with the same words and classes, for every pair of versions of the catalog's event
 * types and for a few hundred pairs of unrelated events (which differ in every way a version can).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareSnapshots, versionHistory } from '../../generator/compat/diff.js';
import { RULES as CHECK_RULES } from '../../generator/compat/rules.js';
import { snapshotFromManifest, type CatalogSnapshot, type SnapshotEvent } from '../../generator/compat/snapshot.js';
import { RULES, type ChangeKind } from '../../site-builder/model/compat-rules.js';
import { diffVersions, type VersionSide } from '../../site-builder/model/version-diff.js';
import type { Manifest } from '../../site-builder/published.js';

const manifest = JSON.parse(readFileSync(new URL('../../generated/manifest.json', import.meta.url), 'utf8')) as Manifest;
const snapshot = snapshotFromManifest(manifest);
const shared = new Map(manifest.sharedTypes.map((t) => [t.name, t.fields]));
const side = (e: SnapshotEvent): VersionSide => ({ version: e.version, open: e.open, ...(e.openSeed !== undefined && { openSeed: e.openSeed }), fields: e.fields });

/** What the compatibility check reports from `before` to `after`, the two taken as one event version edited. */
function checkedChanges(before: SnapshotEvent, after: SnapshotEvent): { kind: string; severity: string; message: string }[] {
  const as = (e: SnapshotEvent): CatalogSnapshot => ({ events: [{ ...e, type: 'edited', version: 'v1' }], sharedTypes: snapshot.sharedTypes });
  return compareSnapshots(as(before), as(after)).changes.map(({ kind, severity, message }) => ({ kind, severity, message }));
}

describe('the site’s version diff agrees with the compatibility check', () => {
  it('on each step of every event type’s version history', () => {
    const steps = versionHistory(snapshot).filter((s) => s.from !== null);
    expect(steps.length).toBeGreaterThan(5);
    for (const step of steps) {
      const from = snapshot.events.find((e) => e.type === step.type && e.version === step.from)!;
      const to = snapshot.events.find((e) => e.type === step.type && e.version === step.to)!;
      const diff = diffVersions(side(from), side(to), shared);
      expect(diff.changes.map(({ kind, severity, message }) => ({ kind, severity, message })), `${step.type} ${step.from} → ${step.to}`).toEqual(step.changes.map(({ kind, severity, message }) => ({ kind, severity, message })));
      expect(diff.severity).toBe(step.severity);
    }
  });

  it('on every ordered pair of versions of a type, on 400 pairs of unrelated events, and where a field swaps shared types', () => {
    const pairs: [SnapshotEvent, SnapshotEvent][] = [];
    for (const a of snapshot.events) for (const b of snapshot.events) if (a !== b && a.type === b.type) pairs.push([a, b]);
    // A fixed stride through the catalog: unrelated events differ in fields, types, shared types and openness.
    const events = snapshot.events;
    for (let i = 0; i < 400; i++) pairs.push([events[(i * 37) % events.length]!, events[(i * 53 + 11) % events.length]!]);
    // And pairs where one field swaps a shared type for another (compared through both).
    const sharedNames = new Set(snapshot.sharedTypes.map((t) => t.name));
    const swaps = events.flatMap((a) =>
      events
        .filter((b) => a.fields.some((f) => sharedNames.has(f.type) && b.fields.some((g) => g.name === f.name && g.type !== f.type && sharedNames.has(g.type))))
        .map((b): [SnapshotEvent, SnapshotEvent] => [a, b]),
    );
    expect(swaps.length).toBeGreaterThan(0);
    pairs.push(...swaps.slice(0, 40));
    const kinds = new Set<string>();
    for (const [a, b] of pairs) {
      const diff = diffVersions(side(a), side(b), shared);
      expect(diff.changes.map(({ kind, severity, message }) => ({ kind, severity, message })), `${a.type} ${a.version} → ${b.type} ${b.version}`).toEqual(checkedChanges(a, b));
      for (const c of diff.changes) kinds.add(c.kind);
    }
    // The pairs exercised the rules a version change can meet.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['field-added-optional', 'field-added-required', 'field-removed', 'field-type-changed', 'field-type-renamed', 'field-now-optional', 'field-now-required']));
  });

  it('with the same words and classes for every rule', () => {
    for (const kind of Object.keys(RULES) as ChangeKind[]) {
      const { severity, change, tolerant, strict } = RULES[kind];
      expect({ severity, change, tolerant, strict }, kind).toEqual(CHECK_RULES[kind]);
    }
  });

  it('says which readers each breaking rule breaks, consistently with its words', () => {
    for (const [kind, rule] of Object.entries(RULES)) {
      if (rule.severity === 'breaking') expect(rule.breaks.filter((r) => r !== 'types').length, kind).toBeGreaterThan(0);
      else expect(rule.breaks.filter((r) => r !== 'types'), kind).toEqual([]);
      expect(rule.breaks.includes('tolerant'), kind).toBe(rule.severity === 'breaking' && !rule.tolerant.startsWith('still accepted') && !rule.tolerant.startsWith('no change'));
    }
  });
});
