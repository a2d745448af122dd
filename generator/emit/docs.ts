/**
 * `docs/`: a Markdown reference of the catalog, for people.
 *
 * - `docs/README.md`: an index by domain (`domainsOf`) with counts, and every gap in the
 *   seed's words;
 * - `docs/<domain>.md`: a section per event type (catalog order) with its versions, a field
 *   table per version (name, type linked to its shared type, required or optional), what it
 *   extends (linked), open and gap notes quoted from the seed, and the version history (the
 *   compat diff of successive versions, generator/compat); the domains of one event share
 *   `docs/one-event-domains.md`, so that every page holds several events;
 * - `docs/shared-types.md`: every shared type, its fields, and the event versions using it;
 * - `docs/fragments.md`: every fragment (`BASE`, …) the pages say an event extends.
 *
 * Anchors are explicit (`<a id="account.created-v1">`): the event's catalog name, the event
 * type, the shared type's name. Every page starts with the banner as an HTML comment.
 */
import { bannerText, eventSources } from '../common/banner.js';
import { markdownText } from '../common/safe-text.js';
import { byCodeUnit } from '../../runtime/contract/code-unit-order.js';
import { blockQuote, inlineCode, plural } from '../common/text.js';
import { typeNotation } from '../common/type-notation.js';
import { versionHistory, type VersionStep } from '../compat/diff.js';
import type { Severity } from '../compat/rules.js';
import { snapshotFromModel } from '../compat/snapshot.js';
import type { CatalogModel, EventVersionModel, FieldModel, GapModel, SharedTypeModel, TypeRef } from '../model.js';
import type { EmittedFile } from './emitted-file.js';

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

function typeCell(type: TypeRef, from: string): string {
  let base = type;
  while (base.kind === 'array') base = base.items;
  const text = inlineCode(typeNotation(type));
  return base.kind === 'named' ? `[${text}](${from === SHARED ? '' : SHARED}#${base.name})` : text;
}

function fieldTable(fields: readonly FieldModel[], from: string): string[] {
  if (fields.length === 0) return ['No fields shown.'];
  const described = fields.some((f) => f.description);
  const lines = [`| field | type | required |${described ? ' description |' : ''}`, `|---|---|---|${described ? '---|' : ''}`];
  for (const f of fields) {
    const presence = `${f.optional ? 'optional' : 'required'}${f.nullable ? ', may be `null`' : ''}`;
    const description = described ? (f.description ? ` ${cell(f.description)} |` : ' |') : '';
    lines.push(`| ${inlineCode(f.name)} | ${typeCell(f.type, from)} | ${presence} |${description}`);
  }
  return lines;
}

const gapWhere = (gap: { after?: string; before?: string }, from: string, pageOf: PageOf): string =>
  [gap.after && `after ${eventLink(gap.after, from, pageOf)}`, gap.before && `before ${eventLink(gap.before, from, pageOf)}`].filter(Boolean).join(', ');

function gapLines(gap: GapModel, from: string, pageOf: PageOf): string[] {
  switch (gap.kind) {
    case 'not_shown':
      return [`- **Not shown: ${cell(gap.topic)}** (${cell(gap.section)})`, '', blockQuote(markdownText(gap.seed)).replace(/^/gm, '  ')];
    case 'events_not_shown':
      return [`- **Events not shown**, ${gapWhere(gap, from, pageOf)} (${cell(gap.section)})`, '', blockQuote(markdownText(gap.seed)).replace(/^/gm, '  ')];
    case 'unnamed_event': {
      const visible = gap.visibleFields.map((f) => `${inlineCode(f.name)} (${typeNotation(f.type)})`).join(', ');
      return [`- **An unnamed event**, ${gapWhere(gap, from, pageOf)}; visible fields: ${visible} (${cell(gap.section)})`, '', blockQuote(markdownText(gap.seed)).replace(/^/gm, '  ')];
    }
  }
}

/** A step between successive versions, judged as if it had been an edit of the previous version (compat rules). */
const VERDICT: Record<Severity, string> = { breaking: 'breaking: hence a new version', 'changes-types': 'changes types', compatible: 'compatible' };

function historyTable(steps: readonly VersionStep[]): string[] {
  const lines = ['| version | changes from the previous version | as an edit of the previous version |', '|---|---|---|'];
  for (const step of steps) {
    if (step.from === null) {
      lines.push(`| ${inlineCode(step.to)} | first version | — |`);
      continue;
    }
    const what = step.changes.length === 0 ? 'no change to the payload' : step.changes.map((c) => cell(c.message)).join('; ');
    const verdict = step.severity ? VERDICT[step.severity] : 'no change';
    lines.push(`| ${inlineCode(step.to)} | from ${inlineCode(step.from)}: ${what} | ${verdict} |`);
  }
  return lines;
}

