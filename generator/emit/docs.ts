/**
 * `docs/`: a Markdown reference of the catalog, for people.
 *
 * - `docs/README.md`: an index by domain (the first segment of the event type) with counts,
 *   and every gap in the seed's words;
 * - `docs/<domain>.md`: a section per event type (catalog order) with its versions, a field
 *   table per version (name, type linked to its shared type, required or optional), open and
 *   gap notes quoted from the seed, and the version history (the compat diff of successive
 *   versions, generator/compat);
 * - `docs/shared-types.md`: every shared type, its fields, and the event versions using it.
 *
 * Anchors are explicit (`<a id="account.created-v1">`): the event's catalog name, the event
 * type, the shared type's name. Every page starts with the banner as an HTML comment.
 */
import { versionHistory, type VersionStep } from '../compat/diff.js';
import type { Severity } from '../compat/rules.js';
import { snapshotFromModel } from '../compat/snapshot.js';
import type { CatalogModel, EventVersionModel, FieldModel, GapModel, ObjectTypeModel, TypeRef } from '../model.js';
import { bannerText } from './banner.js';
import { byCodeUnit, type EmittedFile } from './emitted-file.js';
import { eventSources } from './json-schema.js';
import { typeNotation } from './manifest.js';
import { markdownText } from './safe-text.js';

export const DOCS_DIR = 'docs';
const INDEX = 'README.md';
const SHARED = 'shared-types.md';

/** The first segment of an event type: `billing` for `billing.ledger.entry_posted`. */
export const domainOf = (type: string): string => type.split('.')[0]!;

/** A domain's page; never one of the other pages' names, whatever the case-folding of the file system. */
export function domainPage(domain: string): string {
  return ['readme', 'shared-types'].includes(domain.toLowerCase()) ? `events-${domain}.md` : `${domain}.md`;
}

const banner = (sources: readonly string[]): string => `<!-- ${bannerText(sources).replace(/--/g, '- -')} -->\n`;
const code = (text: string): string => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);
/** Catalog text for one table cell or one line: no HTML, pipes or line breaks. */
const cell = (text: string): string => markdownText(text).replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
/** The seed's words as a block quote, line by line. */
const quote = (text: string): string => markdownText(text).split('\n').map((line) => `> ${line}`.trimEnd()).join('\n');
const anchor = (id: string): string => `<a id="${id}"></a>`;
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const eventLink = (key: string, from: string): string => {
  const [type, version] = key.split('@') as [string, string];
  const page = domainPage(domainOf(type));
  return `[${code(type)} ${version}](${page === from ? '' : page}#${type}-${version})`;
};

function typeCell(type: TypeRef, from: string): string {
  let base = type;
  while (base.kind === 'array') base = base.items;
  const text = code(typeNotation(type));
  return base.kind === 'named' ? `[${text}](${from === SHARED ? '' : SHARED}#${base.name})` : text;
}

function fieldTable(fields: readonly FieldModel[], from: string): string[] {
  if (fields.length === 0) return ['No fields shown.'];
  const described = fields.some((f) => f.description);
  const lines = [`| field | type | required |${described ? ' description |' : ''}`, `|---|---|---|${described ? '---|' : ''}`];
  for (const f of fields) {
    const presence = `${f.optional ? 'optional' : 'required'}${f.nullable ? ', may be `null`' : ''}`;
    const description = described ? (f.description ? ` ${cell(f.description)} |` : ' |') : '';
    lines.push(`| ${code(f.name)} | ${typeCell(f.type, from)} | ${presence} |${description}`);
  }
  return lines;
}

const gapWhere = (gap: { after?: string; before?: string }, from: string): string =>
  [gap.after && `after ${eventLink(gap.after, from)}`, gap.before && `before ${eventLink(gap.before, from)}`].filter(Boolean).join(', ');

