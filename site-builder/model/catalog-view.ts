/**
 * Everything the pages show, derived once from what the package publishes: each event version
 * with its payload tree, a checked example, its diffs with the other versions of its type and
 * the REST operations assumed to publish it; the sections; each shared type with its tree and
 * users; the REST operations.
 */
import type { ManifestEvent, ManifestGap, ManifestSharedType } from '../published.js';
import type { PublishedPackage } from '../read-package.js';
import { exampleMessage } from './example-message.js';
import { fieldTree, flattenTree, type FieldNode, type FieldSource } from './field-tree.js';
import { baseUrl, restOperations, type RestOperation } from './rest-operations.js';
import { diffVersions, type VersionDiff } from './version-diff.js';

export interface EventView {
  event: ManifestEvent;
  /** `type@version`, as the manifest's `usedBy` and gaps write it. */
  key: string;
  latest: boolean;
  /** Every version of the type, in catalog order (this one included). */
  versions: readonly ManifestEvent[];
  tree: FieldNode[];
  example: { type: string; version: string; payload: Record<string, unknown> };
  /** Every ordered pair of two versions of the type. */
  diffs: VersionDiff[];
  gaps: ManifestGap[];
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
  type: ManifestSharedType;
  tree: FieldNode[];
  /** Other shared types it reaches, to any depth. */
  reaches: string[];
  usedBy: EventView[];
}

export interface CatalogView {
  events: EventView[];
  eventTypes: EventTypeView[];
  /** Section names in catalog order, each with its event types. */
  sections: { name: string; types: EventTypeView[] }[];
  sharedTypes: SharedTypeView[];
  gaps: ManifestGap[];
  operations: RestOperation[];
  base: ReturnType<typeof baseUrl>;
}

export const eventKey = (e: { type: string; version: string }): string => `${e.type}@${e.version}`;

/** Builds the view; each example is checked by the package's `validateEvent` (strict) or the build stops. */
export function catalogView(pkg: PublishedPackage): CatalogView {
  const { manifest } = pkg;
  const shared = new Map<string, readonly FieldSource[]>(manifest.sharedTypes.map((t) => [t.name, t.fields]));
  const versionsOf = new Map<string, ManifestEvent[]>();
  for (const event of manifest.events) versionsOf.set(event.type, [...(versionsOf.get(event.type) ?? []), event]);
  const operations = restOperations(pkg);

  const diffsOf = new Map<string, VersionDiff[]>();
  for (const [type, versions] of versionsOf) {
    diffsOf.set(type, versions.flatMap((from) => versions.filter((to) => to !== from).map((to) => diffVersions(from, to, shared))));
  }

  const events = manifest.events.map((event): EventView => {
    const key = eventKey(event);
    const versions = versionsOf.get(event.type)!;
    const example = exampleMessage(event, shared);
    const verdict = pkg.validators.validateEvent(example, { mode: 'strict' });
    if (!verdict.ok) throw new Error(`the example message of ${event.type} ${event.version} is refused by the package's own validator: ${verdict.error.message}`);
    return {
      event,
      key,
      latest: versions[versions.length - 1] === event,
      versions,
      tree: fieldTree(event.fields, shared),
      example,
      diffs: diffsOf.get(event.type)!,
      gaps: manifest.gaps.filter((g) => g.kind !== 'not_shown' && (g.after === key || g.before === key)),
      entryExport: pkg.entryExport(event),
      publishedBy: operations.flatMap((op) => op.events.filter((o) => o.events.some((e) => eventKey(e) === key)).map((o) => ({ operationId: op.operationId, outcome: o.outcome }))),
    };
  });
  const byKey = new Map(events.map((view) => [view.key, view]));

  const eventTypes: EventTypeView[] = [...versionsOf].map(([type, versions]) => ({ type, section: versions[0]!.section, versions: versions.map((v) => byKey.get(eventKey(v))!) }));
  const sections = new Map<string, EventTypeView[]>();
  for (const view of eventTypes) sections.set(view.section, [...(sections.get(view.section) ?? []), view]);

  return {
    events,
    eventTypes,
    sections: [...sections].map(([name, types]) => ({ name, types })),
    sharedTypes: manifest.sharedTypes.map((type) => {
      const tree = fieldTree(type.fields, shared);
      const reaches = [...new Set(flattenTree(tree).flatMap((node) => (node.namedType && node.namedType !== type.name ? [node.namedType] : [])))];
      return { type, tree, reaches, usedBy: type.usedBy.flatMap((key) => byKey.get(key) ?? []) };
    }),
    gaps: manifest.gaps,
    operations,
    base: baseUrl(pkg),
  };
}
