/**
 * `docs/`: a Markdown reference of the catalog, for people, rendered from the page model
 * (`page-model.ts`), which is published beside it as `docs/pages.json` for the site.
 *
 * - `docs/README.md`: an index by domain (`domainsOf`) with counts, and every gap in the
 *   seed's words;
 * - `docs/<domain>.md`: a section per event type (catalog order) with its versions, a field
 *   table per version (name, type linked to its shared type, required or optional), what it
 *   extends (linked), open and gap notes quoted from the seed, and the version history (the
 *   page model's diff of each version with the one before, and the readers it breaks, in the
 *   words the site uses too); the domains of one event share
 *   `docs/one-event-domains.md`, so that every page holds several events;
 * - `docs/shared-types.md`: every shared type, its fields, and the event versions using it;
 * - `docs/fragments.md`: every fragment (`BASE`, …) the pages say an event extends.
 *
 * Anchors are explicit (`<a id="account.created-v1">`): the event's catalog name, the event
 * type, the shared type's name. Every page starts with the banner as an HTML comment.
 */
import type { PageEvent, PageEventType, PageField, PageGap, PageModel, PageSharedType, VersionDiff } from '../../runtime/contract/page-model.js';
import { bannerText } from '../common/banner.js';
import { markdownText } from '../common/safe-text.js';
import { byCodeUnit } from '../../runtime/contract/code-unit-order.js';
import { blockQuote, inlineCode, plural } from '../common/text.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { emitPageModel, pageModelOf } from './page-model.js';

export const DOCS_DIR = 'docs';
const INDEX = 'README.md';
const SHARED = 'shared-types.md';

const FRAGMENTS = 'fragments.md';
const ONE_EVENT_DOMAINS = 'one-event-domains.md';

/**
 * The domain of each event type, whose page shows it: the first segment of a dotted type
 * (`billing` for `billing.ledger.entry_posted`). A type without dots shares a domain with the
 * other dotless types of the same first word, named by the words they all begin with
 * (`dunning_path_paused`, `dunning_path_started` → `dunning_path`), so that no page holds a
 * lone event only because the seed named it without dots.
 */
export function domainsOf(types: Iterable<string>): Map<string, string> {
  const domains = new Map<string, string>();
  const dotless = new Map<string, string[]>();
  for (const type of new Set(types)) {
    if (type.includes('.')) domains.set(type, type.split('.')[0]!);
    else {
      const firstWord = type.split('_')[0]!;
      dotless.set(firstWord, [...(dotless.get(firstWord) ?? []), type]);
    }
  }
  for (const group of dotless.values()) {
    const words = group.map((type) => type.split('_'));
    let shared = 0;
    while (shared < words[0]!.length && words.every((w) => w[shared] === words[0]![shared])) shared++;
    for (const type of group) domains.set(type, group.length === 1 ? type : words[0]!.slice(0, shared).join('_'));
  }
  return domains;
}

/** A domain's page; never one of the other pages' names, whatever the case-folding of the file system. */
export function domainPage(domain: string): string {
  return ['readme', 'shared-types', 'fragments', 'one-event-domains'].includes(domain.toLowerCase()) ? `events-${domain}.md` : `${domain}.md`;
}

/** The page an event type is on. */
type PageOf = (type: string) => string;

const banner = (sources: readonly string[]): string => `<!-- ${bannerText(sources).replace(/--/g, '- -')} -->\n`;
/** Catalog text for one table cell or one line: no HTML, pipes or line breaks. */
const cell = (text: string): string => markdownText(text).replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const anchor = (id: string): string => `<a id="${id}"></a>`;

const eventLink = (key: string, from: string, pageOf: PageOf): string => {
  const [type, version] = key.split('@') as [string, string];
  const page = pageOf(type);
  return `[${inlineCode(type)} ${version}](${page === from ? '' : page}#${type}-${version})`;
};

