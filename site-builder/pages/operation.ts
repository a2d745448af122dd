/**
 * A REST operation's page: method badge, path and base URL, the `Authorization: Token …`
 * header, parameters and bodies as field trees, responses, the client's retry rule, curl and
 * package-client snippets (with copy buttons) built from a checked example, the events it is
 * assumed to publish, and links to the published OpenAPI, AsyncAPI and JSON Schema files.
 */
import { codeBlock } from '../html/code-block.js';
import { fieldTreeView } from '../html/field-tree-view.js';
import type { Page } from '../html/layout.js';
import { prose } from '../html/prose.js';
import { stackedTable } from '../html/table.js';
import { html, joinHtml, type Html } from '../html/template.js';
import type { CatalogView } from '../model/catalog-view.js';
import type { RestBody, RestOperation } from '../model/rest-operations.js';
import { relativeLink, sitePaths } from '../site-paths.js';
import { assumptionsNote, PACKAGE_NAME } from './event.js';

const TOKEN_VARIABLE = 'ACCESS_TOKEN';

/** `/v1/…/{code}/` with the example's parameters filled in. */
const filledPath = (op: RestOperation): string => op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(op.example.params?.[name] ?? name));

/** A shell word in single quotes (a `'` inside closes, escapes and reopens). */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function curlSnippet(op: RestOperation, base: string): string {
  const lines = [`curl -X ${op.method} ${shellQuote(`${base}${filledPath(op)}`)}`, `  -H "Authorization: Token $${TOKEN_VARIABLE}"`];
  if (op.example.request !== undefined) lines.push(`  -H 'Content-Type: application/json'`, `  --data ${shellQuote(JSON.stringify(op.example.request, null, 2))}`);
  return lines.join(' \\\n');
}

function clientSnippet(op: RestOperation, base: string): string {
  const argument = op.method === 'GET' ? op.example.params ?? {} : op.example.request;
  const call = `await api.${op.operationId}(${JSON.stringify(argument, null, 2)})`;
  return [
    `import { createDataImportClient } from '${PACKAGE_NAME}/rest';`,
    '',
    `const api = createDataImportClient({ baseUrl: '${base}', token: process.env.${TOKEN_VARIABLE}! });`,
    `const result = ${call};`,
    `if ('error' in result) console.error(result.error.message, result.error.issues);`,
    `else console.log(result.status, result.body);`,
  ].join('\n');
}

function bodyView(body: RestBody, typeAnchor: (name: string) => string | undefined): Html {
  if (body.text !== undefined) return html`<p>The text <q>${body.text}</q>.</p>`;
  return html`<p>${body.named !== undefined ? html`<code>${body.named}</code>` : body.typeText}</p>
${body.fields.length > 0 ? fieldTreeView(body.fields, { namedType: typeAnchor }) : ''}`;
}

/** The seed's rules on sending the request again (the page model's, which the package's client keeps), status by status in its words. */
function retryRule(op: RestOperation): Html {
  const rules = op.responses.filter((r) => r.retry);
  const retried = rules.filter((r) => r.retry!.retried).map((r) => r.status);
  return html`<p>${
    retried.length > 0
      ? html`The package’s client retries ${joinHtml(retried.map((s) => html`<strong>${s}</strong>`), ' and ')}, as the seed says, with exponential back-off and full jitter, honouring <code>Retry-After</code> (4 attempts, at most 30 s, by default).`
      : 'The package’s client retries no status of this operation: the seed names none to retry.'
  } Any other status is not retried. ${op.method === 'GET' ? 'A network error is retried: a GET is safe to send again.' : 'A network error is not retried: a POST that may have arrived is not sent twice.'}</p>${
    rules.length > 0
      ? html`<ul class="retry-rules">${rules.map((r) => html`<li><strong>${r.status}</strong>: ${r.retry!.retried ? 'sent again' : 'not sent again'}; the seed: “${r.retry!.seed}”</li>`)}</ul>`
      : ''
  }`;
}

