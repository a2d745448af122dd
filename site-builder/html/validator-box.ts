/**
 * A live validator: the message to check, a strict-mode switch and the verdict, read out as it
 * changes (`role="status"`). `validator` is the script that validates (an event's entry, or
 * the whole catalog's), which the page's validator script runs in a Web Worker; `requires`,
 * scripts it needs before it when it runs on the page instead (it loads them itself in a worker).
 */
import { html, type Html, type HtmlValue } from './template.js';

export function validatorBox(options: { validator: string; requires?: string[]; intro: HtmlValue; example: string; rows?: number }): Html {
  return html`<section class="validator" aria-labelledby="validator-heading" data-validator="${options.validator}"${options.requires ? html` data-requires="${options.requires.join(' ')}"` : ''}>
<h2 id="validator-heading">Validate a message</h2>
<p>${options.intro}</p>
<p class="mode"><label><input type="checkbox" class="strict"> Strict: reject payload fields the catalog does not list</label></p>
<div class="editor">
<div class="marks" aria-hidden="true"></div>
<textarea aria-label="Message to validate" aria-describedby="validator-hint" rows="${options.rows ?? 14}" spellcheck="false" autocomplete="off" autocapitalize="off" wrap="off">${options.example}</textarea>
</div>
<p id="validator-hint" class="hint">Checked as you type. The verdict is the package’s own, and lines with a problem are marked.</p>
<p class="held" hidden><span></span> <button type="button">Type a message instead</button></p>
<p class="file-input"><label>Or check a file (any size): <input type="file" class="file" accept=".json,.txt,application/json,text/plain"></label></p>
<div role="status" class="verdict" data-state="idle"><p>The verdict appears here.</p></div>
</section>`;
}
