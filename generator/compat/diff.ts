/**
 * Compares two catalog snapshots, event version by event version, and classifies every
 * change by `RULES` (rules.ts). Fields typed with a shared type are compared structurally:
 * a change inside a shared type is reported once, on the shared type, naming every existing
 * event version that reaches it; a field that swaps one shared type for another is compared
 * field by field, through the two types.
 *
 * The same comparison, applied to an event's successive versions inside one catalog, is its
 * version history (`versionHistory`).
 */
import { isPrimitive, parseTypeNotation } from '../common/type-notation.js';
import { eventKey, type CatalogSnapshot, type SnapshotEvent, type SnapshotField, type SnapshotSharedType } from './snapshot.js';
import { RULES, worst, type ChangeKind, type Severity } from './rules.js';

export interface Change {
  kind: ChangeKind;
  severity: Severity;
  /** `type@version` of the event version the change is in. */
  event?: string;
  /** The shared type the change is in. */
  sharedType?: string;
  /** The field; dotted (`ledger.number`) when reached through a swapped shared type. */
  field?: string;
  /** The field or event as it was, and as it is (catalog notation, `string[] | null, optional`). */
  before?: string;
  after?: string;
  /** Event versions present on both sides that the change reaches (for a shared type: those using it on both sides). */
  affects: string[];
  /** One line for people, in Markdown-friendly wording (`added required field \`x\` (string)`). */
  message: string;
}

export interface EventVerdict {
  event: string;
  /** The worst of its changes. */
  severity: Severity;
  /** The changes that reach it: its own, and those of shared types it uses (`sharedType` set). */
  changes: Omit<Change, 'affects' | 'event'>[];
}

export interface VersionStep {
  type: string;
  /** The previous version in catalog order; `null` for the first one. */
  from: string | null;
  to: string;
  changes: Change[];
  /** The worst change: what moving from `from` to `to` means to a consumer. */
  severity?: Severity;
}

export interface CompatReport {
  /** Where the baseline came from (`catalog/baseline/manifest.json`, `git:origin/main`). */
  baseline: string;
  breaking: boolean;
  summary: {
    /** Event versions of the baseline. */
    existing: number;
    unchanged: number;
    breaking: number;
    changesTypes: number;
    compatible: number;
    removed: number;
    /** Event versions that are new. */
    added: number;
  };
  /** Every existing event version with at least one change, in baseline order, with its worst change. */
  events: EventVerdict[];
  /** Every change, in order: event versions (baseline order), shared types, then what is new. */
  changes: Change[];
  /** Successive versions of each event type of the current catalog that has more than one. */
  versionHistory: VersionStep[];
  /** What to do instead of each breaking change (empty when nothing breaks). */
  advice: string[];
}

// ── notation ────────────────────────────────────────────────────────────────────────────

/** A field's type in catalog notation, read by the one parser (a manifest may hold anything: then compared as text). */
function parseNotation(type: string): { base: string; depth: number } {
  return parseTypeNotation(type) ?? { base: type, depth: 0 };
}

const typeText = (f: SnapshotField): string => `${f.type}${f.nullable ? ' | null' : ''}`;
const fieldText = (f: SnapshotField): string => `${typeText(f)}, ${f.optional ? 'optional' : 'required'}`;

// ── comparison ──────────────────────────────────────────────────────────────────────────

interface Context {
  oldShared: ReadonlyMap<string, SnapshotSharedType>;
  newShared: ReadonlyMap<string, SnapshotSharedType>;
  subject: { event: string } | { sharedType: string };
  affects: string[];
  /** Path of the enclosing field, `ledger.` when comparing through a swapped shared type. */
  prefix: string;
  /** Shared-type pairs already being compared, against cycles. */
  seen: ReadonlySet<string>;
}

function change(ctx: Context, kind: ChangeKind, message: string, details: Partial<Pick<Change, 'field' | 'before' | 'after'>> = {}): Change {
  return { kind, severity: RULES[kind].severity, ...ctx.subject, ...details, affects: ctx.affects, message };
}

function compareFieldTypes(before: SnapshotField, after: SnapshotField, path: string, ctx: Context): Change[] {
  if (before.type === after.type) return [];
  const a = parseNotation(before.type);
  const b = parseNotation(after.type);
  const details = { field: path, before: before.type, after: after.type };
  const changed = (): Change[] => [change(ctx, 'field-type-changed', `field \`${path}\` changed type: ${before.type} → ${after.type}`, details)];
  if (a.depth !== b.depth) return changed();
  const aPrimitive = isPrimitive(a.base);
  const bPrimitive = isPrimitive(b.base);
  if (aPrimitive && bPrimitive) {
    if (a.base === 'integer' && b.base === 'number') return [change(ctx, 'field-type-widened', `field \`${path}\` widened: ${before.type} → ${after.type}`, details)];
    return changed();
  }
  if (aPrimitive || bPrimitive) return changed();
  const oldType = ctx.oldShared.get(a.base);
  const newType = ctx.newShared.get(b.base);
  if (!oldType || !newType) return changed();
  const pair = `${a.base}\u0000${b.base}`;
  if (ctx.seen.has(pair)) return [];
  const nested = compareFields(oldType.fields, newType.fields, { ...ctx, prefix: `${path}.`, seen: new Set([...ctx.seen, pair]) });
  const structure = nested.length === 0 ? 'same structure' : 'differences below';
  return [change(ctx, 'field-type-renamed', `field \`${path}\` now uses shared type ${b.base} instead of ${a.base} (${structure})`, details), ...nested];
}