export function operationPage(op: RestOperation, catalog: CatalogView): Page {
  const path = sitePaths.operation(op.operationId);
  const link = (to: string): string => relativeLink(path, to);
  const base = catalog.base.example;
  const typeAnchor = (): undefined => undefined;
  const schemaLinks = html`<a href="${link(sitePaths.published('generated/openapi.yaml'))}">openapi.yaml</a> (operation <code>${op.operationId}</code>) · JSON Schemas: ${joinHtml(op.schemaFiles.map((file) => html`<a href="${link(sitePaths.published(`generated/${file}`))}">${file.slice(file.lastIndexOf('/') + 1).replace('.schema.json', '')}</a>`), ', ')} · <a href="${link(sitePaths.published('generated/asyncapi.yaml'))}">asyncapi.yaml</a> (the events)`;
  const main = html`<h1><span class="method ${op.method.toLowerCase()}">${op.method}</span> <code>${op.operationId}</code></h1>
${op.summary ? html`<p class="lead">${op.summary}.</p>` : ''}
<dl class="facts">
<dt>Request</dt><dd><code class="path">${op.method} ${op.path}</code></dd>
<dt>Base URL</dt><dd><code>${catalog.base.template}</code>${catalog.base.description ? html`: ${catalog.base.description}` : ''} The examples use <code>${base}</code>.</dd>
<dt>Header</dt><dd><code>Authorization: Token &lt;${TOKEN_VARIABLE}&gt;</code>, the token from the platform’s <code>ObtainPlatformToken</code> mutation.</dd>
<dt>Files</dt><dd>${schemaLinks}</dd>
</dl>
${op.description ? html`<p>${prose(op.description)}</p>` : ''}

<section id="try" aria-labelledby="try-heading">
<h2 id="try-heading">Call it</h2>
<p>An example ${op.example.request !== undefined ? 'request, checked by the package’s request validator when the site was built' : 'call'}.</p>
${codeBlock('curl', 'curl', curlSnippet(op, base))}
${codeBlock('client', `With ${PACKAGE_NAME}/rest`, clientSnippet(op, base))}
</section>

${op.params.length > 0 ? html`<section id="path-parameters" aria-labelledby="path-parameters-heading"><h2 id="path-parameters-heading">Path parameters</h2>${fieldTreeView(op.params, { namedType: typeAnchor })}</section>` : ''}
${op.query.length > 0 ? html`<section id="query-parameters" aria-labelledby="query-parameters-heading"><h2 id="query-parameters-heading">Query parameters</h2><p>Sent as the text <code>true</code> or <code>false</code>.</p>${fieldTreeView(op.query, { namedType: typeAnchor })}</section>` : ''}
${op.request ? html`<section id="request" aria-labelledby="request-heading"><h2 id="request-heading">Request body</h2><p>Strict: only the fields listed may be sent, except inside objects marked open.</p>${bodyView(op.request, typeAnchor)}</section>` : ''}

<section id="responses" aria-labelledby="responses-heading">
<h2 id="responses-heading">Responses</h2>
<p>Tolerant: fields added later are accepted.</p>
${op.responses.map(
  (r) => html`<section class="response" aria-labelledby="status-${r.status}"><h3 id="status-${r.status}"><span class="status s${String(r.status)[0]}">${r.status}</span> ${prose(r.description.replace(/\. Body: .*$/, ''))}</h3>
${r.notShown ? html`<p>Body not shown in the seed.</p>` : r.bodies.length === 0 ? html`<p>No body.</p>` : r.bodies.map((b, i) => html`${i > 0 ? html`<p>or</p>` : ''}${bodyView(b, typeAnchor)}`)}
${r.retry ? html`<p class="note">${r.retry.retried ? 'The client retries this status' : 'The client does not retry this status'}: the seed says “${r.retry.seed}”.</p>` : ''}</section>`,
)}
${op.example.response ? html`<h3 id="example-response">Example response (${op.example.response.status})</h3>${codeBlock('response', `Example ${op.example.response.status} response`, JSON.stringify(op.example.response.body, null, 2))}` : ''}
</section>

<section id="retries" aria-labelledby="retries-heading">
<h2 id="retries-heading">Retries</h2>
${retryRule(op)}
</section>

${
  op.events.length > 0
    ? html`<section id="events" aria-labelledby="events-heading"><h2 id="events-heading">Events it publishes</h2>
${assumptionsNote(catalog, html`the seed does not say which operation emits which event. These are the events the contract emulator (<code>npx event-catalog emulate</code>) publishes for each outcome.`)}
${stackedTable(
  `Events ${op.operationId} publishes`,
  ['Outcome', 'Publishes'],
  op.events.map((o) => [o.outcome.replace(/_/g, ' '), joinHtml(o.events.map((e) => html`<a href="${link(sitePaths.event(e.type, e.version))}"><code>${e.type}</code> ${e.version}</a>`), ', ')]),
)}</section>`
    : ''
}

<section id="errors" aria-labelledby="errors-heading">
<h2 id="errors-heading">Validation errors</h2>
<p>A 400 answers in the service’s validation error body: <code>{ detail, code, errors: [{ detail, code, attr }] }</code>. <code>attr</code> says where: a body field’s dot path (<code>notes.0.created_at</code>), a query parameter as <code>?name</code>, a path parameter as <code>{name}</code>. The package’s client checks a request before sending it, so such a request never leaves the process.</p>
</section>`;
  return {
    path,
    title: `${op.operationId} (REST)`,
    description: `${op.method} ${op.path}: ${op.summary ?? op.operationId}. Parameters, bodies, responses, retries and examples.`,
    breadcrumbs: [
      { label: 'Home', to: sitePaths.home },
      { label: 'REST API', to: `${sitePaths.home}#rest-api` },
    ],
    main,
    onThisPage: [
      { id: 'try', label: 'Call it' },
      ...(op.params.length > 0 ? [{ id: 'path-parameters', label: 'Path parameters' }] : []),
      ...(op.query.length > 0 ? [{ id: 'query-parameters', label: 'Query parameters' }] : []),
      ...(op.request ? [{ id: 'request', label: 'Request body' }] : []),
      { id: 'responses', label: 'Responses' },
      { id: 'retries', label: 'Retries' },
      ...(op.events.length > 0 ? [{ id: 'events', label: 'Events it publishes' }] : []),
    ],
    scripts: [sitePaths.asset('site.js')],
  };
}
