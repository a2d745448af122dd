/**
 * The package's compatibility rules, as the site explains them: for each kind of change, its
 * class, and what it does to a consumer that validates tolerantly and to one that validates
 * strictly. The same table as the maintainers' compatibility check (`npm run compat`, README
 * "Compatibility"); test/site/compat-agree.test.ts holds the two to the same words.
 */

export type Severity = 'breaking' | 'changes-types' | 'compatible';

export const SEVERITY_ORDER: readonly Severity[] = ['breaking', 'changes-types', 'compatible'];

export type ChangeKind =
  | 'field-removed'
  | 'field-type-changed'
  | 'field-now-required'
  | 'field-added-required'
  | 'field-no-longer-nullable'
  | 'event-closed'
  | 'field-now-optional'
  | 'field-now-nullable'
  | 'field-added-optional'
  | 'event-opened'
  | 'field-type-widened'
  | 'field-type-renamed';

/** Who a change breaks: consumers validating tolerantly, strictly, and code compiled against the types. */
export type Reader = 'tolerant' | 'strict' | 'types';

export interface Rule {
  severity: Severity;
  change: string;
  tolerant: string;
  strict: string;
  /** The readers a message or program that worked before can now fail for. */
  breaks: readonly Reader[];
}

/** The rules between two versions of one event type (removals and additions of whole events do not arise there). */
export const RULES: Readonly<Record<ChangeKind, Rule>> = {
  'field-removed': {
    severity: 'breaking',
    change: 'field removed',
    tolerant: 'still accepted, but untyped: code that reads it no longer compiles',
    strict: 'messages that still carry it are rejected (`additional_property`), unless the event is open',
    breaks: ['strict', 'types'],
  },
  'field-type-changed': {
    severity: 'breaking',
    change: 'field type changed (other primitive, array depth, or shared type)',
    tolerant: "values of the old type are rejected (`type`, or the shared type's own issues)",
    strict: 'the same',
    breaks: ['tolerant', 'strict', 'types'],
  },
  'field-now-required': {
    severity: 'breaking',
    change: 'optional → required',
    tolerant: 'messages that omit it are rejected (`required`)',
    strict: 'the same',
    breaks: ['tolerant', 'strict'],
  },
  'field-added-required': {
    severity: 'breaking',
    change: 'new required field',
    tolerant: 'every message of producers that do not send it yet is rejected (`required`)',
    strict: 'the same',
    breaks: ['tolerant', 'strict'],
  },
  'field-no-longer-nullable': {
    severity: 'breaking',
    change: 'null no longer allowed',
    tolerant: 'messages with `null` there are rejected (`type`)',
    strict: 'the same',
    breaks: ['tolerant', 'strict'],
  },
  'event-closed': {
    severity: 'breaking',
    change: 'open → closed',
    tolerant: 'no change: unlisted properties are still accepted',
    strict: 'unlisted properties, accepted while the event was open, are rejected (`additional_property`); the payload type loses its index signature',
    breaks: ['strict'],
  },
  'field-now-optional': {
    severity: 'changes-types',
    change: 'required → optional',
    tolerant:
      'every message valid before still is; the property is now `T | undefined`, so code must handle its absence. Consumers still on the baseline reject messages that omit it: upgrade them before producers stop sending it',
    strict: 'the same',
    breaks: ['types'],
  },
  'field-now-nullable': {
    severity: 'changes-types',
    change: 'null newly allowed',
    tolerant:
      'every message valid before still is; the property is now `T | null`, so code must handle `null`. Consumers still on the baseline reject `null`: upgrade them before producers send it',
    strict: 'the same',
    breaks: ['types'],
  },
  'field-added-optional': {
    severity: 'compatible',
    change: 'new optional field',
    tolerant: 'no change for validation (it was already accepted as an unlisted property); now typed',
    strict:
      'now accepted where it was rejected (`additional_property`); consumers still on the baseline in strict mode reject messages that carry it (unless the event is open): upgrade them before producers send it',
    breaks: [],
  },
  'event-opened': {
    severity: 'compatible',
    change: 'closed → open',
    tolerant: 'no change',
    strict: 'unlisted properties are now accepted; the payload type gains an index signature',
    breaks: [],
  },
  'field-type-widened': {
    severity: 'compatible',
    change: '`integer` → `number` (also inside arrays)',
    tolerant: 'every value valid before still is; the TypeScript type stays `number`. Consumers still on the baseline reject non-integers',
    strict: 'the same',
    breaks: [],
  },
  'field-type-renamed': {
    severity: 'compatible',
    change: 'a field now uses another shared type with the same structure',
    tolerant: "validation is the same; the property's interface has another name but the same shape. Differences in structure are reported as their own changes, at the nested field",
    strict: 'the same',
    breaks: [],
  },
};

/** The worst of some severities (`undefined` for none). */
export function worst(severities: Iterable<Severity>): Severity | undefined {
  let found: Severity | undefined;
  for (const s of severities) if (found === undefined || SEVERITY_ORDER.indexOf(s) < SEVERITY_ORDER.indexOf(found)) found = s;
  return found;
}