function compareField(before: SnapshotField, after: SnapshotField, ctx: Context): Change[] {
  const path = `${ctx.prefix}${before.name}`;
  const details = { field: path, before: fieldText(before), after: fieldText(after) };
  const changes = compareFieldTypes(before, after, path, ctx);
  if (before.optional && !after.optional) changes.push(change(ctx, 'field-now-required', `field \`${path}\` is now required (was optional)`, details));
  if (!before.optional && after.optional) changes.push(change(ctx, 'field-now-optional', `field \`${path}\` is now optional (was required)`, details));
  if (!before.nullable && after.nullable) changes.push(change(ctx, 'field-now-nullable', `field \`${path}\` now allows null`, details));
  if (before.nullable && !after.nullable) changes.push(change(ctx, 'field-no-longer-nullable', `field \`${path}\` no longer allows null`, details));
  return changes;
}

function compareFields(before: readonly SnapshotField[], after: readonly SnapshotField[], ctx: Context): Change[] {
  const changes: Change[] = [];
  const afterByName = new Map(after.map((f) => [f.name, f]));
  const beforeNames = new Set(before.map((f) => f.name));
  for (const field of before) {
    const now = afterByName.get(field.name);
    const path = `${ctx.prefix}${field.name}`;
    if (now) changes.push(...compareField(field, now, ctx));
    else changes.push(change(ctx, 'field-removed', `removed field \`${path}\` (${fieldText(field)})`, { field: path, before: fieldText(field) }));
  }
  for (const field of after) {
    if (beforeNames.has(field.name)) continue;
    const path = `${ctx.prefix}${field.name}`;
    const kind = field.optional ? 'field-added-optional' : 'field-added-required';
    changes.push(change(ctx, kind, `added ${field.optional ? 'optional' : 'required'} field \`${path}\` (${typeText(field)})`, { field: path, after: fieldText(field) }));
  }
  return changes;
}

function compareEvents(before: SnapshotEvent, after: SnapshotEvent, ctx: Context): Change[] {
  const changes: Change[] = [];
  const seedNote = (seed?: string) => (seed ? ` (seed: "${seed}")` : '');
  if (before.open && !after.open) changes.push(change(ctx, 'event-closed', `no longer open${seedNote(before.openSeed)}: unlisted properties are rejected in strict mode`, { before: 'open', after: 'closed' }));
  if (!before.open && after.open) changes.push(change(ctx, 'event-opened', `now open${seedNote(after.openSeed)}: unlisted properties are accepted in every mode`, { before: 'closed', after: 'open' }));
  changes.push(...compareFields(before.fields, after.fields, ctx));
  return changes;
}

const byName = (types: readonly SnapshotSharedType[]) => new Map(types.map((t) => [t.name, t]));

/** Versions of each event type, in catalog order, types in order of first appearance. */
function versionsByType(snapshot: CatalogSnapshot): Map<string, SnapshotEvent[]> {
  const out = new Map<string, SnapshotEvent[]>();
  for (const event of snapshot.events) {
    const list = out.get(event.type);
    if (list) list.push(event);
    else out.set(event.type, [event]);
  }
  return out;
}

