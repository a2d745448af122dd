/** A shared type's page: its fields as a tree, the shared types it reaches, and every event version using it. */
import { fieldTreeView } from '../html/field-tree-view.js';
import type { Page } from '../html/layout.js';
import { html } from '../html/template.js';
import type { SharedTypeView } from '../model/catalog-view.js';
import { relativeLink, sitePaths } from '../site-paths.js';

export function sharedTypePage(view: SharedTypeView): Page {
  const { type } = view;
  const path = sitePaths.sharedType(type.name);
  const link = (to: string): string => relativeLink(path, to);
  const main = html`<h1>Shared type <code>${type.name}</code></h1>
<p class="lead">From the seed’s section ${type.section}. TypeScript: <code>${type.tsName}</code>. JSON Schema: <a href="${link(sitePaths.published(`generated/${view.schema}`))}">${type.name}.schema.json</a>.</p>
<section id="fields" aria-labelledby="fields-heading">
<h2 id="fields-heading">Fields</h2>
${fieldTreeView(view.tree, { namedType: (name) => link(sitePaths.sharedType(name)) })}
</section>
${
  view.reaches.length > 0
    ? html`<section id="reaches" aria-labelledby="reaches-heading"><h2 id="reaches-heading">Shared types inside it</h2>
<ul class="type-list">${view.reaches.map((name) => html`<li><a href="${link(sitePaths.sharedType(name))}"><code>${name}</code></a></li>`)}</ul></section>`
    : ''
}
<section id="used-by" aria-labelledby="used-by-heading">
<h2 id="used-by-heading">Used by</h2>
${
  view.usedBy.length === 0
    ? html`<p>No event version uses it.</p>`
    : html`<p>${view.usedBy.length} event ${view.usedBy.length === 1 ? 'version carries' : 'versions carry'} it, directly or inside another shared type.</p>
<ul class="event-list">${view.usedBy.map((e) => html`<li><a class="event-name" href="${link(sitePaths.event(e.event.type, e.event.version))}"><code>${e.event.type}</code> ${e.event.version}</a>${e.latest && e.versions.length > 1 ? html` <span class="badge latest">latest</span>` : ''}</li>`)}</ul>`
}
</section>`;
  return {
    path,
    title: `Shared type ${type.name}`,
    description: `The shared type ${type.name}: its fields and the event versions that use it.`,
    breadcrumbs: [
      { label: 'Home', to: sitePaths.home },
      { label: 'Shared types', to: `${sitePaths.home}#shared-types` },
    ],
    main,
    onThisPage: [
      { id: 'fields', label: 'Fields' },
      ...(view.reaches.length > 0 ? [{ id: 'reaches', label: 'Shared types inside it' }] : []),
      { id: 'used-by', label: 'Used by' },
    ],
    scripts: [sitePaths.asset('site.js')],
  };
}
