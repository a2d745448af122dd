/**
 * The page model both the Markdown reference and the site render: the site reads the
 * published `generated/docs/pages.json` (with the manifest) back into exactly the model the
 * generator rendered the Markdown from; its diffs are the compatibility check's, for every
 * ordered pair of versions; its rules are the check's; its retry rules are the client's; and
 * both renderers say a verdict in the same words.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiRetryRules } from '../../generated/api/operations.js';
import { loadCatalog, readCatalogDir } from '../../generator/catalog/load-catalog.js';
import { manifestOf } from '../../generator/common/manifest.js';
import { compareSnapshots, versionHistory } from '../../generator/compat/diff.js';
import { RULES } from '../../generator/compat/rules.js';
import { snapshotFromModel, type CatalogSnapshot, type SnapshotEvent } from '../../generator/compat/snapshot.js';
import { emitDocs } from '../../generator/emit/docs.js';
import { pageModelOf, publishedPages } from '../../generator/emit/page-model.js';
import type { CatalogModel } from '../../generator/model.js';
import { diffView } from '../../site-builder/html/diff-view.js';
import type { Manifest } from '../../site-builder/published.js';
import { PublishedPagesError, readPages } from '../../site-builder/read-pages.js';
import { codeFiles, importsOf } from '../support/source-imports.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'test/generator/fixtures');

function load(dir: string, displayRoot: string): CatalogModel {
  const loaded = loadCatalog(readCatalogDir(dir, displayRoot));
  if (!loaded.model) throw new Error(loaded.errors.map((e) => e.message).join('\n'));
  return loaded.model;
}

const model = load(join(ROOT, 'catalog'), ROOT);
const pages = pageModelOf(model);
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const manifest = readJson('generated/manifest.json') as Manifest;
/** A JSON round trip: what a reader of the published text gets. */
const asPublished = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

describe('the published page model', () => {
  it('read by the site from generated/, is the model the generator renders the Markdown from', () => {
    const read = readPages(manifest, readJson('generated/docs/pages.json'));
    expect(read).toEqual(pages);
    // Not vacuous: the parts the manifest does not hold came through.
    expect(read.eventTypes.filter((t) => t.diffs.length > 0).length).toBeGreaterThan(5);
    expect(read.events.filter((e) => e.extends.length > 0).length).toBeGreaterThan(20);
    expect(read.api?.operations.flatMap((op) => op.responses).filter((r) => r.retry).length).toBe(3);
    expect(read.fragments.length).toBeGreaterThan(0);
  });

  it.each(['docs-reference', 'rest-api', 'reuse', 'shared-types', 'open-events'])('round-trips through the manifest for fixture %s: descriptions, reuse, gaps, the REST API', (name) => {
    const fixture = load(join(FIXTURES, name, 'catalog'), join(FIXTURES, name));
    const expected = pageModelOf(fixture);
    expect(readPages(asPublished(manifestOf(fixture)) as Manifest, asPublished(publishedPages(expected)))).toEqual(expected);
  });

  it('holds only what the manifest does not: no event or shared type field list, name or section', () => {
    const text = readFileSync(join(ROOT, 'generated/docs/pages.json'), 'utf8');
    for (const event of manifest.events.slice(0, 20)) expect(text).not.toContain(`"${event.name}"`);
    const published = readJson('generated/docs/pages.json') as { events: Record<string, object>; sharedTypes: Record<string, object> };
    for (const entry of [...Object.values(published.events), ...Object.values(published.sharedTypes)]) {
      expect(Object.keys(entry).filter((key) => ['fields', 'name', 'section', 'usedBy', 'type', 'version'].includes(key))).toEqual([]);
    }
  });
});

