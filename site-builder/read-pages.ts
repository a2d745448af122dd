/**
 * The page model the site renders (`runtime/contract/page-model.ts`), read from what the
 * package publishes: `generated/docs/pages.json` joined with `generated/manifest.json`, which
 * holds the rest (each event version's and shared type's fields, names and sections, who
 * uses a shared type, the gaps). The Markdown reference is rendered from the same model.
 */
import type { PageField, PageGap, PageModel, PublishedField, PublishedPages } from '../runtime/contract/page-model.js';
import type { Manifest, ManifestField } from './published.js';

/** A published file that is not what the site can read. */
export class PublishedPagesError extends Error {
  override name = 'PublishedPagesError';
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The keys the site reads, checked for their kind; fails with the JSON Pointer of the first that is not. */
function checkPublished(value: unknown): PublishedPages {
  const fail = (pointer: string, expected: string): never => {
    throw new PublishedPagesError(`generated/docs/pages.json${pointer}: expected ${expected}`);
  };
  if (!isObject(value)) return fail('', 'an object');
  for (const key of ['words', 'rules', 'events', 'diffs', 'sharedTypes']) if (!isObject(value[key])) fail(`/${key}`, 'an object');
  for (const key of ['sourceFiles', 'fragments']) if (!Array.isArray(value[key])) fail(`/${key}`, 'an array');
  for (const [type, diffs] of Object.entries(value.diffs as Record<string, unknown>)) {
    if (!Array.isArray(diffs)) fail(`/diffs/${type}`, 'an array');
    (diffs as unknown[]).forEach((diff, i) => {
      if (!isObject(diff) || typeof diff.from !== 'string' || typeof diff.to !== 'string' || !Array.isArray(diff.changes) || typeof diff.impact !== 'string') {
        fail(`/diffs/${type}/${i}`, 'a diff: "from", "to", "changes" and "impact"');
      }
    });
  }
  if (value.api !== undefined && (!isObject(value.api) || !Array.isArray(value.api.operations) || !Array.isArray(value.api.types))) fail('/api', 'an object with "operations" and "types"');
  return value as unknown as PublishedPages;
}

/** `string[][]` → `string`. */
const baseOf = (notation: string): string => notation.replace(/(\[\])+$/, '');

/** A field with its named type, when its notation's base is one of `named`. */
function withNamedType(field: ManifestField | PublishedField, named: ReadonlySet<string>, description?: string): PageField {
  const base = baseOf(field.type);
  return { ...field, ...(named.has(base) && { namedType: base }), nullable: field.nullable === true, ...(description !== undefined && { description }) };
}

function pageGap(gap: Manifest['gaps'][number], named: ReadonlySet<string>): PageGap {
  switch (gap.kind) {
    case 'not_shown':
      return { kind: gap.kind, topic: gap.topic, seed: gap.seed, section: gap.section };
    case 'events_not_shown':
      return { kind: gap.kind, after: gap.after, before: gap.before, seed: gap.seed, section: gap.section };
    case 'unnamed_event':
      return { kind: gap.kind, after: gap.after, before: gap.before, visibleFields: gap.visibleFields.map((f) => withNamedType(f, named)), seed: gap.seed, section: gap.section };
  }
}

/** The page model: `pages.json` (parsed) joined with the manifest it refers to. */
export function readPages(manifest: Manifest, published: unknown): PageModel {
  const pages = checkPublished(published);
  const shared = new Set(manifest.sharedTypes.map((t) => t.name));
  const apiTypes = new Set(pages.api?.types.map((t) => t.name) ?? []);
  const versionsOf = new Map<string, Manifest['events']>();
  for (const event of manifest.events) versionsOf.set(event.type, [...(versionsOf.get(event.type) ?? []), event]);
  return {
    sourceFiles: pages.sourceFiles,
    words: pages.words,
    rules: pages.rules,
    events: manifest.events.map((e) => {
      const key = `${e.type}@${e.version}`;
      const extra = pages.events[key];
      return {
        key,
        type: e.type,
        version: e.version,
        name: e.name,
        section: e.section,
        ...(e.open && e.openSeed !== undefined && { openSeed: e.openSeed }),
        ...(extra?.description !== undefined && { description: extra.description }),
        extends: extra?.extends ?? [],
        fields: e.fields.map((f) => withNamedType(f, shared, extra?.fieldDescriptions?.[f.name])),
        sources: e.sources,
      };
    }),
    eventTypes: [...versionsOf].map(([type, versions]) => ({ type, section: versions[0]!.section, versions: versions.map((v) => v.version), diffs: pages.diffs[type] ?? [] })),
    sharedTypes: manifest.sharedTypes.map((t) => {
      const extra = pages.sharedTypes[t.name];
      if (!extra) throw new PublishedPagesError(`generated/docs/pages.json/sharedTypes: no entry for the manifest's shared type ${t.name}: the two files come from different generations (run npm run generate)`);
      return {
        name: t.name,
        tsName: t.tsName,
        section: t.section,
        ...(extra.description !== undefined && { description: extra.description }),
        fields: t.fields.map((f) => withNamedType(f, shared, extra.fieldDescriptions?.[f.name])),
        usedBy: t.usedBy,
        source: extra.source,
      };
    }),
    fragments: pages.fragments.map((f) => ({ ...f, fields: f.fields.map((field) => withNamedType(field, shared)) })),
    gaps: manifest.gaps.map((gap) => pageGap(gap, shared)),
    ...(pages.api && {
      api: {
        ...pages.api,
        operations: pages.api.operations.map((op) => ({ ...op, params: op.params.map((f) => withNamedType(f, apiTypes)), query: op.query.map((f) => withNamedType(f, apiTypes)) })),
        types: pages.api.types.map((t) => ({ ...t, fields: t.fields.map((f) => withNamedType(f, apiTypes)) })),
      },
    }),
  };
}
