/**
 * The site's pages, each a pure function of the model: the home page (every event grouped as
 * the catalog groups them, the shared types, the REST operations, the seed's gaps, a search
 * box and a live validator), a page per event version, per shared type and per REST operation.
 */
import { reachableSharedTypes } from '../common/shared-types.js';
import { typeNotation } from '../common/type-notation.js';
import type { VersionStep } from '../compat/diff.js';
import type { Severity } from '../compat/rules.js';
import { fieldNotes, reachableApiTypes } from '../emit/api-json-schema.js';
import type { ApiFieldModel, ApiObjectTypeModel, ApiOperationModel, ApiTypeRef, CatalogModel, EventVersionModel, FieldModel, GapModel, ObjectTypeModel, TypeRef } from '../model.js';
import { esc, href, paths, prose, table, validatorBox, type Page } from './html.js';

/** What the pages need besides the model, computed once. */
export interface SiteContext {
  model: CatalogModel;
  /** Version history of each event type (compat diff of successive versions). */
  history: ReadonlyMap<string, readonly VersionStep[]>;
  /** A valid example message of each event version (`type@version`), checked at build. */
  examples: ReadonlyMap<string, unknown>;
  /** Event versions reaching each shared type, directly or through another. */
  usedBy: ReadonlyMap<string, readonly EventVersionModel[]>;
  /** Whether the REST client retries a status / a network error (the client's own rules). */
  retries: { status(operationId: string, status: number): boolean; networkError(method: string): boolean };
  /** Script of each event page's validator (from the site's root). */
  eventScript(event: EventVersionModel): string;
}

export const VALIDATOR_SCRIPT = paths.asset('validate-box.js');
export const HOME_SCRIPTS = [paths.asset('search-index.js'), paths.asset('search.js'), paths.asset('catalog-validator.js'), VALIDATOR_SCRIPT];

const VERDICT: Record<Severity, string> = { breaking: 'breaking', 'changes-types': 'changes types', compatible: 'additive' };
const ADVICE: Record<Severity, string> = {
  breaking: 'A consumer of the previous version cannot read this one as it was: hence a new version. Handle both while producers move.',
  'changes-types': 'The TypeScript types change; messages valid before stay valid.',
  compatible: 'Messages of the previous version are still valid; consumers may read the new fields when present.',
};

/** Shared types a type reference names (through arrays), linked. */
function typeLink(type: TypeRef, from: string): string {
  let base = type;
  while (base.kind === 'array') base = base.items;
  const code = `<code>${esc(typeNotation(type))}</code>`;
  return base.kind === 'named' ? `<a href="${esc(href(from, paths.sharedType(base.name)))}">${code}</a>` : code;
}

function fieldRows(fields: readonly FieldModel[], from: string): string {
  if (fields.length === 0) return '<p>No fields shown.</p>';
  // A description column only where the catalog describes a field.
  const described = fields.some((f) => f.description);
  return table(
    ['field', 'type', 'required', ...(described ? ['description'] : [])],
    fields.map((f) => [`<code>${esc(f.name)}</code>`, typeLink(f.type, from), `${f.optional ? 'optional' : 'required'}${f.nullable ? ', may be <code>null</code>' : ''}`, ...(described ? [f.description ? prose(f.description) : ''] : [])]),
  );
}

const eventLink = (from: string, event: { type: string; version: string }): string =>
  `<a href="${esc(href(from, paths.event(event.type, event.version)))}"><code>${esc(event.type)}</code> ${esc(event.version)}</a>`;

function gapText(gap: GapModel, from: string, model: CatalogModel): string {
  const linked = (key: string | undefined) => {
    const event = key === undefined ? undefined : model.events.find((e) => e.key === key);
    return event ? eventLink(from, event) : esc(key ?? '');
  };
  const where = gap.kind === 'not_shown' ? '' : [gap.after && `after ${linked(gap.after)}`, gap.before && `before ${linked(gap.before)}`].filter(Boolean).join(', ');
  const what =
    gap.kind === 'not_shown'
      ? `<strong>Not shown: ${esc(gap.topic)}</strong>`
      : gap.kind === 'events_not_shown'
        ? `<strong>Events not shown</strong>, ${where}`
        : `<strong>An unnamed event</strong>, ${where}; visible fields: ${gap.visibleFields.map((f) => `<code>${esc(f.name)}</code>`).join(', ')}`;
  return `${what} (${esc(gap.section)})<blockquote>${prose(gap.seed)}</blockquote>`;
}