/** Every change from `baseline` to `current`, classified, with a verdict per existing event version. */
export function compareSnapshots(baseline: CatalogSnapshot, current: CatalogSnapshot, baselineLabel = 'baseline'): CompatReport {
  const oldShared = byName(baseline.sharedTypes);
  const newShared = byName(current.sharedTypes);
  const currentByKey = new Map(current.events.map((e) => [eventKey(e), e]));
  const baselineKeys = new Set(baseline.events.map(eventKey));
  const currentVersions = versionsByType(current);
  const baselineTypes = new Set(baseline.events.map((e) => e.type));
  const base = { oldShared, newShared, prefix: '', seen: new Set<string>() };

  const changes: Change[] = [];
  for (const event of baseline.events) {
    const key = eventKey(event);
    const now = currentByKey.get(key);
    const ctx: Context = { ...base, subject: { event: key }, affects: [key] };
    if (!now) {
      const left = currentVersions.get(event.type);
      const rest = left ? `; ${event.type} still has ${left.map((e) => e.version).join(', ')}` : `; no version of ${event.type} is left`;
      changes.push(change(ctx, 'event-version-removed', `event version removed${rest}`));
    } else {
      changes.push(...compareEvents(event, now, ctx));
    }
  }
  for (const type of baseline.sharedTypes) {
    const now = newShared.get(type.name);
    const subject = { sharedType: type.name };
    if (!now) {
      changes.push(change({ ...base, subject, affects: [] }, 'shared-type-removed', `shared type ${type.name} removed`));
      continue;
    }
    const usedNow = new Set(now.usedBy);
    const affects = type.usedBy.filter((key) => usedNow.has(key) && currentByKey.has(key));
    changes.push(...compareFields(type.fields, now.fields, { ...base, subject, affects }));
  }
  for (const type of current.sharedTypes) {
    if (!oldShared.has(type.name)) changes.push(change({ ...base, subject: { sharedType: type.name }, affects: [] }, 'shared-type-added', `new shared type ${type.name}`));
  }
  for (const event of current.events) {
    const key = eventKey(event);
    if (baselineKeys.has(key)) continue;
    const ctx: Context = { ...base, subject: { event: key }, affects: [] };
    if (baselineTypes.has(event.type)) changes.push(change(ctx, 'event-version-added', `new version ${event.version} of ${event.type}`));
    else changes.push(change(ctx, 'event-type-added', `new event type ${event.type} (${event.version})`));
  }

  const events: EventVerdict[] = [];
  const summary = { existing: baseline.events.length, unchanged: 0, breaking: 0, changesTypes: 0, compatible: 0, removed: 0, added: 0 };
  for (const event of baseline.events) {
    const key = eventKey(event);
    const own = changes.filter((c) => c.affects.includes(key));
    const severity = worst(own.map((c) => c.severity));
    if (!severity) {
      summary.unchanged++;
      continue;
    }
    events.push({ event: key, severity, changes: own.map(({ affects: _affects, event: _event, ...rest }) => rest) });
    if (!currentByKey.has(key)) summary.removed++;
    if (severity === 'breaking') summary.breaking++;
    else if (severity === 'changes-types') summary.changesTypes++;
    else summary.compatible++;
  }
  summary.added = current.events.filter((e) => !baselineKeys.has(eventKey(e))).length;

  return {
    baseline: baselineLabel,
    breaking: changes.some((c) => c.severity === 'breaking'),
    summary,
    events,
    changes,
    versionHistory: versionHistory(current).filter((step) => step.from !== null),
    advice: advise(changes, current),
  };
}

/** Instead of breaking a published version: a new version (or a new shared type), and keeping the old one. */
function advise(changes: readonly Change[], current: CatalogSnapshot): string[] {
  const advice: string[] = [];
  const done = new Set<string>();
  for (const c of changes) {
    if (c.severity !== 'breaking') continue;
    const subject = c.event ?? `shared:${c.sharedType}`;
    if (done.has(subject)) continue;
    done.add(subject);
    if (c.kind === 'event-version-removed') {
      advice.push(`keep ${c.event} in the catalog: consumers may still receive it; remove a version only in a release that announces it`);
    } else if (c.event) {
      const [type, version] = c.event.split('@') as [string, string];
      const next = nextVersion(current, type);
      advice.push(`leave ${type} ${version} as it was and add the change as a new version${next ? ` ${next}` : ''} (\`extends: ${version}\` when it only adds fields)`);
    } else {
      const events = c.affects.length > 0 ? `, and new versions of ${c.affects.join(', ')} that use it` : '';
      advice.push(`leave shared type ${c.sharedType} as it was: add a new shared type with the change${events}`);
    }
  }
  return advice;
}

/**
 * Each event type's versions in catalog order, each compared with the one before it (the
 * first has `from: null` and no changes). Severity says what moving from the previous version
 * to this one means to a consumer, by the same rules.
 */
export function versionHistory(snapshot: CatalogSnapshot): VersionStep[] {
  const steps: VersionStep[] = [];
  for (const [type, versions] of versionsByType(snapshot)) {
    versions.forEach((event, i) => {
      const previous = versions[i - 1];
      if (!previous) {
        steps.push({ type, from: null, to: event.version, changes: [] });
        return;
      }
      const changes = compareVersions(snapshot, previous, event);
      const severity = worst(changes.map((c) => c.severity));
      steps.push({ type, from: previous.version, to: event.version, changes, ...(severity && { severity }) });
    });
  }
  return steps;
}

/**
 * Every change from one version of an event type to another of the same catalog, in either
 * order, as if `to` were an edit of `from`: what a consumer of `from` meets in messages shaped
 * as `to`. The changes are reported on `to`.
 */
export function compareVersions(snapshot: CatalogSnapshot, from: SnapshotEvent, to: SnapshotEvent): Change[] {
  const shared = byName(snapshot.sharedTypes);
  const key = eventKey(to);
  return compareEvents(from, to, { oldShared: shared, newShared: shared, prefix: '', seen: new Set(), subject: { event: key }, affects: [key] });
}

/** The version to suggest instead of a breaking edit: one past the highest `vN` of the type. */
export function nextVersion(current: CatalogSnapshot, type: string): string | undefined {
  const numbers = current.events.filter((e) => e.type === type).map((e) => /^v(\d+)$/.exec(e.version)?.[1]);
  const highest = Math.max(0, ...numbers.filter((n): n is string => n !== undefined).map(Number));
  return highest > 0 ? `v${highest + 1}` : undefined;
}
