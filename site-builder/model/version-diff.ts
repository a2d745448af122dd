/**
 * What changes between two versions of an event type, classified by the compatibility rules
 * (`compat-rules.ts`): the comparison the maintainers' compatibility check makes, here on the
 * published manifest. Fields typed with a shared type are compared through it: a field that
 * swaps one shared type for another is compared field by field, the nested paths dotted.
 */
import { RULES, worst, type ChangeKind, type Reader, type Severity } from './compat-rules.js';
import type { FieldSource } from './field-tree.js';
import { isPrimitiveType, parseNotation } from './type-notation.js';

export interface VersionSide {
  version: string;
  open: boolean;
  openSeed?: string;
  fields: readonly FieldSource[];
}

export interface Change {
  kind: ChangeKind;
  severity: Severity;
  /** Dotted through swapped shared types (`ledger.number`). */
  field?: string;
  /** One line, with `code` spans. */
  message: string;
}

export interface VersionDiff {
  from: string;
  to: string;
  changes: Change[];
  /** The worst change; none when nothing changed. */
  severity?: Severity;
  /** Every reader some change breaks. */
  breaks: Reader[];
}

const typeText = (f: FieldSource): string => `${f.type}${f.nullable ? ' | null' : ''}`;
const fieldText = (f: FieldSource): string => `${typeText(f)}, ${f.optional ? 'optional' : 'required'}`;

interface Context {
  shared: ReadonlyMap<string, readonly FieldSource[]>;
  prefix: string;
  /** Shared-type pairs being compared, against cycles. */
  seen: ReadonlySet<string>;
}

const change = (kind: ChangeKind, message: string, field?: string): Change => ({ kind, severity: RULES[kind].severity, ...(field !== undefined && { field }), message });

function compareTypes(before: FieldSource, after: FieldSource, path: string, ctx: Context): Change[] {
  if (before.type === after.type) return [];
  const a = parseNotation(before.type);
  const b = parseNotation(after.type);
  const changed = [change('field-type-changed', `field \`${path}\` changed type: ${before.type} → ${after.type}`, path)];
  if (a.depth !== b.depth) return changed;
  const aPrimitive = isPrimitiveType(a.base);
  const bPrimitive = isPrimitiveType(b.base);
  if (aPrimitive && bPrimitive) return a.base === 'integer' && b.base === 'number' ? [change('field-type-widened', `field \`${path}\` widened: ${before.type} → ${after.type}`, path)] : changed;
  if (aPrimitive || bPrimitive) return changed;
  const oldFields = ctx.shared.get(a.base);
  const newFields = ctx.shared.get(b.base);
  if (!oldFields || !newFields) return changed;
  const pair = `${a.base}\u0000${b.base}`;
  if (ctx.seen.has(pair)) return [];
  const nested = compareFields(oldFields, newFields, { ...ctx, prefix: `${path}.`, seen: new Set([...ctx.seen, pair]) });
  const structure = nested.length === 0 ? 'same structure' : 'differences below';
  return [change('field-type-renamed', `field \`${path}\` now uses shared type ${b.base} instead of ${a.base} (${structure})`, path), ...nested];
}

function compareField(before: FieldSource, after: FieldSource, ctx: Context): Change[] {
  const path = `${ctx.prefix}${before.name}`;
  const changes = compareTypes(before, after, path, ctx);
  if (before.optional && !after.optional) changes.push(change('field-now-required', `field \`${path}\` is now required (was optional)`, path));
  if (!before.optional && after.optional) changes.push(change('field-now-optional', `field \`${path}\` is now optional (was required)`, path));
  if (!before.nullable && after.nullable) changes.push(change('field-now-nullable', `field \`${path}\` now allows null`, path));
  if (before.nullable && !after.nullable) changes.push(change('field-no-longer-nullable', `field \`${path}\` no longer allows null`, path));
  return changes;
}

function compareFields(before: readonly FieldSource[], after: readonly FieldSource[], ctx: Context): Change[] {
  const changes: Change[] = [];
  const afterByName = new Map(after.map((f) => [f.name, f]));
  const beforeNames = new Set(before.map((f) => f.name));
  for (const field of before) {
    const now = afterByName.get(field.name);
    const path = `${ctx.prefix}${field.name}`;
    changes.push(...(now ? compareField(field, now, ctx) : [change('field-removed', `removed field \`${path}\` (${fieldText(field)})`, path)]));
  }
  for (const field of after) {
    if (beforeNames.has(field.name)) continue;
    const path = `${ctx.prefix}${field.name}`;
    changes.push(change(field.optional ? 'field-added-optional' : 'field-added-required', `added ${field.optional ? 'optional' : 'required'} field \`${path}\` (${typeText(field)})`, path));
  }
  return changes;
}

/** Every change from `before` to `after`, in the order the compatibility check lists them. */
export function diffVersions(before: VersionSide, after: VersionSide, shared: ReadonlyMap<string, readonly FieldSource[]>): VersionDiff {
  const seedNote = (seed?: string): string => (seed ? ` (seed: "${seed}")` : '');
  const changes: Change[] = [];
  if (before.open && !after.open) changes.push(change('event-closed', `no longer open${seedNote(before.openSeed)}: unlisted properties are rejected in strict mode`));
  if (!before.open && after.open) changes.push(change('event-opened', `now open${seedNote(after.openSeed)}: unlisted properties are accepted in every mode`));
  changes.push(...compareFields(before.fields, after.fields, { shared, prefix: '', seen: new Set() }));
  const severity = worst(changes.map((c) => c.severity));
  const breaks = (['tolerant', 'strict', 'types'] as const).filter((reader) => changes.some((c) => RULES[c.kind].breaks.includes(reader)));
  return { from: before.version, to: after.version, changes, ...(severity && { severity }), breaks };
}