function typeCell(field: PageField, from: string): string {
  const text = inlineCode(field.type);
  return field.namedType !== undefined ? `[${text}](${from === SHARED ? '' : SHARED}#${field.namedType})` : text;
}

function fieldTable(fields: readonly PageField[], from: string): string[] {
  if (fields.length === 0) return ['No fields shown.'];
  const described = fields.some((f) => f.description);
  const lines = [`| field | type | required |${described ? ' description |' : ''}`, `|---|---|---|${described ? '---|' : ''}`];
  for (const f of fields) {
    const presence = `${f.optional ? 'optional' : 'required'}${f.nullable ? ', may be `null`' : ''}`;
    const description = described ? (f.description ? ` ${cell(f.description)} |` : ' |') : '';
    lines.push(`| ${inlineCode(f.name)} | ${typeCell(f, from)} | ${presence} |${description}`);
  }
  return lines;
}

const gapWhere = (gap: { after: string | null; before: string | null }, from: string, pageOf: PageOf): string =>
  [gap.after && `after ${eventLink(gap.after, from, pageOf)}`, gap.before && `before ${eventLink(gap.before, from, pageOf)}`].filter(Boolean).join(', ');

function gapLines(gap: PageGap, from: string, pageOf: PageOf): string[] {
  switch (gap.kind) {
    case 'not_shown':
      return [`- **Not shown: ${cell(gap.topic)}** (${cell(gap.section)})`, '', blockQuote(markdownText(gap.seed)).replace(/^/gm, '  ')];
    case 'events_not_shown':
      return [`- **Events not shown**, ${gapWhere(gap, from, pageOf)} (${cell(gap.section)})`, '', blockQuote(markdownText(gap.seed)).replace(/^/gm, '  ')];
    case 'unnamed_event': {
      const visible = gap.visibleFields.map((f) => `${inlineCode(f.name)} (${f.type})`).join(', ');
      return [`- **An unnamed event**, ${gapWhere(gap, from, pageOf)}; visible fields: ${visible} (${cell(gap.section)})`, '', blockQuote(markdownText(gap.seed)).replace(/^/gm, '  ')];
    }
  }
}

/** The verdict of a diff, in the words the site shows too: its class, and the readers it breaks. */
function verdictCell(diff: VersionDiff, words: PageModel['words']): string {
  return diff.severity ? `${words.severity[diff.severity]} (${diff.impact})` : words.unchanged;
}

/** Each version against the one before it, judged as if it had been an edit of that version (the compatibility rules). */
function historyTable(eventType: PageEventType, words: PageModel['words']): string[] {
  const lines = ['| version | changes from the previous version | as an edit of the previous version |', '|---|---|---|'];
  eventType.versions.forEach((version, i) => {
    const from = eventType.versions[i - 1];
    if (from === undefined) {
      lines.push(`| ${inlineCode(version)} | first version | — |`);
      return;
    }
    const diff = eventType.diffs.find((d) => d.from === from && d.to === version)!;
    const what = diff.changes.length === 0 ? 'no change to the payload' : diff.changes.map((c) => cell(c.message)).join('; ');
    lines.push(`| ${inlineCode(version)} | from ${inlineCode(from)}: ${what} | ${verdictCell(diff, words)} |`);
  });
  return lines;
}

/** A reference of `extends`, linked: a version of the same type, another event version, or a fragment. */
function reuseLink(ref: string, event: PageEvent, page: string, pageOf: PageOf): string {
  if (/^v/.test(ref) && !ref.includes('@')) return `[${inlineCode(ref)}](#${event.type}-${ref})`;
  if (ref.includes('@')) return eventLink(ref, page, pageOf);
  return `[${inlineCode(ref)}](${FRAGMENTS}#${ref})`;
}