function gapLines(gap: GapModel, from: string): string[] {
  switch (gap.kind) {
    case 'not_shown':
      return [`- **Not shown: ${cell(gap.topic)}** (${cell(gap.section)})`, '', quote(gap.seed).replace(/^/gm, '  ')];
    case 'events_not_shown':
      return [`- **Events not shown**, ${gapWhere(gap, from)} (${cell(gap.section)})`, '', quote(gap.seed).replace(/^/gm, '  ')];
    case 'unnamed_event': {
      const visible = gap.visibleFields.map((f) => `${code(f.name)} (${typeNotation(f.type)})`).join(', ');
      return [`- **An unnamed event**, ${gapWhere(gap, from)}; visible fields: ${visible} (${cell(gap.section)})`, '', quote(gap.seed).replace(/^/gm, '  ')];
    }
  }
}

/** A step between successive versions, judged as if it had been an edit of the previous version (compat rules). */
const VERDICT: Record<Severity, string> = { breaking: 'breaking: hence a new version', 'changes-types': 'changes types', compatible: 'compatible' };

function historyTable(steps: readonly VersionStep[]): string[] {
  const lines = ['| version | changes from the previous version | as an edit of the previous version |', '|---|---|---|'];
  for (const step of steps) {
    if (step.from === null) {
      lines.push(`| ${code(step.to)} | first version | — |`);
      continue;
    }
    const what = step.changes.length === 0 ? 'no change to the payload' : step.changes.map((c) => cell(c.message)).join('; ');
    const verdict = step.severity ? VERDICT[step.severity] : 'no change';
    lines.push(`| ${code(step.to)} | from ${code(step.from)}: ${what} | ${verdict} |`);
  }
  return lines;
}

function eventVersionSection(model: CatalogModel, event: EventVersionModel, page: string): string[] {
  const lines = ['', anchor(event.name), `### ${code(event.type)} ${event.version}`, ''];
  if (event.description) lines.push(markdownText(event.description), '');
  if (event.open) {
    lines.push(`**Open**: the seed does not show every field, so unlisted payload properties are accepted in every mode. The seed:`, '', quote(event.open.seed), '');
  }
  if (event.extends.length === 1) lines.push(`Extends ${code(event.extends[0]!)}: its fields come first.`, '');
  if (event.extends.length > 1) lines.push(`Extends ${event.extends.map(code).join(', ')}: their fields come first, in that order.`, '');
  lines.push(...fieldTable(event.fields, page));
  for (const gap of model.gaps) {
    if (gap.kind === 'not_shown' || (gap.after !== event.key && gap.before !== event.key)) continue;
    const where = gap.after === event.key ? 'after' : 'before';
    const what = gap.kind === 'unnamed_event' ? `An unnamed event ${where} this one is not shown (visible fields: ${gap.visibleFields.map((f) => code(f.name)).join(', ')}). The seed:` : `Events ${where} this one are not shown. The seed:`;
    lines.push('', `**Gap**: ${what}`, '', quote(gap.seed));
  }
  return lines;
}

