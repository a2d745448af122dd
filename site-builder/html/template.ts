/**
 * HTML written through one tagged template that escapes every interpolated value: catalog
 * text, names and JSON reach a page as text, never as markup. Markup enters only as `Html`,
 * made by `html` itself or, for text already known to be markup, by `trustedHtml`.
 */

/** A piece of markup: the result of `html`, safe to interpolate again without escaping. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** What a template may interpolate: text (escaped), markup, nothing (`null`, `undefined`, `false`), or a list of them. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value (the template quotes attributes with `"`; `'` is escaped too). */
export const escapeText = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.markup;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeText(String(value as string | number | boolean));
}

/** `html\`<p>${text}</p>\``: each value escaped unless it is `Html`; lists joined; `null`, `undefined` and `false` left out. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let markup = strings[0]!;
  values.forEach((value, i) => {
    markup += render(value) + strings[i + 1]!;
  });
  return new Html(markup);
}

/** Markup the caller vouches for (a bundled stylesheet, an SVG of the site's own): never catalog text. */
export const trustedHtml = (markup: string): Html => new Html(markup);

/** Parts joined by a separator (itself escaped unless `Html`). */
export function joinHtml(parts: readonly HtmlValue[], separator: HtmlValue): Html {
  const rendered = parts.map(render).filter((part) => part !== '');
  return new Html(rendered.join(render(separator)));
}

/**
 * JSON for a `<script type="application/json">` block: `<` written as `\u003c`, so no text in
 * the data can close the element or open a comment.
 */
export const jsonScript = (id: string, data: unknown): Html =>
  html`<script type="application/json" id="${id}">${trustedHtml(JSON.stringify(data).replace(/</g, '\\u003c'))}</script>`;
