/**
 * The compatibility rules, judged from the consumer's side: a service that validates every
 * message it receives (tolerant or strict mode) and reads payloads through the generated types.
 *
 * - `breaking`: a message that was valid against the baseline can now be rejected (in either
 *   mode), or something consumer code relies on (an event version, a field) is gone.
 * - `changes-types`: every message valid against the baseline is still valid in both modes,
 *   but the generated types of an existing event say less than before (a property may now be
 *   `undefined` or `null`, or a named interface is gone): consumer code may need to handle it.
 * - `compatible`: additive; nothing valid before is rejected, and the existing types only gain.
 *
 * `npm run compat` exits 1 on any `breaking` change. README.md ("Compatibility") shows this
 * table; a test keeps the two in step.
 */

import type { Reader } from '../../runtime/contract/page-model.js';

export type Severity = 'breaking' | 'changes-types' | 'compatible';

export const SEVERITY_ORDER: readonly Severity[] = ['breaking', 'changes-types', 'compatible'];

export type ChangeKind =
  | 'event-version-removed'
  | 'field-removed'
  | 'field-type-changed'
  | 'field-now-required'
  | 'field-added-required'
  | 'field-no-longer-nullable'
  | 'event-closed'
  | 'field-now-optional'
  | 'field-now-nullable'
  | 'shared-type-removed'
  | 'event-type-added'
  | 'event-version-added'
  | 'field-added-optional'
  | 'event-opened'
  | 'field-type-widened'
  | 'field-type-renamed'
  | 'shared-type-added';

export interface Rule {
  severity: Severity;
  /** The change, as the README table names it. */
  change: string;
  tolerant: string;
  strict: string;
  /** The readers a message or program that worked before can now fail for (`types`: code compiled against the generated types). */
  breaks: readonly Reader[];
}

/** Every rule, in the order of the README table. Rules about fields apply to shared types' fields too. */
export const RULES: Readonly<Record<ChangeKind, Rule>> = {
  'event-version-removed': {
    severity: 'breaking',
    change: 'event version removed',
    tolerant: 'its messages are rejected as `unknown_event_version` (`unknown_event_type` once no version is left); handlers written for it no longer compile',
    strict: 'the same',
    breaks: ['tolerant', 'strict', 'types'],
  },
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
    tolerant: 'values of the old type are rejected (`type`, or the shared type\'s own issues)',
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
    tolerant: 'every message valid before still is; the property is now `T | undefined`, so code must handle its absence. Consumers still on the baseline reject messages that omit it: upgrade them before producers stop sending it',
    strict: 'the same',
    breaks: ['types'],
  },
  'field-now-nullable': {
    severity: 'changes-types',
    change: 'null newly allowed',
    tolerant: 'every message valid before still is; the property is now `T | null`, so code must handle `null`. Consumers still on the baseline reject `null`: upgrade them before producers send it',
    strict: 'the same',
    breaks: ['types'],
  },
  'shared-type-removed': {
    severity: 'changes-types',
    change: 'shared type removed (no event uses it any more)',
    tolerant: 'no message is checked against it any more (what changed in the events that used it is reported on them); its interface and `schemas/shared/<name>.schema.json` are gone',
    strict: 'the same',
    breaks: ['types'],
  },
  'event-type-added': {
    severity: 'compatible',
    change: 'new event type',
    tolerant: 'consumers still on the baseline get `unknown_event_type` (`createHandler` ignores it by default); after upgrading it joins `CatalogEvent`, and `createExhaustiveHandler` maps need a handler for it',
    strict: 'the same',
    breaks: [],
  },
  'event-version-added': {
    severity: 'compatible',
    change: 'new version of an event type',
    tolerant: 'consumers still on the baseline get `unknown_event_version` (ignored by default); after upgrading, `switch (e.version)` gains a case and `createExhaustiveHandler` maps need a handler',
    strict: 'the same',
    breaks: [],
  },
  'field-added-optional': {
    severity: 'compatible',
    change: 'new optional field',
    tolerant: 'no change for validation (it was already accepted as an unlisted property); now typed',
    strict: 'now accepted where it was rejected (`additional_property`); consumers still on the baseline in strict mode reject messages that carry it (unless the event is open): upgrade them before producers send it',
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
    tolerant: 'validation is the same; the property\'s interface has another name but the same shape. Differences in structure are reported as their own changes, at the nested field',
    strict: 'the same',
    breaks: [],
  },
  'shared-type-added': {
    severity: 'compatible',
    change: 'new shared type',
    tolerant: 'nothing existing changes',
    strict: 'the same',
    breaks: [],
  },
};

export const KINDS = Object.keys(RULES) as ChangeKind[];

export const worst = (severities: Iterable<Severity>): Severity | undefined => {
  let found: Severity | undefined;
  for (const s of severities) if (found === undefined || SEVERITY_ORDER.indexOf(s) < SEVERITY_ORDER.indexOf(found)) found = s;
  return found;
};

const LABELS: Record<Severity, string> = { breaking: '**breaking**', 'changes-types': 'changes types', compatible: 'compatible' };

/** The rules as the Markdown table README.md shows (a test checks README.md contains exactly this). */
export function rulesTable(): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = KINDS.map((kind) => {
    const r = RULES[kind];
    return `| ${cell(r.change)} | ${LABELS[r.severity]} | ${cell(r.tolerant)} | ${cell(r.strict)} |`;
  });
  return ['| change | class | tolerant consumers | strict consumers |', '|---|---|---|---|', ...rows].join('\n');
}
