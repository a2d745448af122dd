/** The readable summary `validate` prints when `--json` is not given. */
import type { ValidationMode } from '../index.js';
import type { ValidateSummary } from './validate-tally.js';

/**
 * Characters a terminal would act on rather than show (C0 and C1 controls, DEL, line and
 * paragraph separators, bidirectional overrides), as `\u001b`: a property name in a message
 * must not move the cursor, recolour the screen or forge a line of the summary.
 */
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
export const printable = (text: string): string => text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The summary as a table: per event, totals, then the most frequent issues. */
export function formatTable(raw: ValidateSummary, mode: ValidationMode, extra: { approximate?: boolean; blank?: number; hint?: string } = {}): string {
  const { approximate = false, blank = 0, hint } = extra;
  const summary: ValidateSummary = {
    ...raw,
    byEvent: raw.byEvent.map((e) => ({ ...e, type: printable(e.type), version: printable(e.version) })),
    topIssues: raw.topIssues.map((i) => ({ ...i, code: printable(i.code), path: printable(i.path) })),
  };
  const out: string[] = [];
  const num = (n: number): string => n.toLocaleString('en-US');
  const right = (text: string, width: number): string => text.padStart(width);

  if (summary.byEvent.length > 0) {
    const typeWidth = Math.max('event type'.length, ...summary.byEvent.map((e) => e.type.length));
    const versionWidth = Math.max('version'.length, ...summary.byEvent.map((e) => e.version.length));
    const validWidth = Math.max('valid'.length, ...summary.byEvent.map((e) => num(e.valid).length), num(summary.valid).length);
    const invalidWidth = Math.max('invalid'.length, ...summary.byEvent.map((e) => num(e.invalid).length), num(summary.invalid).length);
    const row = (type: string, version: string, valid: string, invalid: string): string =>
      `${type.padEnd(typeWidth)}  ${version.padEnd(versionWidth)}  ${right(valid, validWidth)}  ${right(invalid, invalidWidth)}`;
    const rule = row('-'.repeat(typeWidth), '-'.repeat(versionWidth), '-'.repeat(validWidth), '-'.repeat(invalidWidth));
    out.push(row('event type', 'version', 'valid', 'invalid'), rule);
    for (const e of summary.byEvent) out.push(row(e.type, e.version, num(e.valid), num(e.invalid)));
    out.push(rule, row(`${summary.byEvent.length} event version(s)`, '', num(summary.valid), num(summary.invalid)), '');
  }

  const totals: [string, number, string][] = [
    ['lines', summary.lines, `counted, ${mode} mode (${blank.toLocaleString('en-US')} blank line(s) skipped)`],
    ['valid', summary.valid, ''],
    ['invalid', summary.invalid, 'invalid_payload'],
    ['unknown', summary.unknown, 'unknown_event_type, unknown_event_version'],
    ['malformed', summary.malformed, 'malformed_message'],
  ];
  const totalWidth = Math.max(...totals.map(([, n]) => num(n).length));
  out.push('totals');
  for (const [label, n, note] of totals) out.push(`  ${label.padEnd(9)}  ${right(num(n), totalWidth)}${note ? `  ${note}` : ''}`);

  if (summary.topIssues.length > 0) {
    const countWidth = Math.max('count'.length, ...summary.topIssues.map((i) => num(i.count).length));
    const codeWidth = Math.max('code'.length, ...summary.topIssues.map((i) => i.code.length));
    out.push('', `top issues${approximate ? ' (approximate: too many distinct paths to count exactly; counts are lower bounds)' : ''}`);
    out.push(`  ${right('count', countWidth)}  ${'code'.padEnd(codeWidth)}  path`);
    for (const issue of summary.topIssues) {
      out.push(`  ${right(num(issue.count), countWidth)}  ${issue.code.padEnd(codeWidth)}  ${issue.path === '' ? '(whole message)' : issue.path}`);
    }
  }

  if (raw.unknownTypes.length > 0) {
    const rows = raw.unknownTypes.map((u) => ({ count: num(u.count), type: printable(JSON.stringify(u.type)), meant: u.didYouMean ?? '' }));
    const countWidth = Math.max('count'.length, ...rows.map((r) => r.count.length));
    const typeWidth = Math.max('event type'.length, ...rows.map((r) => r.type.length));
    out.push('', 'unknown event types', `  ${right('count', countWidth)}  ${'event type'.padEnd(typeWidth)}  did you mean`);
    for (const r of rows) out.push(`  ${right(r.count, countWidth)}  ${r.type.padEnd(typeWidth)}  ${r.meant}`.trimEnd());
  }

  const rejected = summary.lines - summary.valid;
  out.push('', rejected === 0 ? `✔ all ${num(summary.lines)} lines valid` : `✘ ${num(rejected)} of ${num(summary.lines)} lines rejected`);
  if (hint !== undefined) out.push(`hint: ${printable(hint)}`);
  return `${out.join('\n')}\n`;
}
