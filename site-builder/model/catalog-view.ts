/**
 * Everything the pages show, derived once from what the package publishes: the page model
 * (`generated/docs/pages.json` with the manifest: fields, versions and the diffs between them,
 * gaps, the REST API) for what the Markdown reference shows too, and what only the site adds:
 * each event version's payload as a tree, a checked example and the links to its published
 * files; the sections; each shared type with its tree and users; the REST operations.
 */
import type { PageEvent, PageGap, PageModel, PageSharedType, VersionDiff } from '../../runtime/contract/page-model.js';
import type { ManifestEvent, ManifestSharedType } from '../published.js';
import type { PublishedPackage } from '../read-package.js';
import { exampleMessage } from './example-message.js';
import { fieldTree, flattenTree, type FieldNode, type FieldSource } from './field-tree.js';
import { baseUrl, restOperations, type RestOperation } from './rest-operations.js';

export interface EventView {
  /** What the pages show of it. */
  page: PageEvent;
  /** Where the package keeps it: TypeScript name, schema files. */
  event: ManifestEvent;
  /** `type@version`, as the manifest's `usedBy` and gaps write it. */
  key: string;
  latest: boolean;
  /** Every version of the type, in catalog order (this one included). */
  versions: readonly ManifestEvent[];
  tree: FieldNode[];
  example: { type: string; version: string; payload: Record<string, unknown> };
  /** Every ordered pair of two versions of the type. */
  diffs: readonly VersionDiff[];
  gaps: PageGap[];
  publishedBy: { operationId: string; outcome: string }[];
  /** What its own entry exports its validator as. */
  entryExport: string;
}

export interface EventTypeView {
  type: string;
  section: string;
  versions: EventView[];
}

export interface SharedTypeView {
  type: PageSharedType;
  /** Its JSON Schema in the package. */
  schema: ManifestSharedType['schema'];
  tree: FieldNode[];
  /** Other shared types it reaches, to any depth. */
  reaches: string[];
  usedBy: EventView[];
}

export interface CatalogView {
  pages: PageModel;
  events: EventView[];
  eventTypes: EventTypeView[];
  /** Section names in catalog order, each with its event types. */
  sections: { name: string; types: EventTypeView[] }[];
  sharedTypes: SharedTypeView[];
  gaps: readonly PageGap[];
  operations: RestOperation[];
  base: ReturnType<typeof baseUrl>;
}

export const eventKey = (e: { type: string; version: string }): string => `${e.type}@${e.version}`;

/** Builds the view; each example is checked by the package's `validateEvent` (strict) or the build stops. */
export function catalogView(pkg: PublishedPackage): CatalogView {
  const { manifest, pages } = pkg;
  const shared = new Map<string, readonly FieldSource[]>(pages.sharedTypes.map((t) => [t.name, t.fields]));
  const versionsOf = new Map<string, ManifestEvent[]>();
  for (const event of manifest.events) versionsOf.set(event.type, [...(versionsOf.get(event.type) ?? []), event]);
  const diffsOf = new Map(pages.eventTypes.map((t) => [t.type, t.diffs]));
  const operations = restOperations(pkg);

  const events = manifest.events.map((event, i): EventView => {
    const page = pages.events[i]!;
    const versions = versionsOf.get(event.type)!;
    const example = exampleMessage(event, shared);
    const verdict = pkg.validators.validateEvent(example, { mode: 'strict' });
    if (!verdict.ok) throw new Error(`the example message of ${event.type} ${event.version} is refused by the package's own validator: ${verdict.error.message}`);
    return {
      page,
      event,
      key: page.key,
      latest: versions[versions.length - 1] === event,
      versions,
      tree: fieldTree(page.fields, shared),
      example,
      diffs: diffsOf.get(event.type) ?? [],
      gaps: pages.gaps.filter((g) => g.kind !== 'not_shown' && (g.after === page.key || g.before === page.key)),
      entryExport: pkg.entryExport(event),
      publishedBy: (pages.api?.operations ?? []).flatMap((op) => op.emits.filter((o) => o.events.includes(page.key)).map((o) => ({ operationId: op.operationId, outcome: o.outcome }))),
    };
  });
  const byKey = new Map(events.map((view) => [view.key, view]));

  const eventTypes: EventTypeView[] = pages.eventTypes.map((t) => ({ type: t.type, section: t.section, versions: t.versions.map((v) => byKey.get(`${t.type}@${v}`)!) }));
  const sections = new Map<string, EventTypeView[]>();
  for (const view of eventTypes) sections.set(view.section, [...(sections.get(view.section) ?? []), view]);

  return {
    pages,
    events,
    eventTypes,
    sections: [...sections].map(([name, types]) => ({ name, types })),
    sharedTypes: pages.sharedTypes.map((type, i) => {
      const tree = fieldTree(type.fields, shared);
      const reaches = [...new Set(flattenTree(tree).flatMap((node) => (node.namedType && node.namedType !== type.name ? [node.namedType] : [])))];
      return { type, schema: manifest.sharedTypes[i]!.schema, tree, reaches, usedBy: type.usedBy.flatMap((key) => byKey.get(key) ?? []) };
    }),
    gaps: pages.gaps,
    operations,
    base: baseUrl(pkg),
  };
}
