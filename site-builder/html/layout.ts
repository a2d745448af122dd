/**
 * The frame every page shares: a title naming the page, the favicon and stylesheet, a skip
 * link, the header with the site's sections, a section index (a sidebar on a laptop, folded
 * on a phone), breadcrumbs, the page's own content, the published files, and its scripts.
 */
import { relativeLink, sitePaths } from '../site-paths.js';
import { html, joinHtml, type Html, type HtmlValue } from './template.js';

export const SITE_NAME = 'Data-import event catalog';

export interface Crumb {
  label: HtmlValue;
  /** From the site's root; the last crumb (this page) has none. */
  to?: string;
}

export interface Page {
  /** From the site's root. */
  path: string;
  /** What the page is (`account.created v1`): the `<title>` is this, then the site's name. */
  title: string;
  description: string;
  /** From the home page down to this page's parent; this page is added as the last. */
  breadcrumbs: Crumb[];
  /** The page's content, its `<h1>` first. */
  main: Html;
  /** Links to the parts of this page, for the section index. */
  onThisPage?: { id: string; label: string }[];
  /** Scripts from the site's root, run after the page is parsed. */
  scripts?: string[];
}

/** What every page's section index lists: where things are on the home page, and the validator. */
export interface SiteIndex {
  sections: { id: string; name: string }[];
}

export const sectionId = (name: string): string => `section-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;

export function renderPage(page: Page, index: SiteIndex): string {
  const to = (target: string): string => relativeLink(page.path, target);
  const home = (anchor: string): string => `${to(sitePaths.home)}#${anchor}`;
  const crumbs = page.breadcrumbs.length === 0 ? '' : html`<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol>
${page.breadcrumbs.map((c) => html`<li>${c.to ? html`<a href="${to(c.to)}">${c.label}</a>` : c.label}</li>`)}<li><span aria-current="page">${page.title}</span></li>
</ol></nav>`;
  const onThisPage = page.onThisPage && page.onThisPage.length > 0 ? html`<h2 class="index-head">On this page</h2><ul>${page.onThisPage.map((p) => html`<li><a href="#${p.id}">${p.label}</a></li>`)}</ul>` : '';
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${page.title === SITE_NAME ? SITE_NAME : `${page.title} · ${SITE_NAME}`}</title>
<meta name="description" content="${page.description}">
<link rel="icon" href="${to(sitePaths.asset('favicon.svg'))}" type="image/svg+xml">
<link rel="stylesheet" href="${to(sitePaths.asset('site.css'))}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site-header">
<a class="site-name" href="${to(sitePaths.home)}">${SITE_NAME}</a>
<nav aria-label="Site"><ul>
<li><a href="${home('search')}">Search</a></li>
<li><a href="${home('events')}">Events</a></li>
<li><a href="${home('shared-types')}">Shared types</a></li>
<li><a href="${home('rest-api')}">REST API</a></li>
<li><a href="${to(sitePaths.validator)}"${page.path === sitePaths.validator ? html` aria-current="page"` : ''}>Validator</a></li>
</ul></nav>
</header>
<div class="layout">
<nav class="section-index" aria-label="Section index">
<details><summary>Sections</summary>
${onThisPage}
<h2 class="index-head">Event sections</h2>
<ul>${index.sections.map((s) => html`<li><a href="${home(s.id)}">${s.name}</a></li>`)}</ul>
<h2 class="index-head">More</h2>
<ul><li><a href="${home('shared-types')}">Shared types</a></li><li><a href="${home('rest-api')}">REST API</a></li><li><a href="${home('gaps')}">Gaps in the seed</a></li><li><a href="${home('files')}">Published files</a></li></ul>
</details>
</nav>
<main id="main" tabindex="-1">
${crumbs}
${page.main}
</main>
</div>
<footer class="site-footer">
<p>${joinHtml(
    [
      html`Built from the package’s published files:`,
      html`<a href="${to(sitePaths.published('generated/manifest.json'))}">manifest.json</a>`,
      html`<a href="${to(sitePaths.published('generated/docs/pages.json'))}">pages.json</a>`,
      html`<a href="${to(sitePaths.published('generated/asyncapi.yaml'))}">asyncapi.yaml</a>`,
      html`<a href="${to(sitePaths.published('generated/openapi.yaml'))}">openapi.yaml</a>`,
    ],
    ' ',
  )}</p>
</footer>
${(page.scripts ?? []).map((script) => html`<script src="${to(script)}" defer></script>\n`)}</body>
</html>
`;
  return document.markup;
}
