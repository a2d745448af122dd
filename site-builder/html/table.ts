/**
 * A table that fits a phone: on a narrow screen each row becomes a stacked card, each cell
 * prefixed with its column's head (`data-label`), so no column is ever hidden off screen.
 */
import { html, type Html, type HtmlValue } from './template.js';

export function stackedTable(caption: string, head: readonly string[], rows: readonly (readonly HtmlValue[])[], options: { captionHidden?: boolean } = {}): Html {
  return html`<table class="stack">
<caption${options.captionHidden ? html` class="visually-hidden"` : ''}>${caption}</caption>
<thead><tr>${head.map((h) => html`<th scope="col">${h}</th>`)}</tr></thead>
<tbody>
${rows.map((cells) => html`<tr>${cells.map((cell, i) => html`<td data-label="${head[i] ?? ''}"><div class="cell">${cell}</div></td>`)}</tr>\n`)}</tbody>
</table>`;
}
