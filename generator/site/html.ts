/** HTML text of the site: escaping, the page frame every page shares, and links between pages. */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text (or an attribute value) as HTML: catalog text is never markup. */
export const esc = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** `text` with `backticked` spans as `<code>`, the rest escaped. */
export const prose = (text: string): string => text.split('`').map((part, i) => (i % 2 === 1 ? `<code>${esc(part)}</code>` : esc(part))).join('');

/** Where each page is, from the site's root: links are relative and name `index.html`, so the site works from `file://` too. */
export const paths = {
  home: 'index.html',
  event: (type: string, version: string) => `events/${type}/${version}/index.html`,
  sharedType: (name: string) => `types/${name}/index.html`,
  operation: (operationId: string) => `api/${operationId}/index.html`,
  asset: (name: string) => `assets/${name}`,
};

/** A link from the page at `from` to the page at `to` (both from the site's root). */
export function href(from: string, to: string): string {
  const depth = from.split('/').length - 1;
  return `${'../'.repeat(depth)}${to}`;
}

export interface Page {
  /** From the site's root. */
  path: string;
  title: string;
  /** The page's `<main>`, its `<h1>` first. */
  main: string;
  /** Scripts (from the site's root) run after the page, in order. */
  scripts?: string[];
}

/** The frame of every page: its title, the stylesheet, a header linking home, the main content. */
export function renderPage(page: Page): string {
  const up = (to: string) => esc(href(page.path, to));
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(page.title)} · event catalog</title>`,
    `<link rel="stylesheet" href="${up(paths.asset('site.css'))}">`,
    '</head>',
    '<body>',
    `<header class="site"><a href="${up(paths.home)}">Data-import event catalog</a></header>`,
    `<main>${page.main}</main>`,
    ...(page.scripts ?? []).map((script) => `<script src="${up(script)}"></script>`),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * A table: header cells, then rows of already-HTML cells. Its box scrolls sideways on a narrow
 * screen, so it can take the keyboard's focus and is named for screen readers.
 */
export function table(head: readonly string[], rows: readonly (readonly string[])[], caption?: string): string {
  return [
    `<div class="table" role="region" tabindex="0" aria-label="${esc(caption ?? `table: ${head.join(', ')}`)}"><table>`,
    ...(caption ? [`<caption>${caption}</caption>`] : []),
    `<thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>`,
    '<tbody>',
    ...rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`),
    '</tbody></table></div>',
  ].join('\n');
}

/** A live validator box: the message to check, a button, and the verdict read out to assistive technology. */
export function validatorBox(intro: string, example: string): string {
  return [
    '<section class="validator" aria-labelledby="validator-heading">',
    '<h2 id="validator-heading">Validate a message</h2>',
    `<p>${intro}</p>`,
    `<textarea aria-label="Message to validate" rows="10" spellcheck="false">${esc(example)}</textarea>`,
    '<p><button type="button">Validate</button></p>',
    '<div role="status" class="verdict" aria-live="polite"></div>',
    '</section>',
  ].join('\n');
}
