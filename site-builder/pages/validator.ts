/** The validator's own page: any message of the catalog, checked by the built package's `decodeEvent`, off the main thread. */
import type { Page } from '../html/layout.js';
import { html } from '../html/template.js';
import { validatorBox } from '../html/validator-box.js';
import type { CatalogView } from '../model/catalog-view.js';
import { relativeLink, sitePaths } from '../site-paths.js';
import { PACKAGE_NAME } from './event.js';

export function validatorPage(view: CatalogView): Page {
  const path = sitePaths.validator;
  const link = (to: string): string => relativeLink(path, to);
  const first = view.events.find((e) => e.event.fields.length > 1) ?? view.events[0];
  const main = html`<h1>Validator</h1>
<p class="lead">Paste a bus message of any event of the catalog. It is checked as you type by the package’s own <code>decodeEvent</code> (from <code>${PACKAGE_NAME}</code>), in the background, so even a message of several megabytes leaves the page responsive.</p>
<p>To check a file of many messages (JSON Lines), run <code>npx event-catalog validate messages.jsonl</code>.</p>
${validatorBox({
  validator: link(sitePaths.catalogValidator),
  intro: html`The verdict names the event and version, or the error code and every issue with its JSON Pointer. Each event’s page has a validator of its own.`,
  example: first ? JSON.stringify(first.example, null, 2) : '{}',
  rows: 18,
})}`;
  return {
    path,
    title: 'Validator',
    description: 'Check a bus message against the data-import event catalog with the package’s own validators.',
    breadcrumbs: [{ label: 'Home', to: sitePaths.home }],
    main,
    scripts: [sitePaths.asset('site.js'), sitePaths.asset('validator.js')],
  };
}
