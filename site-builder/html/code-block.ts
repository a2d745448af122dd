/**
 * A block of code with a copy button (it works once the page's script runs). Lines wrap
 * rather than scroll, so the block never widens the page.
 */
import { html, type Html } from './template.js';

export function codeBlock(id: string, label: string, text: string): Html {
  return html`<div class="code-block">
<div class="code-head"><span id="${id}-label">${label}</span><button type="button" class="copy" data-copy="${id}" aria-describedby="${id}-label">Copy</button></div>
<pre id="${id}"><code>${text}</code></pre>
</div>`;
}