function domainDoc(model: CatalogModel, domain: string, events: EventVersionModel[], history: Map<string, VersionStep[]>): EmittedFile {
  const page = domainPage(domain);
  const types = [...new Set(events.map((e) => e.type))];
  const sources = [...new Set(events.flatMap((e) => eventSources(model, e)))].sort(byCodeUnit);
  const lines = [
    `# ${code(domain)} events`,
    '',
    `${plural(types.length, 'event type')}, ${plural(events.length, 'event version')}. [All domains](${INDEX}) · [Shared types](${SHARED})`,
    '',
    '| event type | versions |',
    '|---|---|',
    ...types.map((type) => `| [${code(type)}](#${type}) | ${events.filter((e) => e.type === type).map((e) => `[${e.version}](#${e.name})`).join(', ')} |`),
  ];
  for (const type of types) {
    const versions = events.filter((e) => e.type === type);
    lines.push('', anchor(type), `## ${code(type)}`, '', `Versions: ${versions.map((e) => code(e.version)).join(', ')}. Seed section: ${cell(versions[0]!.section)}.`);
    for (const event of versions) lines.push(...eventVersionSection(model, event, page));
    const steps = history.get(type) ?? [];
    if (steps.length === 1) lines.push('', `**Version history**: ${code(steps[0]!.to)} is the only version.`);
    else lines.push('', `### Version history of ${code(type)}`, '', ...historyTable(steps));
  }
  return { path: `${DOCS_DIR}/${page}`, contents: banner(sources) + lines.join('\n') + '\n' };
}

function sharedTypeSection(shared: ObjectTypeModel): string[] {
  const lines = ['', anchor(shared.name), `## ${code(shared.name)}`, ''];
  if (shared.description) lines.push(markdownText(shared.description), '');
  lines.push(`TypeScript: ${code(shared.tsName)}. Seed section: ${cell(shared.section)}.`, '', ...fieldTable(shared.fields, SHARED), '');
  lines.push(shared.usedBy.length === 0 ? 'Used by no event.' : `Used by (directly or nested): ${shared.usedBy.map((key) => eventLink(key, SHARED)).join(', ')}.`);
  return lines;
}

function sharedTypesDoc(model: CatalogModel): EmittedFile {
  const sources = [...new Set(model.sharedTypes.map((t) => t.position.file))].sort(byCodeUnit);
  const lines = [`# Shared types`, '', `${plural(model.sharedTypes.length, 'shared object type')}, by their seed name. [All domains](${INDEX})`];
  if (model.sharedTypes.length > 0) {
    lines.push('', '| shared type | fields | used by |', '|---|---:|---:|');
    for (const t of model.sharedTypes) lines.push(`| [${code(t.name)}](#${t.name}) | ${t.fields.length} | ${plural(t.usedBy.length, 'event version')} |`);
  }
  for (const t of model.sharedTypes) lines.push(...sharedTypeSection(t));
  return { path: `${DOCS_DIR}/${SHARED}`, contents: banner(sources.length > 0 ? sources : model.sourceFiles) + lines.join('\n') + '\n' };
}

function indexDoc(model: CatalogModel, domains: Map<string, EventVersionModel[]>): EmittedFile {
  const types = (events: EventVersionModel[]) => new Set(events.map((e) => e.type)).size;
  const open = (events: EventVersionModel[]) => events.filter((e) => e.open !== false).length;
  const lines = [
    '# Event catalog reference',
    '',
    `Every event of the catalog, by domain (the first segment of the event type): ${plural(types(model.events), 'event type')}, ${plural(model.events.length, 'event version')}, ${plural(model.sharedTypes.length, 'shared type')}. Event types and versions are in catalog order (the seed's order).`,
    '',
    '| domain | event types | event versions | open |',
    '|---|---:|---:|---:|',
  ];
  for (const [domain, events] of domains) lines.push(`| [${code(domain)}](${domainPage(domain)}) | ${types(events)} | ${events.length} | ${open(events)} |`);
  lines.push(`| **all** | **${types(model.events)}** | **${model.events.length}** | **${open(model.events)}** |`);
  lines.push('', `[Shared types](${SHARED}): ${model.sharedTypes.length}.`);
  lines.push('', '## Gaps', '');
  if (model.gaps.length === 0) lines.push('The catalog records no gap.');
  else {
    lines.push('What the seed does not show, in its words. Open events (fields partly or wholly not shown) are marked on their pages.', '');
    for (const gap of model.gaps) lines.push(...gapLines(gap, INDEX), '');
    lines.pop();
  }
  return { path: `${DOCS_DIR}/${INDEX}`, contents: banner(model.sourceFiles) + lines.join('\n') + '\n' };
}

export function emitDocs(model: CatalogModel): EmittedFile[] {
  const domains = new Map<string, EventVersionModel[]>();
  for (const domain of [...new Set(model.events.map((e) => domainOf(e.type)))].sort(byCodeUnit)) domains.set(domain, []);
  for (const event of model.events) domains.get(domainOf(event.type))!.push(event);
  const history = new Map<string, VersionStep[]>();
  for (const step of versionHistory(snapshotFromModel(model))) history.set(step.type, [...(history.get(step.type) ?? []), step]);
  return [
    indexDoc(model, domains),
    sharedTypesDoc(model),
    ...[...domains].map(([domain, events]) => domainDoc(model, domain, events, history)),
  ];
}