function eventVersionSection(pages: PageModel, event: PageEvent, page: string, pageOf: PageOf): string[] {
  const lines = ['', anchor(event.name), `### ${inlineCode(event.type)} ${event.version}`, ''];
  if (event.description) lines.push(markdownText(event.description), '');
  if (event.openSeed !== undefined) {
    lines.push(`**Open**: the seed does not show every field, so unlisted payload properties are accepted in every mode. The seed:`, '', blockQuote(markdownText(event.openSeed)), '');
  }
  const reused = event.extends.map((ref) => reuseLink(ref, event, page, pageOf));
  if (reused.length === 1) lines.push(`Extends ${reused[0]}: its fields come first.`, '');
  if (reused.length > 1) lines.push(`Extends ${reused.join(', ')}: their fields come first, in that order.`, '');
  lines.push(...fieldTable(event.fields, page));
  for (const gap of pages.gaps) {
    if (gap.kind === 'not_shown' || (gap.after !== event.key && gap.before !== event.key)) continue;
    const where = gap.after === event.key ? 'after' : 'before';
    const what = gap.kind === 'unnamed_event' ? `An unnamed event ${where} this one is not shown (visible fields: ${gap.visibleFields.map((f) => inlineCode(f.name)).join(', ')}). The seed:` : `Events ${where} this one are not shown. The seed:`;
    lines.push('', `**Gap**: ${what}`, '', blockQuote(markdownText(gap.seed)));
  }
  return lines;
}

/** A section per event type: its versions, each version's fields, its version history. */
function typeSections(pages: PageModel, events: readonly PageEvent[], page: string, pageOf: PageOf): string[] {
  const lines: string[] = [];
  for (const type of new Set(events.map((e) => e.type))) {
    const versions = events.filter((e) => e.type === type);
    lines.push('', anchor(type), `## ${inlineCode(type)}`, '', `Versions: ${versions.map((e) => inlineCode(e.version)).join(', ')}. Seed section: ${cell(versions[0]!.section)}.`);
    for (const event of versions) lines.push(...eventVersionSection(pages, event, page, pageOf));
    const eventType = pages.eventTypes.find((t) => t.type === type)!;
    if (eventType.versions.length === 1) lines.push('', `**Version history**: ${inlineCode(eventType.versions[0]!)} is the only version shown.`);
    else lines.push('', `### Version history of ${inlineCode(type)}`, '', ...historyTable(eventType, pages.words));
  }
  return lines;
}

const sourcesOf = (events: readonly PageEvent[]): string[] => [...new Set(events.flatMap((e) => e.sources))].sort(byCodeUnit);

