/**
 * An event version's page: its payload as a tree through shared types, the versions of its
 * type (latest marked) and the diff between any two, classified by the compatibility rules;
 * the REST operations assumed to publish it; a checked example; links to its JSON Schemas;
 * and a live validator running only this event's entry from the built package.
 */
import { codeBlock } from '../html/code-block.js';
import { diffView, verdictView } from '../html/diff-view.js';
import { fieldTreeView } from '../html/field-tree-view.js';
import { gapText } from '../html/gap-text.js';
import { sectionId, type Page } from '../html/layout.js';
import { prose } from '../html/prose.js';
import { stackedTable } from '../html/table.js';
import { html, type Html } from '../html/template.js';
import { validatorBox } from '../html/validator-box.js';
import type { CatalogView, EventView } from '../model/catalog-view.js';
import { flattenTree } from '../model/field-tree.js';
import { plainWords } from '../model/plain-words.js';
import { relativeLink, sitePaths } from '../site-paths.js';

export const PACKAGE_NAME = '@data-import/event-catalog';

/** What the REST API's pages assume where the seeds are silent (which operation emits which event), with the seeds' words folded beneath. */
export function assumptionsNote(catalog: CatalogView, lead: Html): Html {
  const assumptions = catalog.pages.api?.assumptions ?? [];
  return html`<div class="note assumption"><p><strong>Assumption:</strong> ${lead}</p>${assumptions.map(
    (a) => html`<details class="seed"><summary>The seed’s words, and what is assumed</summary><blockquote>${prose(a.seed)}</blockquote><p>Assumed: ${prose(a.assumed)}</p></details>`,
  )}</div>`;
}

function versionsSection(view: EventView, catalog: CatalogView, link: (to: string) => string): Html {
  if (view.versions.length === 1) return html`<p>This is the only version of <code>${view.event.type}</code>.</p>`;
  const rows = view.versions.map((version, i) => {
    const previous = view.versions[i - 1];
    const step = previous ? view.diffs.find((d) => d.from === previous.version && d.to === version.version) : undefined;
    const name = version === view.event ? html`<strong aria-current="page">${version.version}</strong> (this page)` : html`<a href="${link(sitePaths.event(version.type, version.version))}">${version.version}</a>`;
    return [
      html`${name}${i === view.versions.length - 1 ? html` <span class="badge latest">latest</span>` : ''}`,
      step ? verdictView(step, catalog.pages.words) : 'first version',
    ];
  });
  const index = view.versions.indexOf(view.event);
  const other = view.versions[index - 1] ?? view.versions[index + 1]!;
  const shownFirst = index > 0 ? { from: other.version, to: view.event.version } : { from: view.event.version, to: other.version };
  return html`${stackedTable(`Versions of ${view.event.type}`, ['Version', 'Since the previous'], rows)}
<h3 id="compare">Compare any two versions</h3>
${diffView(
  view.versions.map((v) => v.version),
  view.diffs,
  catalog.pages,
  shownFirst,
)}`;
}