// ---------------------------------------------------------------------------------------
// Home
// ---------------------------------------------------------------------------------------

export function homePage(ctx: SiteContext): Page {
  const { model } = ctx;
  const from = paths.home;
  const sections = new Map<string, EventVersionModel[]>();
  for (const event of model.events) sections.set(event.section, [...(sections.get(event.section) ?? []), event]);
  const groups = [...sections].map(([section, events]) => {
    const types = new Map<string, EventVersionModel[]>();
    for (const e of events) types.set(e.type, [...(types.get(e.type) ?? []), e]);
    const items = [...types].map(([type, versions]) => `<li><code>${esc(type)}</code> ${versions.map((v) => `<a href="${esc(href(from, paths.event(v.type, v.version)))}">${esc(v.version)}</a>`).join(' ')}</li>`);
    return `<details><summary>${esc(section)} <span class="count">(${types.size})</span></summary><ul class="events">${items.join('')}</ul></details>`;
  });
  const firstEvent = model.events[0];
  const main = [
    '<h1>Data-import event catalog</h1>',
    `<p>${model.events.length} event versions of ${new Set(model.events.map((e) => e.type)).size} event types, ${model.sharedTypes.length} shared types${model.api ? ` and ${model.api.operations.length} REST operations` : ''}, from the catalog this package is generated from.</p>`,
    '<search class="search">',
    '<label for="search">Search events by type or field name</label>',
    '<input type="search" id="search" placeholder="account.created, account_number…" autocomplete="off" aria-describedby="search-help" aria-controls="search-results">',
    '<p id="search-help" class="help">Type a name: event versions whose type or fields match are listed as links.</p>',
    '<ul id="search-results" class="results" aria-live="polite"></ul>',
    '</search>',
    '<h2>Events</h2>',
    ...groups,
    '<h2>Shared types</h2>',
    `<ul class="columns">${model.sharedTypes.map((t) => `<li><a href="${esc(href(from, paths.sharedType(t.name)))}"><code>${esc(t.name)}</code></a></li>`).join('')}</ul>`,
    ...(model.api
      ? [
          '<h2>REST operations</h2>',
          table(
            ['operation', 'method', 'path', 'summary'],
            model.api.operations.map((op) => [`<a href="${esc(href(from, paths.operation(op.operationId)))}"><code>${esc(op.operationId)}</code></a>`, esc(op.method), `<code>${esc(op.path)}</code>`, esc(op.summary ?? '')]),
          ),
        ]
      : []),
    '<h2>Gaps in the seed</h2>',
    model.gaps.length === 0 ? '<p>None.</p>' : `<ul class="gaps">${model.gaps.map((g) => `<li>${gapText(g, from, model)}</li>`).join('')}</ul>`,
    validatorBox(
      'Paste a bus message (any event of the catalog): the verdict is the one <code>decodeEvent</code> gives, from the package’s own validators.',
      firstEvent ? JSON.stringify(ctx.examples.get(firstEvent.key), null, 2) : '{}',
    ),
  ];
  return { path: from, title: 'Event catalog', main: main.join('\n'), scripts: HOME_SCRIPTS };
}

// ---------------------------------------------------------------------------------------
// An event version
// ---------------------------------------------------------------------------------------

function historySection(ctx: SiteContext, event: EventVersionModel, from: string): string {
  const steps = ctx.history.get(event.type) ?? [];
  const rows = steps.map((step) => {
    const version = step.to === event.version ? `<strong>${esc(step.to)}</strong> (this page)` : eventLink(from, { type: event.type, version: step.to });
    if (step.from === null) return [version, 'first version', '—', ''];
    const changes = step.changes.length === 0 ? 'no change to the payload' : `<ul>${step.changes.map((c) => `<li>${prose(c.message)} <span class="tag ${c.severity}">${VERDICT[c.severity]}</span></li>`).join('')}</ul>`;
    return [version, `from ${esc(step.from)}: ${changes}`, step.severity ? `<span class="tag ${step.severity}">${VERDICT[step.severity]}</span>` : 'no change', step.severity ? esc(ADVICE[step.severity]) : ''];
  });
  return ['<h2>Versions</h2>', table(['version', 'changes from the previous version', 'as the compatibility check classifies it', 'what it means'], rows)].join('\n');
}

