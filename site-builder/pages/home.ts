/**
 * The home page: a search over everything, every event type grouped by section (the whole
 * name links its latest version, each version its own page), the shared types, the REST
 * operations, the gaps of the seed and the published files. No validator is loaded here.
 */
import { gapText } from '../html/gap-text.js';
import { SITE_NAME, sectionId, type Page } from '../html/layout.js';
import { stackedTable } from '../html/table.js';
import { html, type Html } from '../html/template.js';
import type { CatalogView, EventTypeView } from '../model/catalog-view.js';
import { relativeLink, sitePaths } from '../site-paths.js';

const from = sitePaths.home;
const link = (to: string): string => relativeLink(from, to);

export const HOME_SCRIPTS = [sitePaths.asset('site.js'), sitePaths.asset('search-data.js'), sitePaths.asset('search.js')];

function eventTypeItem(view: EventTypeView): Html {
  const latest = view.versions[view.versions.length - 1]!;
  return html`<li><a class="event-name" href="${link(sitePaths.event(view.type, latest.event.version))}"><code>${view.type}</code></a>
<span class="versions">${view.versions.map(
    (v) => html`<a class="chip${v.latest ? ' latest' : ''}" href="${link(sitePaths.event(v.event.type, v.event.version))}"><span class="visually-hidden">${view.type} </span>${v.event.version}${v.latest && view.versions.length > 1 ? html` <span class="latest-mark">latest</span>` : ''}</a>`,
  )}</span></li>`;
}

export function homePage(view: CatalogView): Page {
  const typeCount = view.eventTypes.length;
  const eventLink = (key: string): Html => {
    const event = view.events.find((e) => e.key === key);
    return event ? html`<a href="${link(sitePaths.event(event.event.type, event.event.version))}"><code>${event.event.type}</code> ${event.event.version}</a>` : html`<code>${key}</code>`;
  };
  const main = html`<h1>Data-import event catalog</h1>
<p class="lead">The data-import service’s events and REST API, as the package <code>@data-import/event-catalog</code> publishes them. Check a message with the <a href="${link(sitePaths.validator)}">validator</a>.</p>

<section id="search" class="search" aria-labelledby="search-heading">
<h2 id="search-heading" class="visually-hidden">Search</h2>
<form role="search">
<label for="search-box">Event types, shared types, REST operations and field names</label>
<input type="search" id="search-box" name="q" placeholder="account_number, createNotes, ledger…" autocomplete="off" spellcheck="false" aria-describedby="search-hint" aria-controls="search-results">
</form>
<p id="search-hint" class="hint">Press <kbd>/</kbd> to search from anywhere on this page. Words inside names match (<code>document_representation</code>), and so do small typos. Enter opens the first result.</p>
<div id="search-results" class="results" aria-live="polite"></div>
</section>

<section id="events" aria-labelledby="events-heading">
<h2 id="events-heading">Events</h2>
<p>${view.events.length} versions of ${typeCount} event types, by the seed’s sections. Each name opens the latest version; the chips open each version.</p>
${view.sections.map(
  (section) => html`<section class="event-section" id="${sectionId(section.name)}" aria-labelledby="${sectionId(section.name)}-heading">
<h3 id="${sectionId(section.name)}-heading">${section.name} <span class="count">${section.types.length} ${section.types.length === 1 ? 'type' : 'types'}</span></h3>
<ul class="event-list">
${section.types.map(eventTypeItem)}
</ul>
</section>`,
)}
</section>

<section id="shared-types" aria-labelledby="shared-types-heading">
<h2 id="shared-types-heading">Shared types</h2>
<p>Object types several events use, by their full names in the seed.</p>
<ul class="type-list">${view.sharedTypes.map((t) => html`<li><a href="${link(sitePaths.sharedType(t.type.name))}"><code>${t.type.name}</code></a> <span class="count">${t.usedBy.length === 0 ? 'used by no event' : `${t.usedBy.length} event ${t.usedBy.length === 1 ? 'version' : 'versions'}`}</span></li>`)}</ul>
</section>

<section id="rest-api" aria-labelledby="rest-api-heading">
<h2 id="rest-api-heading">REST API</h2>
<p>Below the base address ${view.base.template ? html`<code>${view.base.template}</code>` : 'of the service'}, each request with <code>Authorization: Token …</code>.</p>
${stackedTable(
  'REST operations',
  ['Operation', 'Method', 'Path', 'Summary'],
  view.operations.map((op) => [
    html`<a href="${link(sitePaths.operation(op.operationId))}"><code>${op.operationId}</code></a>`,
    html`<span class="method ${op.method.toLowerCase()}">${op.method}</span>`,
    html`<code class="path">${op.path}</code>`,
    op.summary ?? '',
  ]),
  { captionHidden: true },
)}
</section>

<section id="gaps" aria-labelledby="gaps-heading">
<h2 id="gaps-heading">Gaps in the seed</h2>
<p>What the source documents do not show is recorded, never invented.</p>
<ul class="gaps">${view.gaps.map((gap) => html`<li>${gapText(gap, eventLink)}</li>`)}</ul>
</section>

<section id="files" aria-labelledby="files-heading">
<h2 id="files-heading">Published files</h2>
<ul class="files">
<li><a href="${link(sitePaths.published('generated/asyncapi.yaml'))}">asyncapi.yaml</a>: the events as AsyncAPI 3.0</li>
<li><a href="${link(sitePaths.published('generated/openapi.yaml'))}">openapi.yaml</a>: the REST API as OpenAPI 3.1</li>
<li><a href="${link(sitePaths.published('generated/manifest.json'))}">manifest.json</a>: every event version and shared type with its fields</li>
<li><a href="${link(sitePaths.published('generated/docs/pages.json'))}">docs/pages.json</a>: what these pages and the Markdown reference show besides, such as the diff between any two versions of an event type</li>
<li>JSON Schemas: linked from each event version, shared type and REST operation</li>
</ul>
</section>`;
  return {
    path: from,
    title: SITE_NAME,
    description: `Every event, shared type and REST operation of the data-import service: ${view.events.length} event versions, searchable, with live validation.`,
    breadcrumbs: [],
    main,
    scripts: HOME_SCRIPTS,
  };
}
