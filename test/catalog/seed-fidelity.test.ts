/**
 * Seed fidelity: the YAML catalog, as the loader resolves it, says exactly what the seed
 * event catalog says, no more and no less.
 *
 * The expected side comes from `test/support/seed-catalog.ts`, an independent parser of the
 * seed's prose/markdown that never touches the YAML or the loader. Its counts are pinned
 * once more by hand-counted literals below, so a parser bug and a catalog bug cannot hide
 * each other.
 */
import { describe, it, expect } from 'vitest';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { summarizeCatalog } from '../../generator/catalog/summary.js';
import { formatProblem } from '../../generator/catalog/problems.js';
import type { CatalogModel, FieldModel, TypeRef } from '../../generator/model.js';
import { parseSeedCatalog, readSeed, renderFields, type SeedCatalog, type SeedCounts, type SeedField } from '../support/seed-catalog.js';

/**
 * Counted by hand from the seed text, independently of the parser:
 *
 * - eventVersions 228: `grep -cE '^\| [a-z].* \| v[A-Za-z0-9-]+ \|'` finds 212 table rows
 *   (194 v1, 15 v2, 2 v3, 1 v-alpha1), plus 16 prose-family events: account_user.created
 *   and .removed (2), seven change_metering_coordinator.* (7), seven
 *   meter_exchange_service_order.* (7). Per section: 12 account, 11 account user,
 *   14 affiliate/agreement/approval, 24 electricity market, 5 auth server, 20 billing,
 *   15 consent/contract, 6 customer access, 10 data import, 14 debt/deposit/dunning,
 *   9 messaging-upload/fieldwork/gas/goods, 21 metering coordinator, 26 messaging,
 *   14 company/late-payment/lead, 20 lifecycle join, 7 lifecycle leave = 228.
 * - eventTypes 220: 228 versions minus the 8 rows that are a further version of a type
 *   already listed (agreement.revoked v2, agreement.terminated v2, agreement.updated v2,
 *   billing.billing_document_representation.dispatched v2 and v3,
 *   billing.ledger.entry_posted v2, billing.ledger.entry_removed v2,
 *   delinquent_debt.position_changed v2). `…network_tariff_code.changed.v2` is its own type.
 * - sharedTypes 42: backticked bullets `- \`Name\`: …` (15 in part 1, 8 in part 2, 7 in the
 *   messaging list, 10 in the lifecycle list = 40) plus the consent section's two prose
 *   types (consents-consents-_SigningIdentity, consents-consents-_Consent).
 * - openEvents 3: billing.rebate.accepted v1 (no fields shown), consents.consent.updated v1
 *   (properties before these not shown), meter_exchange_service_order.requested v1
 *   (remaining fields not shown).
 * - gaps 7: 3 ranges of events not shown (after billing.rebate.accepted up to
 *   consents.consent.updated; between meter_exchange_service_order.requested and the unnamed
 *   event; after lifecycle.leave-supplier.requested v2) + 1 unnamed event + 3 conventions
 *   topics (delivery rules; which REST operation emits which event; inner content of `o`).
 */
const HAND_COUNTED: SeedCounts = {
  eventTypes: 220,
  eventVersions: 228,
  sharedTypes: 42,
  openEvents: 3,
  gaps: 7,
};

const result = loadCatalogFromDisk('catalog');

/** The loaded model, or a failure that lists the loader's errors. */
function model(): CatalogModel {
  if (!result.model) {
    throw new Error(`catalog did not load:\n${result.errors.map(formatProblem).join('\n')}`);
  }
  return result.model;
}

/** A model TypeRef back in catalog notation: `string`, `Period`, `integer[]`. */
function renderType(type: TypeRef): string {
  switch (type.kind) {
    case 'primitive':
    case 'format':
      return type.name;
    case 'array':
      return `${renderType(type.items)}[]`;
    case 'named':
      return type.name;
  }
}

/** Model fields in the seed parser's shape, so the two compare with `toEqual`. */
function asSeedFields(fields: FieldModel[]): SeedField[] {
  return fields.map((f) => ({ name: f.name, optional: f.optional, type: renderType(f.type) }));
}

const key = (e: { type: string; version: string }): string => `${e.type}@${e.version}`;
const countNames = Object.keys(HAND_COUNTED) as (keyof SeedCounts)[];