/** A reference of `extends`, linked: a version of the same type, another event version, or a fragment. */
function reuseLink(ref: string, event: EventVersionModel, page: string, pageOf: PageOf): string {
  if (/^v/.test(ref) && !ref.includes('@')) return `[${inlineCode(ref)}](#${event.type}-${ref})`;
  if (ref.includes('@')) return eventLink(ref, page, pageOf);
  return `[${inlineCode(ref)}](${FRAGMENTS}#${ref})`;
}

function eventVersionSection(model: CatalogModel, event: EventVersionModel, page: string, pageOf: PageOf): string[] {
  const lines = ['', anchor(event.name), `### ${inlineCode(event.type)} ${event.version}`, ''];
  if (event.description) lines.push(markdownText(event.description), '');
  if (event.open) {
    lines.push(`**Open**: the seed does not show every field, so unlisted payload properties are accepted in every mode. The seed:`, '', blockQuote(markdownText(event.open.seed)), '');
  }
  const reused = event.extends.map((ref) => reuseLink(ref, event, page, pageOf));
  if (reused.length === 1) lines.push(`Extends ${reused[0]}: its fields come first.`, '');
  if (reused.length > 1) lines.push(`Extends ${reused.join(', ')}: their fields come first, in that order.`, '');
  lines.push(...fieldTable(event.fields, page));
  for (const gap of model.gaps) {
    if (gap.kind === 'not_shown' || (gap.after !== event.key && gap.before !== event.key)) continue;
    const where = gap.after === event.key ? 'after' : 'before';
    const what = gap.kind === 'unnamed_event' ? `An unnamed event ${where} this one is not shown (visible fields: ${gap.visibleFields.map((f) => inlineCode(f.name)).join(', ')}). The seed:` : `Events ${where} this one are not shown. The seed:`;
    lines.push('', `**Gap**: ${what}`, '', blockQuote(markdownText(gap.seed)));
  }
  return lines;
}

/** A section per event type: its versions, each version's fields, its version history. */
function typeSections(model: CatalogModel, events: readonly EventVersionModel[], page: string, history: Map<string, VersionStep[]>, pageOf: PageOf): string[] {
  const lines: string[] = [];
  for (const type of new Set(events.map((e) => e.type))) {
    const versions = events.filter((e) => e.type === type);
    lines.push('', anchor(type), `## ${inlineCode(type)}`, '', `Versions: ${versions.map((e) => inlineCode(e.version)).join(', ')}. Seed section: ${cell(versions[0]!.section)}.`);
    for (const event of versions) lines.push(...eventVersionSection(model, event, page, pageOf));
    const steps = history.get(type) ?? [];
    if (steps.length === 1) lines.push('', `**Version history**: ${inlineCode(steps[0]!.to)} is the only version shown.`);
    else lines.push('', `### Version history of ${inlineCode(type)}`, '', ...historyTable(steps));
  }
  return lines;
}

const sourcesOf = (model: CatalogModel, events: readonly EventVersionModel[]): string[] => [...new Set(events.flatMap((e) => eventSources(model, e)))].sort(byCodeUnit);

function domainDoc(model: CatalogModel, domain: string, events: EventVersionModel[], history: Map<string, VersionStep[]>, pageOf: PageOf): EmittedFile {
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
    ...typeSections(model, events, page, history, pageOf),
  ];
  return { path: `${DOCS_DIR}/${page}`, contents: banner(sourcesOf(model, events)) + lines.join('\n') + '\n' };
}

/** `one-event-domains.md`: the domains that show a single event, together, so that no page holds one event. */
function oneEventDomainsDoc(model: CatalogModel, events: EventVersionModel[], domainOf: ReadonlyMap<string, string>, history: Map<string, VersionStep[]>, pageOf: PageOf): EmittedFile {
  const lines = [
    '# Domains of one event',
    '',
    `${plural(events.length, 'domain')} of the catalog show a single event each; they share this page. [All domains](${INDEX}) · [Shared types](${SHARED})`,
    '',
    '| domain | event type | version |',
    '|---|---|---|',
    ...events.map((e) => `| ${inlineCode(domainOf.get(e.type)!)} | [${inlineCode(e.type)}](#${e.type}) | [${e.version}](#${e.name}) |`),
    ...typeSections(model, events, ONE_EVENT_DOMAINS, history, pageOf),
  ];
  return { path: `${DOCS_DIR}/${ONE_EVENT_DOMAINS}`, contents: banner(sourcesOf(model, events)) + lines.join('\n') + '\n' };
}

