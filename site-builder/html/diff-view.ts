/**
 * The differences between versions of an event type, as the page model gives them (the
 * compatibility check's, with its rules): for each ordered pair, every change with what it
 * does to tolerant and strict readers, and a headline naming the readers it breaks, in the
 * words the Markdown reference uses too. The page script shows the pair picked in the form;
 * without scripts the default pair is shown.
 */
import type { PageModel, Severity, VersionDiff } from '../../runtime/contract/page-model.js';
import { prose } from './prose.js';
import { html, type Html } from './template.js';

/** The class of a change or a diff, as a badge; `none` is a diff with no change. */
export const severityBadge = (severity: Severity | undefined, words: PageModel['words']): Html =>
  severity ? html`<span class="badge ${severity}">${words.severity[severity]}</span>` : html`<span class="badge same">${words.unchanged}</span>`;

/** A diff's verdict: its class, and the readers it breaks. */
export const verdictView = (diff: VersionDiff, words: PageModel['words']): Html => html`${severityBadge(diff.severity, words)} ${diff.impact}`;

function pairView(diff: VersionDiff, pages: PageModel, shown: boolean): Html {
  return html`<div class="diff" data-from="${diff.from}" data-to="${diff.to}"${shown ? '' : html` hidden`}>
<p class="diff-head">From <strong>${diff.from}</strong> to <strong>${diff.to}</strong>: ${verdictView(diff, pages.words)}.</p>
${
  diff.changes.length === 0
    ? html`<p>The payloads are the same.</p>`
    : html`<ol class="changes">
${diff.changes.map((c) => {
  const rule = pages.rules[c.kind]!;
  return html`<li><p>${prose(c.message)} ${severityBadge(c.severity, pages.words)}</p>
<dl><dt>Tolerant readers</dt><dd>${prose(rule.tolerant)}</dd><dt>Strict readers</dt><dd>${prose(rule.strict)}</dd></dl></li>`;
})}
</ol>`
}
</div>`;
}

/** The compare form and every pair; `from`/`to` is the pair shown first. */
export function diffView(versions: readonly string[], diffs: readonly VersionDiff[], pages: PageModel, shownFirst: { from: string; to: string }): Html {
  const select = (name: 'from' | 'to', label: string, selected: string) =>
    html`<label>${label} <select name="${name}">${versions.map((v) => html`<option value="${v}"${v === selected ? html` selected` : ''}>${v}</option>`)}</select></label>`;
  return html`<form class="compare" aria-label="Compare two versions">
${select('from', 'Compare', shownFirst.from)} ${select('to', 'with', shownFirst.to)}
</form>
<p class="hint">Read as the compatibility check reads an edit: a consumer of the first version given messages shaped as the second. “Tolerant” and “strict” are the validators’ two modes.</p>
<div class="diffs" aria-live="polite">
${diffs.map((d) => pairView(d, pages, d.from === shownFirst.from && d.to === shownFirst.to))}
<p class="diff-same" hidden>Pick two different versions.</p>
</div>`;
}
