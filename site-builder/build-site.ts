/**
 * The whole site in memory: the pages (home, validator, a page per event version, shared type
 * and REST operation), the stylesheet, favicon and scripts, and the published files the pages
 * link to (manifest, AsyncAPI and OpenAPI documents, JSON Schemas), copied as published.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleScripts, type SiteFile } from './bundle.js';
import { renderPage, sectionId, type Page, type SiteIndex } from './html/layout.js';
import { catalogView } from './model/catalog-view.js';
import { searchData } from './model/search-data.js';
import { eventPage } from './pages/event.js';
import { homePage } from './pages/home.js';
import { operationPage } from './pages/operation.js';
import { sharedTypePage } from './pages/shared-type.js';
import { validatorPage } from './pages/validator.js';
import type { PublishedPackage } from './read-package.js';
import { sitePaths } from './site-paths.js';

const BROWSER = fileURLToPath(new URL('browser/', import.meta.url));

/** Published files the pages link to, from `generated/`. */
const PUBLISHED = ['manifest.json', 'docs/pages.json', 'asyncapi.yaml', 'openapi.yaml', 'schemas', 'api/schemas'];

function publishedFiles(root: string): SiteFile[] {
  const generated = join(root, 'generated');
  return PUBLISHED.flatMap((entry) => {
    const at = join(generated, entry);
    const files = entry.includes('.')
      ? [at]
      : readdirSync(at, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => join(e.parentPath, e.name));
    return files.map((file) => ({ path: sitePaths.published(`generated/${relative(generated, file).split('\\').join('/')}`), contents: readFileSync(file) }));
  });
}

export interface SiteBuild {
  files: SiteFile[];
  pages: number;
}

export async function buildSite(pkg: PublishedPackage): Promise<SiteBuild> {
  const view = catalogView(pkg);
  const index: SiteIndex = { sections: view.sections.map((s) => ({ id: sectionId(s.name), name: s.name })) };
  const pages: Page[] = [
    homePage(view),
    validatorPage(view),
    ...view.events.map((event) => eventPage(event, view)),
    ...view.sharedTypes.map((type) => sharedTypePage(type)),
    ...view.operations.map((op) => operationPage(op, view)),
  ];
  const latest = new Set(view.events.filter((e) => e.latest).map((e) => e.key));
  const search = searchData(pkg.manifest, view.operations, (e) => latest.has(`${e.type}@${e.version}`));
  const files: SiteFile[] = [
    ...pages.map((page) => ({ path: page.path, contents: renderPage(page, index) })),
    { path: sitePaths.asset('site.css'), contents: readFileSync(join(BROWSER, 'site.css'), 'utf8') },
    { path: sitePaths.asset('favicon.svg'), contents: readFileSync(join(BROWSER, 'favicon.svg'), 'utf8') },
    // `<` escaped: nothing in the data can end a script element.
    { path: sitePaths.asset('search-data.js'), contents: `window.SEARCH_DATA = ${JSON.stringify(search).replace(/</g, '\\u003c')};\n` },
    ...(await bundleScripts(pkg.dist, pkg.manifest.events)),
    ...publishedFiles(pkg.root),
  ];
  return { files, pages: pages.length };
}
