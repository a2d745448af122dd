/**
 * The differences between versions of an event type, classified by the compatibility rules:
 * for each ordered pair, every change with what it does to tolerant and strict readers, and a
 * headline naming the readers it breaks. The page script shows the pair picked in the form;
 * without scripts the default pair is shown.
 */
import { RULES, type Reader, type Severity } from '../model/compat-rules.js';
import type { VersionDiff } from '../model/version-diff.js';
import { prose } from './prose.js';
import { html, type Html } from './template.js';

const CLASS: Readonly<Record<Severity, string>> = { breaking: 'breaking', 'changes-types': 'changes types', compatible: 'compatible' };

export const severityBadge = (severity: Severity | undefined): Html =>
  severity ? html`<span class="badge ${severity}">${CLASS[severity]}</span>` : html`<span class="badge same">no change</span>`;

/** `breaks strict readers and code compiled against the earlier types` */
export function breaksText(diff: VersionDiff): string {
  if (diff.changes.length === 0) return 'no change to the payload';
  const readers = diff.breaks.filter((r): r is Exclude<Reader, 'types'> => r !== 'types');
  const parts = [...(readers.length > 0 ? [`${readers.join(' and ')} readers`] : []), ...(diff.breaks.includes('types') ? ['code compiled against the earlier types'] : [])];
  return parts.length === 0 ? 'breaks no reader' : `breaks ${parts.join(' and ')}`;
}

function pairView(diff: VersionDiff, shown: boolean): Html {
  return html`<div class="diff" data-from="${diff.from}" data-to="${diff.to}"${shown ? '' : html` hidden`}>
<p class="diff-head">From <strong>${diff.from}</strong> to <strong>${diff.to}</strong>: ${severityBadge(diff.severity)} ${breaksText(diff)}.</p>
${
  diff.changes.length === 0
    ? html`<p>The payloads are the same.</p>`
    : html`<ol class="changes">
${diff.changes.map(
  (c) => html`<li><p>${prose(c.message)} ${severityBadge(c.severity)}</p>
<dl><dt>Tolerant readers</dt><dd>${prose(RULES[c.kind].tolerant)}</dd><dt>Strict readers</dt><dd>${prose(RULES[c.kind].strict)}</dd></dl></li>`,
)}
</ol>`
}
</div>`;
}

/** The compare form and every pair; `from`/`to` is the pair shown first. */
export function diffView(versions: readonly string[], diffs: readonly VersionDiff[], shownFirst: { from: string; to: string }): Html {
  const select = (name: 'from' | 'to', label: string, selected: string) =>
    html`<label>${label} <select name="${name}">${versions.map((v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${v}</option>`)}</select></label>`;
  return html`<form class="compare" aria-label="Compare two versions">
${select('from', 'Compare', shownFirst.from)} ${select('to', 'with', shownFirst.to)}
</form>
<p class="hint">Read as the compatibility check reads an edit: a consumer of the first version given messages shaped as the second. “Tolerant” and “strict” are the validators’ two modes.</p>
<div class="diffs" aria-live="polite">
${diffs.map((d) => pairView(d, d.from === shownFirst.from && d.to === shownFirst.to))}
<p class="diff-same" hidden>Pick two different versions.</p>
</div>`;
}
