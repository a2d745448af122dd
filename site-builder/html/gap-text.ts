/**
 * A gap of the seed (what it does not show) in plain words, with the seed's own words folded
 * beneath, and the neighbouring events linked.
 */
import type { PageGap } from '../../runtime/contract/page-model.js';
import { plainWords } from '../model/plain-words.js';
import { plainType } from '../model/type-notation.js';
import { prose } from './prose.js';
import { html, joinHtml, type Html } from './template.js';

/** `event` links an event given as `type@version`; unknown keys stay text. */
export function gapText(gap: PageGap, event: (key: string) => Html): Html {
  const seed = html`<details class="seed"><summary>The seed’s words</summary><blockquote>${prose(gap.seed)}</blockquote></details>`;
  if (gap.kind === 'not_shown') return html`<p><strong>Not shown in the seed:</strong> ${prose(plainWords(gap.topic))}.</p>${seed}`;
  const where = joinHtml([gap.after ? html`after ${event(gap.after)}` : '', gap.before ? html`before ${event(gap.before)}` : ''], ', ');
  if (gap.kind === 'events_not_shown') return html`<p><strong>Events not shown</strong> ${where}.</p>${seed}`;
  const fields = joinHtml(
    gap.visibleFields.map((f) => html`<code>${f.name}</code> (${plainType(f.type)}${f.optional ? ', optional' : ''})`),
    ', ',
  );
  return html`<p><strong>An event without a name</strong> ${where}: the seed shows only its fields ${fields}.</p>${seed}`;
}