function domainDoc(pages: PageModel, domain: string, events: PageEvent[], pageOf: PageOf): EmittedFile {
  const page = domainPage(domain);
  const types = [...new Set(events.map((e) => e.type))];
  const lines = [
    `# ${inlineCode(domain)} events`,
    '',
    `${plural(types.length, 'event type')}, ${plural(events.length, 'event version')}. [All domains](${INDEX}) · [Shared types](${SHARED})`,
    '',
    '| event type | versions |',
    '|---|---|',
    ...types.map((type) => `| [${inlineCode(type)}](#${type}) | ${events.filter((e) => e.type === type).map((e) => `[${e.version}](#${e.name})`).join(', ')} |`),
    ...typeSections(pages, events, page, pageOf),
  ];
  return { path: `${DOCS_DIR}/${page}`, contents: banner(sourcesOf(events)) + lines.join('\n') + '\n' };
}

/** `one-event-domains.md`: the domains that show a single event, together, so that no page holds one event. */
function oneEventDomainsDoc(pages: PageModel, events: PageEvent[], domainOf: ReadonlyMap<string, string>, pageOf: PageOf): EmittedFile {
  const lines = [
    '# Domains of one event',
    '',
    `${plural(events.length, 'domain')} of the catalog show a single event each; they share this page. [All domains](${INDEX}) · [Shared types](${SHARED})`,
    '',
    '| domain | event type | version |',
    '|---|---|---|',
    ...events.map((e) => `| ${inlineCode(domainOf.get(e.type)!)} | [${inlineCode(e.type)}](#${e.type}) | [${e.version}](#${e.name}) |`),
    ...typeSections(pages, events, ONE_EVENT_DOMAINS, pageOf),
  ];
  return { path: `${DOCS_DIR}/${ONE_EVENT_DOMAINS}`, contents: banner(sourcesOf(events)) + lines.join('\n') + '\n' };
}

function sharedTypeSection(shared: PageSharedType, pageOf: PageOf): string[] {
  const lines = ['', anchor(shared.name), `## ${inlineCode(shared.name)}`, ''];
  if (shared.description) lines.push(markdownText(shared.description), '');
  lines.push(`TypeScript: ${inlineCode(shared.tsName)}. Seed section: ${cell(shared.section)}.`, '', ...fieldTable(shared.fields, SHARED), '');
  lines.push(shared.usedBy.length === 0 ? 'Used by no event.' : `Used by (directly or nested): ${shared.usedBy.map((key) => eventLink(key, SHARED, pageOf)).join(', ')}.`);
  return lines;
}

function sharedTypesDoc(model: PageModel, pageOf: PageOf): EmittedFile {
  const sources = [...new Set(model.sharedTypes.map((t) => t.source))].sort(byCodeUnit);
  const lines = [`# Shared types`, '', `${plural(model.sharedTypes.length, 'shared object type')}, by their seed name. [All domains](${INDEX})`];
  if (model.sharedTypes.length > 0) {
    lines.push('', '| shared type | fields | used by |', '|---|---:|---:|');
    for (const t of model.sharedTypes) lines.push(`| [${inlineCode(t.name)}](#${t.name}) | ${t.fields.length} | ${plural(t.usedBy.length, 'event version')} |`);
  }
  for (const t of model.sharedTypes) lines.push(...sharedTypeSection(t, pageOf));
  return { path: `${DOCS_DIR}/${SHARED}`, contents: banner(sources.length > 0 ? sources : model.sourceFiles) + lines.join('\n') + '\n' };
}

function indexDoc(model: PageModel, domains: Map<string, PageEvent[]>, domainPageOf: (domain: string) => string, pageOf: PageOf): EmittedFile {
  const types = (events: readonly PageEvent[]) => new Set(events.map((e) => e.type)).size;
  const open = (events: readonly PageEvent[]) => events.filter((e) => e.openSeed !== undefined).length;
  const lines = [
    '# Event catalog reference',
    '',
    `Every event of the catalog, by domain (the first segment of the event type; types without dots by the words they share with others): ${plural(types(model.events), 'event type')}, ${plural(model.events.length, 'event version')}, ${plural(model.sharedTypes.length, 'shared type')}. Event types and versions are in catalog order (the seed's order).`,
    '',
    '| domain | event types | event versions | open |',
    '|---|---:|---:|---:|',
  ];
  for (const [domain, events] of domains) {
    const page = domainPageOf(domain);
    const link = page === ONE_EVENT_DOMAINS ? `${page}#${events[0]!.type}` : page;
    lines.push(`| [${inlineCode(domain)}](${link}) | ${types(events)} | ${events.length} | ${open(events)} |`);
  }
  lines.push(`| **all** | **${types(model.events)}** | **${model.events.length}** | **${open(model.events)}** |`);
  lines.push('', `[Shared types](${SHARED}): ${model.sharedTypes.length}.`);
  if (model.fragments.length > 0) lines.push('', `[Fragments](${FRAGMENTS}) (field lists written once and reused, such as ${inlineCode(model.fragments[0]!.name)}): ${model.fragments.length}.`);
  lines.push('', '## Gaps', '');
  if (model.gaps.length === 0) lines.push('The catalog records no gap.');
  else {
    lines.push('What the seed does not show, in its words. Open events (fields partly or wholly not shown) are marked on their pages.', '');
    for (const gap of model.gaps) lines.push(...gapLines(gap, INDEX, pageOf), '');
    lines.pop();
  }
  return { path: `${DOCS_DIR}/${INDEX}`, contents: banner(model.sourceFiles) + lines.join('\n') + '\n' };
}

/** `fragments.md`: each fragment (`BASE`, `DEPOSIT_BASE`, …) the pages say an event extends, with its fields. */
function fragmentsDoc(model: PageModel, pageOf: PageOf): EmittedFile {
  const sources = [...new Set(model.fragments.map((f) => f.source))].sort(byCodeUnit);
  const lines = [
    '# Fragments',
    '',
    `${plural(model.fragments.length, 'fragment')}: field lists the seed writes once and reuses ("BASE plus …"). An event that extends one has its fields first; a fragment is not a type of its own. [All domains](${INDEX}) · [Shared types](${SHARED})`,
  ];
  for (const fragment of model.fragments) {
    lines.push('', anchor(fragment.name), `## ${inlineCode(fragment.name)}`, '');
    if (fragment.description) lines.push(markdownText(fragment.description), '');
    const reused = fragment.extends.map((ref) => (ref.includes('@') ? eventLink(ref, FRAGMENTS, pageOf) : `[${inlineCode(ref)}](#${ref})`));
    if (reused.length > 0) lines.push(`Extends ${reused.join(', ')}: ${reused.length === 1 ? 'its fields come' : 'their fields come'} first.`, '');
    lines.push(...fieldTable(fragment.fields, FRAGMENTS), '');
    lines.push(fragment.extendedBy.length === 0 ? 'Extended directly by no event.' : `Extended directly by: ${fragment.extendedBy.map((key) => eventLink(key, FRAGMENTS, pageOf)).join(', ')}.`);
  }
  return { path: `${DOCS_DIR}/${FRAGMENTS}`, contents: banner(sources) + lines.join('\n') + '\n' };
}

/** Where each domain and event type is shown: its domain's page, or the page the domains of one event share. */
export function docPages<Event extends { type: string }>(model: { events: readonly Event[] }) {
  const domainOf = domainsOf(model.events.map((e) => e.type));
  const domains = new Map<string, Event[]>();
  for (const domain of [...new Set(domainOf.values())].sort(byCodeUnit)) domains.set(domain, []);
  for (const event of model.events) domains.get(domainOf.get(event.type)!)!.push(event);
  // Domains of one event share a page, when there are several of them.
  const lone = [...domains].filter(([, events]) => events.length === 1);
  const sharingPage = new Set(lone.length > 1 ? lone.map(([domain]) => domain) : []);
  const domainPageOf = (domain: string): string => (sharingPage.has(domain) ? ONE_EVENT_DOMAINS : domainPage(domain));
  const pageOf: PageOf = (type) => domainPageOf(domainOf.get(type)!);
  return { domainOf, domains, sharingPage, domainPageOf, pageOf };
}

/** The Markdown pages, and `docs/pages.json`, the page model they are rendered from. */
export function emitDocs(model: CatalogModel): EmittedFile[] {
  const pages = pageModelOf(model);
  const { domainOf, domains, sharingPage, domainPageOf, pageOf } = docPages(pages);
  const oneEvent = [...domains].filter(([domain]) => sharingPage.has(domain)).flatMap(([, events]) => events);
  return [
    indexDoc(pages, domains, domainPageOf, pageOf),
    sharedTypesDoc(pages, pageOf),
    ...(pages.fragments.length > 0 ? [fragmentsDoc(pages, pageOf)] : []),
    ...(oneEvent.length > 0 ? [oneEventDomainsDoc(pages, oneEvent, domainOf, pageOf)] : []),
    ...[...domains].filter(([domain]) => !sharingPage.has(domain)).map(([domain, events]) => domainDoc(pages, domain, events, pageOf)),
    emitPageModel(model),
  ];
}