function checkAgainstSeed(seed: SeedCatalog): void {
  describe('seed parser (independent reading of the seed)', () => {
    it.each(countNames)('%s equals the hand count', (name) => {
      expect(seed.counts[name]).toBe(HAND_COUNTED[name]);
    });
  });

  describe('catalog loads', () => {
    it('with zero errors', () => {
      expect(result.errors.map(formatProblem)).toEqual([]);
      expect(result.model).toBeDefined();
    });
  });

  describe('catalog summary matches the seed', () => {
    it.each(countNames)('%s equals the seed parser and the hand count', (name) => {
      const summary = summarizeCatalog(model());
      expect(summary[name], 'summary vs seed parser').toBe(seed.counts[name]);
      expect(summary[name], 'summary vs hand count').toBe(HAND_COUNTED[name]);
    });
  });

  describe('event versions match the seed', () => {
    it.each(seed.events.map((e) => [key(e), e] as const))('%s', (eventKey, expected) => {
      const actual = model().events.find((e) => e.key === eventKey);
      expect(actual, `${eventKey} is missing from the catalog`).toBeDefined();
      const fields = asSeedFields(actual!.fields);
      const wanted = expected.fields ?? []; // null: the seed shows no fields at all
      // Names in order first (readable diff), then the full name/optional/type triples.
      expect(fields.map((f) => f.name), 'field names, in order').toEqual(wanted.map((f) => f.name));
      expect(renderFields(fields), 'fields as `name?: type`').toEqual(renderFields(wanted));
      expect(actual!.open !== false, 'open').toBe(expected.open);
    });

    it('the catalog has no event version the seed lacks', () => {
      const seedKeys = new Set(seed.events.map(key));
      expect(model().events.map((e) => e.key).filter((k) => !seedKeys.has(k))).toEqual([]);
    });

    it('each event type lists its versions in seed order', () => {
      const versions = (events: { type: string; version: string }[]): Record<string, string[]> => {
        const byType: Record<string, string[]> = {};
        for (const e of events) (byType[e.type] ??= []).push(e.version);
        return byType;
      };
      expect(versions(model().events)).toEqual(versions(seed.events));
    });

    it('table-listed events keep their seed order', () => {
      // Only table rows: where a prose family sits among a section's rows is a layout choice.
      const tableKeys = seed.events.filter((e) => e.source === 'table').map(key);
      const tableSet = new Set(tableKeys);
      expect(model().events.map((e) => e.key).filter((k) => tableSet.has(k))).toEqual(tableKeys);
    });
  });

  describe('shared object types match the seed', () => {
    it.each(seed.sharedTypes.map((t) => [t.name, t] as const))('%s', (name, expected) => {
      const actual = model().sharedTypes.find((t) => t.name === name);
      expect(actual, `${name} is missing from the catalog`).toBeDefined();
      expect(renderFields(asSeedFields(actual!.fields))).toEqual(renderFields(expected.fields));
    });

    it('the catalog has no shared type the seed lacks', () => {
      const seedNames = new Set(seed.sharedTypes.map((t) => t.name));
      expect(model().sharedTypes.map((t) => t.name).filter((n) => !seedNames.has(n))).toEqual([]);
    });

    it('shared types keep their seed order', () => {
      expect(model().sharedTypes.map((t) => t.name)).toEqual(seed.sharedTypes.map((t) => t.name));
    });
  });

  describe('gaps match the seed', () => {
    it('same number of gaps of each kind', () => {
      const kinds = (gaps: { kind: string }[]): Record<string, number> => {
        const counts: Record<string, number> = {};
        for (const g of gaps) counts[g.kind] = (counts[g.kind] ?? 0) + 1;
        return counts;
      };
      expect(kinds(model().gaps)).toEqual(kinds(seed.gaps));
    });

    it('the unnamed event shows the seed’s visible fields', () => {
      const visible = (gaps: { kind: string; visibleFields?: SeedField[] }[]): string[][] =>
        gaps.filter((g) => g.kind === 'unnamed_event').map((g) => renderFields(g.visibleFields ?? []));
      const modelUnnamed = model().gaps.flatMap((g) =>
        g.kind === 'unnamed_event' ? [{ kind: g.kind, visibleFields: asSeedFields(g.visibleFields) }] : [],
      );
      expect(visible(modelUnnamed)).toEqual(visible(seed.gaps));
    });
  });
}

/**
 * Without the seed there is nothing to compare with. In CI the seed is always beside the
 * clone, so its absence is a failure there; elsewhere the check is reported as not run,
 * with the reason in the test's name (the test reporter lists tests that did not run).
 */
const seedText = readSeed();
if ('text' in seedText) {
  checkAgainstSeed(parseSeedCatalog(seedText.text));
} else if (isCI()) {
  it('the seed is present (CI always has it beside the clone)', () => {
    throw new Error(seedText.missing);
  });
} else {
  it.skip(`seed fidelity not run: ${seedText.missing}`, () => {});
}

function isCI(): boolean {
  const value = process.env.CI;
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}
