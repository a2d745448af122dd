/** The readable form of a `CompatReport` (the `--json` form is the report itself). */
import { plural } from '../common/text.js';
import type { Change, CompatReport } from './diff.js';
import { RULES, type Severity } from './rules.js';

const MARK: Record<Severity, string> = { breaking: '✘', 'changes-types': '~', compatible: '+' };
const LABEL: Record<Severity, string> = { breaking: 'breaking', 'changes-types': 'changes types', compatible: 'compatible' };

/** What a step between successive versions would have been as an in-place edit. */
const HISTORY_NOTE: Record<Severity, string> = {
  breaking: 'breaking: needs a new version',
  'changes-types': 'changes types',
  compatible: 'compatible',
};

function changeLines(c: Change): string[] {
  const rule = RULES[c.kind];
  const lines = [`    ${MARK[c.severity]} ${LABEL[c.severity]}: ${c.message}`];
  if (rule.strict === 'the same') lines.push(`        tolerant and strict consumers: ${rule.tolerant}`);
  else lines.push(`        tolerant consumers: ${rule.tolerant}`, `        strict consumers:   ${rule.strict}`);
  return lines;
}

export interface FormatOptions {
  /** What was compared, for the heading (`catalog/`). */
  catalog?: string;
}

export function formatReport(report: CompatReport, options: FormatOptions = {}): string {
  const out: string[] = [`Compatibility of ${options.catalog ?? 'the catalog'} against ${report.baseline}`, ''];

  // Existing event versions: their own changes, in baseline order.
  const groups = new Map<string, Change[]>();
  for (const c of report.changes) {
    const subject = c.event !== undefined ? c.event : `shared type ${c.sharedType}`;
    if (c.kind === 'event-type-added' || c.kind === 'event-version-added' || c.kind === 'shared-type-added') continue;
    groups.set(subject, [...(groups.get(subject) ?? []), c]);
  }
  for (const [subject, changes] of groups) {
    const severity = changes.some((c) => c.severity === 'breaking') ? 'breaking' : changes.some((c) => c.severity === 'changes-types') ? 'changes-types' : 'compatible';
    const shared = changes[0]!.sharedType !== undefined;
    const reach = shared ? (changes[0]!.affects.length > 0 ? `, used by ${plural(changes[0]!.affects.length, 'event version')}: ${changes[0]!.affects.join(', ')}` : ', used by no event version of the baseline') : '';
    out.push(`${MARK[severity]} ${subject}: ${LABEL[severity]}${reach}`);
    for (const c of changes) out.push(...changeLines(c));
  }

  const added = report.changes.filter((c) => c.kind === 'event-type-added' || c.kind === 'event-version-added' || c.kind === 'shared-type-added');
  if (added.length > 0) {
    out.push(`+ new (compatible): ${plural(added.length, 'addition')}`);
    for (const c of added) out.push(`    + ${c.message}`);
    const kinds = [...new Set(added.map((c) => c.kind))];
    for (const kind of kinds) out.push(`        ${RULES[kind].change}: ${RULES[kind].tolerant}`);
  }
  if (groups.size === 0 && added.length === 0) out.push('✔ no change to any event version or shared type');

  if (report.versionHistory.length > 0) {
    out.push('', 'Successive versions in the catalog (what a consumer of the previous version meets in the next):');
    for (const step of report.versionHistory) {
      const what = step.changes.length === 0 ? 'no change to the payload' : step.changes.map((c) => c.message).join('; ');
      out.push(`  ${step.type} ${step.from} → ${step.to}: ${what} [${HISTORY_NOTE[step.severity ?? 'compatible']}]`);
    }
  }

  const s = report.summary;
  out.push(
    '',
    `${plural(s.existing, 'existing event version')}: ${s.breaking} breaking (${s.removed} removed), ${s.changesTypes} changing types, ${s.compatible} compatible, ${s.unchanged} unchanged; ${plural(s.added, 'new event version')}.`,
  );
  const breaking = report.changes.filter((c) => c.severity === 'breaking').length;
  if (breaking > 0) {
    out.push(`✘ ${plural(breaking, 'breaking change')}. A published event version must not change: add a new version instead.`);
    for (const advice of report.advice) out.push(`  → ${advice}`);
  } else {
    out.push('✔ no breaking change');
  }
  return out.join('\n') + '\n';
}