export function eventPage(view: EventView, catalog: CatalogView): Page {
  const { event } = view;
  const path = sitePaths.event(event.type, event.version);
  const link = (to: string): string => relativeLink(path, to);
  const latest = view.versions[view.versions.length - 1]!;
  const example = JSON.stringify(view.example, null, 2);
  const fieldCount = flattenTree(view.tree).length;
  const eventLink = (key: string): Html => {
    const target = catalog.events.find((e) => e.key === key);
    return target ? html`<a href="${link(sitePaths.event(target.event.type, target.event.version))}"><code>${target.event.type}</code> ${target.event.version}</a>` : html`<code>${key}</code>`;
  };
  const main = html`<h1><code>${event.type}</code> <span class="version">${event.version}</span>${view.latest ? html` <span class="badge latest">latest</span>` : ''}</h1>
<p class="lead">An event of the section ${section(event.section, link)}.${
    view.latest ? '' : html` The latest version is <a href="${link(sitePaths.event(latest.type, latest.version))}">${latest.version}</a>.`
  }</p>
${view.versions.length > 1 ? html`<nav class="version-chips" aria-label="Versions of ${event.type}"><ul>${view.versions.map(
    (v, i) =>
      html`<li><a class="chip${i === view.versions.length - 1 ? ' latest' : ''}" href="${link(sitePaths.event(v.type, v.version))}"${v === event ? html` aria-current="page"` : ''}>${v.version}${
        i === view.versions.length - 1 ? html` <span class="latest-mark">latest</span>` : ''
      }</a></li>`,
  )}</ul></nav>` : ''}
${view.page.openSeed !== undefined ? html`<div class="note"><p><strong>Open event:</strong> the seed does not show all of its fields, so payload fields not listed here are accepted, in strict mode too.</p><details class="seed"><summary>The seed’s words</summary><blockquote>${prose(plainWords(view.page.openSeed))}</blockquote></details></div>` : ''}
${view.gaps.map((gap) => html`<div class="note">${gapText(gap, eventLink)}</div>`)}
${
  view.publishedBy.length > 0
    ? assumptionsNote(
        catalog,
        html`published by the REST API when ${view.publishedBy.map((p, i) => html`${i > 0 ? ', or ' : ''}<a href="${link(sitePaths.operation(p.operationId))}"><code>${p.operationId}</code></a> ends <em>${p.outcome.replace(/_/g, ' ')}</em>`)}. This is how the contract emulator behaves; the seed does not say which operation emits which event.`,
      )
    : ''
}

<section id="payload" aria-labelledby="payload-heading">
<h2 id="payload-heading">Payload</h2>
<p>${fieldCount === 0 ? 'The seed shows no field of this payload.' : `${fieldCount} ${fieldCount === 1 ? 'field' : 'fields'}, shared types expanded in place. Required fields are in every valid message; optional ones may be left out. No field may be null unless it says so.`}</p>
${fieldTreeView(view.tree, { namedType: (name) => link(sitePaths.sharedType(name)) })}
</section>

<section id="package" aria-labelledby="package-heading">
<h2 id="package-heading">In the package</h2>
<dl class="facts">
<dt>JSON Schema</dt><dd><a href="${link(sitePaths.published(`generated/${event.schema}`))}">message.schema.json</a> · <a href="${link(sitePaths.published(`generated/${event.payloadSchema}`))}">payload.schema.json</a></dd>
<dt>TypeScript</dt><dd><code>${event.tsName}Event</code>, its payload <code>${event.tsName}Payload</code></dd>
<dt>Its own validator</dt><dd><code>import { ${view.entryExport} } from '${PACKAGE_NAME}/events/${event.type}/${event.version}'</code>, then <code>${view.entryExport}.validate(message)</code></dd>
<dt>AsyncAPI</dt><dd>message <code>${event.type}-${event.version}</code> in <a href="${link(sitePaths.published('generated/asyncapi.yaml'))}">asyncapi.yaml</a></dd>
</dl>
</section>

<section id="versions" aria-labelledby="versions-heading">
<h2 id="versions-heading">Versions</h2>
${versionsSection(view, catalog, link)}
</section>

<section id="example" aria-labelledby="example-heading">
<h2 id="example-heading">Example message</h2>
<p>Every field filled in, checked by this event’s validator in strict mode when the site was built.</p>
${codeBlock('example-message', 'Example message', example)}
</section>

${validatorBox({
  validator: link(sitePaths.eventValidator(event.type, event.version)),
  requires: [link(sitePaths.eventRuntime)],
  intro: html`Paste a message: the verdict is the one this event’s own validator (<code>${PACKAGE_NAME}/events/${event.type}/${event.version}</code>) gives. For any event of the catalog, use the <a href="${link(sitePaths.validator)}">validator page</a>.`,
  example,
})}`;
  return {
    path,
    title: `${event.type} ${event.version}`,
    description: `The ${event.type} ${event.version} event: its payload fields, versions, an example and a live validator.`,
    breadcrumbs: [
      { label: 'Home', to: sitePaths.home },
      { label: event.section, to: `${sitePaths.home}#${sectionId(event.section)}` },
    ],
    main,
    onThisPage: [
      { id: 'payload', label: 'Payload' },
      { id: 'package', label: 'In the package' },
      { id: 'versions', label: 'Versions' },
      { id: 'example', label: 'Example message' },
      { id: 'validator-heading', label: 'Validate a message' },
    ],
    scripts: [sitePaths.asset('site.js'), sitePaths.asset('validator.js')],
  };
}

function section(name: string, link: (to: string) => string): Html {
  return html`<a href="${link(sitePaths.home)}#${sectionId(name)}">${name}</a>`;
}