describe('its diffs are the compatibility check’s', () => {
  const snapshot = snapshotFromModel(model);
  /** What `npm run compat` reports from `before` to `after`, the two taken as one event version edited. */
  function checked(before: SnapshotEvent, after: SnapshotEvent) {
    const as = (e: SnapshotEvent): CatalogSnapshot => ({ events: [{ ...e, type: 'edited', version: 'v1' }], sharedTypes: snapshot.sharedTypes });
    return compareSnapshots(as(before), as(after)).changes.map(({ kind, severity, field, message }) => ({ kind, severity, ...(field !== undefined && { field }), message }));
  }

  it('for every ordered pair of two versions of every event type', () => {
    let pairs = 0;
    for (const type of pages.eventTypes) {
      const versions = snapshot.events.filter((e) => e.type === type.type);
      expect(type.diffs).toHaveLength(versions.length * (versions.length - 1));
      for (const from of versions) {
        for (const to of versions.filter((v) => v !== from)) {
          const diff = type.diffs.find((d) => d.from === from.version && d.to === to.version)!;
          expect(diff.changes, `${type.type} ${from.version} → ${to.version}`).toEqual(checked(from, to));
          pairs++;
        }
      }
    }
    expect(pairs).toBe(18);
  });

  it('with the version history’s classes on each step, and the readers their rules break', () => {
    for (const step of versionHistory(snapshot).filter((s) => s.from !== null)) {
      const diff = pages.eventTypes.find((t) => t.type === step.type)!.diffs.find((d) => d.from === step.from && d.to === step.to)!;
      expect(diff.severity).toBe(step.severity);
      expect(new Set(diff.breaks)).toEqual(new Set(step.changes.flatMap((c) => RULES[c.kind].breaks)));
    }
  });

  it('by the check’s own rules, each saying the readers it breaks consistently with its words', () => {
    expect(pages.rules).toEqual(RULES);
    for (const [kind, rule] of Object.entries(RULES)) {
      const validating = rule.breaks.filter((r) => r !== 'types');
      expect(validating.length > 0, kind).toBe(rule.severity === 'breaking');
      expect(rule.breaks.includes('tolerant'), kind).toBe(rule.severity === 'breaking' && !rule.tolerant.startsWith('still accepted') && !rule.tolerant.startsWith('no change'));
      if (rule.severity === 'changes-types') expect(rule.breaks, kind).toEqual(['types']);
    }
  });
});

describe('the REST operations', () => {
  it('carry the seed’s retry rules as the client reads them (apiRetryRules), and no other', () => {
    const fromPages = Object.fromEntries(
      pages.api!.operations.flatMap((op) => {
        const rules = op.responses.filter((r) => r.retry).map((r) => [String(r.status), r.retry] as const);
        return rules.length > 0 ? [[op.operationId, Object.fromEntries(rules)]] : [];
      }),
    );
    expect(fromPages).toEqual(asPublished(apiRetryRules));
  });

  it('are what the site reads them from: no site module imports the client’s retry code or the generated operation data', () => {
    const imports = codeFiles('site-builder').flatMap(importsOf);
    expect(imports.filter((i) => i.target === 'runtime/rest/retry.ts' || i.target === 'generated/api/operations.ts')).toEqual([]);
    expect(imports.filter((i) => i.target === 'site-builder/read-pages.ts').length).toBeGreaterThan(0);
  });
});

describe('one vocabulary for verdicts', () => {
  const docs = emitDocs(model).filter((f) => f.path.endsWith('.md'));
  const several = pages.eventTypes.filter((t) => t.versions.length > 1);

  it('the Markdown version history says each step’s class and the readers it breaks in the page model’s words', () => {
    for (const type of several) {
      const text = docs.find((f) => f.contents.includes(`### Version history of \`${type.type}\``))!.contents;
      type.versions.slice(1).forEach((to, i) => {
        const diff = type.diffs.find((d) => d.from === type.versions[i] && d.to === to)!;
        expect(text, `${type.type} ${to}`).toContain(`| ${pages.words.severity[diff.severity!]} (${diff.impact}) |`);
      });
    }
  });

  it('the site’s comparison shows the same class and impact for every pair', () => {
    for (const type of several) {
      const markup = diffView(type.versions, type.diffs, pages, { from: type.versions[0]!, to: type.versions[1]! }).markup;
      for (const diff of type.diffs) {
        expect(markup).toContain(`data-from="${diff.from}" data-to="${diff.to}"`);
        expect(markup).toContain(`<span class="badge ${diff.severity}">${pages.words.severity[diff.severity!]}</span> ${diff.impact}.`);
      }
    }
  });
});

describe('the site’s reader', () => {
  it('names the place in pages.json that is not of the published shape', () => {
    const published = readJson('generated/docs/pages.json') as Record<string, unknown>;
    expect(() => readPages(manifest, { ...published, diffs: { 'agreement.revoked': [{ from: 'v1' }] } })).toThrow(
      new PublishedPagesError('generated/docs/pages.json/diffs/agreement.revoked/0: expected a diff: "from", "to", "changes" and "impact"'),
    );
    expect(() => readPages(manifest, { ...published, fragments: {} })).toThrow('generated/docs/pages.json/fragments: expected an array');
  });

  it('refuses a manifest and a page model of different generations', () => {
    const published = readJson('generated/docs/pages.json') as { sharedTypes: Record<string, unknown> };
    const [first, ...rest] = Object.keys(published.sharedTypes);
    const older = { ...published, sharedTypes: Object.fromEntries(rest.map((name) => [name, published.sharedTypes[name]])) };
    expect(() => readPages(manifest, older)).toThrow(`no entry for the manifest's shared type ${first}`);
  });
});