function sharedTypeSection(shared: SharedTypeModel, pageOf: PageOf): string[] {
  const lines = ['', anchor(shared.name), `## ${inlineCode(shared.name)}`, ''];
  if (shared.description) lines.push(markdownText(shared.description), '');
  lines.push(`TypeScript: ${inlineCode(shared.tsName)}. Seed section: ${cell(shared.section)}.`, '', ...fieldTable(shared.fields, SHARED), '');
  lines.push(shared.usedBy.length === 0 ? 'Used by no event.' : `Used by (directly or nested): ${shared.usedBy.map((key) => eventLink(key, SHARED, pageOf)).join(', ')}.`);
  return lines;
}

function sharedTypesDoc(model: CatalogModel, pageOf: PageOf): EmittedFile {
  const sources = [...new Set(model.sharedTypes.map((t) => t.position.file))].sort(byCodeUnit);
  const lines = [`# Shared types`, '', `${plural(model.sharedTypes.length, 'shared object type')}, by their seed name. [All domains](${INDEX})`];
  if (model.sharedTypes.length > 0) {
    lines.push('', '| shared type | fields | used by |', '|---|---:|---:|');
    for (const t of model.sharedTypes) lines.push(`| [${inlineCode(t.name)}](#${t.name}) | ${t.fields.length} | ${plural(t.usedBy.length, 'event version')} |`);
  }
  for (const t of model.sharedTypes) lines.push(...sharedTypeSection(t, pageOf));
  return { path: `${DOCS_DIR}/${SHARED}`, contents: banner(sources.length > 0 ? sources : model.sourceFiles) + lines.join('\n') + '\n' };
}

function indexDoc(model: CatalogModel, domains: Map<string, EventVersionModel[]>, domainPageOf: (domain: string) => string, pageOf: PageOf): EmittedFile {
  const types = (events: EventVersionModel[]) => new Set(events.map((e) => e.type)).size;
  const open = (events: EventVersionModel[]) => events.filter((e) => e.open !== false).length;
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
function fragmentsDoc(model: CatalogModel, pageOf: PageOf): EmittedFile {
  const sources = [...new Set(model.fragments.map((f) => f.position.file))].sort(byCodeUnit);
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
export function docPages(model: CatalogModel) {
  const domainOf = domainsOf(model.events.map((e) => e.type));
  const domains = new Map<string, EventVersionModel[]>();
  for (const domain of [...new Set(domainOf.values())].sort(byCodeUnit)) domains.set(domain, []);
  for (const event of model.events) domains.get(domainOf.get(event.type)!)!.push(event);
  // Domains of one event share a page, when there are several of them.
  const lone = [...domains].filter(([, events]) => events.length === 1);
  const sharingPage = new Set(lone.length > 1 ? lone.map(([domain]) => domain) : []);
  const domainPageOf = (domain: string): string => (sharingPage.has(domain) ? ONE_EVENT_DOMAINS : domainPage(domain));
  const pageOf: PageOf = (type) => domainPageOf(domainOf.get(type)!);
  return { domainOf, domains, sharingPage, domainPageOf, pageOf };
}

export function emitDocs(model: CatalogModel): EmittedFile[] {
  const { domainOf, domains, sharingPage, domainPageOf, pageOf } = docPages(model);
  const history = new Map<string, VersionStep[]>();
  for (const step of versionHistory(snapshotFromModel(model))) history.set(step.type, [...(history.get(step.type) ?? []), step]);
  const oneEvent = [...domains].filter(([domain]) => sharingPage.has(domain)).flatMap(([, events]) => events);
  return [
    indexDoc(model, domains, domainPageOf, pageOf),
    sharedTypesDoc(model, pageOf),
    ...(model.fragments.length > 0 ? [fragmentsDoc(model, pageOf)] : []),
    ...(oneEvent.length > 0 ? [oneEventDomainsDoc(model, oneEvent, domainOf, history, pageOf)] : []),
    ...[...domains].filter(([domain]) => !sharingPage.has(domain)).map(([domain, events]) => domainDoc(model, domain, events, history, pageOf)),
  ];
}
