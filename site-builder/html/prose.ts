/** Catalog text as HTML: `backticked` spans become `<code>`, everything else is text. */
import { html, type Html } from './template.js';

export const prose = (text: string): Html => html`${text.split('`').map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part))}`;