export function eventPage(ctx: SiteContext, event: EventVersionModel): Page {
  const from = paths.event(event.type, event.version);
  const gaps = ctx.model.gaps.filter((g) => g.kind !== 'not_shown' && (g.after === event.key || g.before === event.key));
  const example = JSON.stringify(ctx.examples.get(event.key), null, 2);
  const main = [
    `<h1><code>${esc(event.type)}</code> ${esc(event.version)}</h1>`,
    ...(event.description ? [`<p>${prose(event.description)}</p>`] : []),
    ...(event.open ? [`<p class="note"><strong>Open event</strong>: the seed does not show every field, so unlisted payload properties are accepted in every mode. The seed:</p><blockquote>${prose(event.open.seed)}</blockquote>`] : []),
    ...gaps.map((g) => `<p class="note"><strong>Gap</strong>: ${gapText(g, from, ctx.model)}</p>`),
    `<p>Section: ${esc(event.section)}. TypeScript: <code>${esc(event.tsName)}Event</code>, payload <code>${esc(event.tsName)}Payload</code>; import <code>@data-import/event-catalog/events/${esc(event.type)}/${esc(event.version)}</code>.</p>`,
    '<h2>Payload fields</h2>',
    fieldRows(event.fields, from),
    historySection(ctx, event, from),
    '<h2>Example message</h2>',
    `<pre><code>${esc(example)}</code></pre>`,
    validatorBox(`Paste a message: the verdict is the one this event’s own validator (<code>events/${esc(event.type)}/${esc(event.version)}</code>) gives.`, example),
  ];
  return { path: from, title: `${event.type} ${event.version}`, main: main.join('\n'), scripts: [ctx.eventScript(event), VALIDATOR_SCRIPT] };
}

// ---------------------------------------------------------------------------------------
// A shared type
// ---------------------------------------------------------------------------------------

export function sharedTypePage(ctx: SiteContext, type: ObjectTypeModel): Page {
  const from = paths.sharedType(type.name);
  const users = ctx.usedBy.get(type.name) ?? [];
  const reaches = reachableSharedTypes(ctx.model.sharedTypes, type.fields).filter((t) => t.name !== type.name);
  const main = [
    `<h1>Shared type <code>${esc(type.name)}</code></h1>`,
    ...(type.description ? [`<p>${prose(type.description)}</p>`] : []),
    `<p>TypeScript: <code>${esc(type.tsName)}</code>.</p>`,
    '<h2>Fields</h2>',
    fieldRows(type.fields, from),
    ...(reaches.length > 0 ? ['<h2>Reaches</h2>', `<ul>${reaches.map((t) => `<li><a href="${esc(href(from, paths.sharedType(t.name)))}"><code>${esc(t.name)}</code></a></li>`).join('')}</ul>`] : []),
    '<h2>Used by</h2>',
    users.length === 0 ? '<p>No event version uses it.</p>' : `<ul class="columns">${users.map((e) => `<li>${eventLink(from, e)}</li>`).join('')}</ul>`,
  ];
  return { path: from, title: `Shared type ${type.name}`, main: main.join('\n') };
}

// ---------------------------------------------------------------------------------------
// A REST operation
// ---------------------------------------------------------------------------------------

function apiTypeText(type: ApiTypeRef, from: string): string {
  switch (type.kind) {
    case 'primitive':
    case 'format':
      return `<code>${esc(type.name)}</code>`;
    case 'array':
      return `${apiTypeText(type.items, from)}[]`;
    case 'named':
      return `<a href="#type-${esc(type.name)}"><code>${esc(type.name)}</code></a>`;
  }
}

function apiFieldRows(fields: readonly ApiFieldModel[], from: string): string {
  return table(
    ['field', 'type', 'required', 'description'],
    fields.map((f) => [
      `<code>${esc(f.name)}</code>`,
      `${apiTypeText(f.type, from)}${f.enum ? `, one of ${f.enum.map((v) => `<code>${esc(v)}</code>`).join(', ')}` : ''}`,
      `${f.optional ? 'optional' : 'required'}${f.nullable ? ', may be <code>null</code>' : ''}${f.default !== undefined ? `, default <code>${esc(String(f.default))}</code>` : ''}`,
      prose(fieldNotes(f) ?? ''),
    ]),
  );
}

/** Named API types an operation's bodies reach, each once, in catalog order. */
const operationTypes = (ctx: SiteContext, op: ApiOperationModel): ApiObjectTypeModel[] => reachableApiTypes(ctx.model.api!, [...(op.request ? [op.request] : []), ...op.responses.flatMap((r) => r.json ?? [])]);

export function operationPage(ctx: SiteContext, op: ApiOperationModel, example: { request?: unknown; response?: { status: number; body: unknown } }): Page {
  const from = paths.operation(op.operationId);
  const retried = op.responses.filter((r) => ctx.retries.status(op.operationId, r.status)).map((r) => r.status);
  const retryRule = [
    retried.length > 0 ? `The client retries ${retried.join(', ')} (exponential back-off with jitter, honouring <code>Retry-After</code>), as the seed says.` : 'The client retries no status of this operation: the seed names none to retry.',
    ctx.retries.networkError(op.method) ? 'A network error is retried (a GET is safe to send again).' : 'A network error is not retried: a POST that may have arrived is not sent twice.',
  ].join(' ');
  const main = [
    `<h1><code>${esc(op.operationId)}</code></h1>`,
    ...(op.summary ? [`<p class="lead">${esc(op.summary)}.</p>`] : []),
    `<p><code>${esc(op.method)} ${esc(op.path)}</code></p>`,
    ...(op.description ? [`<p>${prose(op.description)}</p>`] : []),
    ...(op.params.length > 0 ? ['<h2>Path parameters</h2>', apiFieldRows(op.params, from)] : []),
    ...(op.query.length > 0 ? ['<h2>Query parameters</h2>', '<p>Sent as the text <code>true</code> / <code>false</code>.</p>', apiFieldRows(op.query, from)] : []),
    ...(op.request ? ['<h2>Request body</h2>', `<p>${apiTypeText(op.request, from)}: strict, only documented fields may be sent.</p>`] : []),
    '<h2>Responses</h2>',
    table(
      ['status', 'body', 'when'],
      op.responses.map((r) => [
        String(r.status),
        r.notShown !== undefined ? `not shown: ${prose(r.notShown)}` : [...(r.json ?? []).map((t) => apiTypeText(t, from)), ...(r.text !== undefined ? [`the text <code>${esc(r.text)}</code>`] : [])].join(', or '),
        prose(r.description),
      ]),
    ),
    ...(op.emits.length > 0
      ? [
          '<h2>Events</h2>',
          `<p class="note">An assumption (the seed: ${ctx.model.api!.assumptions.map((a) => `“${esc(a.seed)}”`).join(' ')}): what the emulator, <code>npx event-catalog emulate</code>, publishes for each outcome.</p>`,
          table(
            ['outcome', 'publishes'],
            op.emits.map((e) => [`<code>${esc(e.outcome)}</code>`, e.events.map((event) => eventLink(from, event)).join(', ')]),
          ),
        ]
      : []),
    '<h2>Retries</h2>',
    `<p>${retryRule}</p>`,
    '<h2>Error body</h2>',
    '<p>A 400 answers in the service’s validation error body: <code>{ detail, code, errors: [{ detail, code, attr }] }</code>. <code>attr</code> is where the issue is: a body field’s dot path (<code>notes.0.created_at</code>), a query parameter as <code>?name</code>, a path parameter as <code>{name}</code>.</p>',
    ...(example.request !== undefined ? ['<h2>Example request body</h2>', `<pre><code>${esc(JSON.stringify(example.request, null, 2))}</code></pre>`] : []),
    ...(example.response ? [`<h2>Example response (${example.response.status})</h2>`, `<pre><code>${esc(JSON.stringify(example.response.body, null, 2))}</code></pre>`] : []),
    '<h2>Types</h2>',
    ...operationTypes(ctx, op).map((t) => [`<h3 id="type-${esc(t.name)}"><code>${esc(t.name)}</code></h3>`, ...(t.description ? [`<p>${prose(t.description)}</p>`] : []), ...(t.open ? [`<p class="note">Open: ${prose(t.open.seed)} Other fields may be sent.</p>`] : []), ...(t.atLeastOneOf ? [`<p>At least one of ${t.atLeastOneOf.map((n) => `<code>${esc(n)}</code>`).join(', ')} is required.</p>`] : []), apiFieldRows(t.fields, from)].join('\n')),
  ];
  return { path: from, title: `${op.operationId} (REST)`, main: main.join('\n') };
}
