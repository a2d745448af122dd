/**
 * The page model (`runtime/contract/page-model.ts`): whatever the Markdown reference and the
 * site show, built once from the catalog model, and its published form, `docs/pages.json`,
 * which holds only what `manifest.json` does not: the site joins the two again
 * (`site-builder/read-pages.ts`). The Markdown pages (`docs.ts`, `api-docs.ts`) are rendered
 * from the model itself.
 *
 * The differences between versions are the compatibility check's (`compat/diff.ts`), for
 * every ordered pair of two versions of a type, each change classified by `compat/rules.ts`,
 * which also says which readers it breaks.
 */
import type {
  PageApi,
  PageEventType,
  PageField,
  PageGap,
  PageModel,
  PublishedField,
  PublishedPages,
  Reader,
  VerdictWords,
  VersionDiff,
} from '../../runtime/contract/page-model.js';
import { PUBLISHED_PAGES_PATH } from '../../runtime/contract/page-model.js';
import { bannerText, eventSources } from '../common/banner.js';
import { stableJson } from '../common/text.js';
import { typeNotation } from '../common/type-notation.js';
import { compareVersions } from '../compat/diff.js';
import { RULES, worst } from '../compat/rules.js';
import { eventKey, snapshotFromModel, type CatalogSnapshot, type SnapshotEvent } from '../compat/snapshot.js';
import type { ApiModel, CatalogModel, FieldModel, GapModel, TypeRef } from '../model.js';
import type { EmittedFile } from './emitted-file.js';

/** The verdict words of every page, Markdown and HTML. */
export const VERDICT_WORDS: VerdictWords = {
  severity: { breaking: 'breaking', 'changes-types': 'changes types', compatible: 'compatible' },
  unchanged: 'no change',
  readers: { tolerant: 'tolerant', strict: 'strict', types: 'code compiled against the earlier types' },
};

/** `breaks tolerant and strict readers and code compiled against the earlier types`, `breaks no reader`. */
function impactOf(changes: number, breaks: readonly Reader[]): string {
  if (changes === 0) return 'no change to the payload';
  const validating = breaks.filter((r) => r !== 'types').map((r) => VERDICT_WORDS.readers[r]);
  const parts = [...(validating.length > 0 ? [`${listed(validating)} readers`] : []), ...(breaks.includes('types') ? [VERDICT_WORDS.readers.types] : [])];
  return parts.length === 0 ? 'breaks no reader' : `breaks ${parts.join(' and ')}`;
}

const READERS: readonly Reader[] = ['tolerant', 'strict', 'types'];

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: readonly string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** The named type a value, or each item of a list, is. */
function namedTypeOf(type: TypeRef): string | undefined {
  if (type.kind === 'array') return namedTypeOf(type.items);
  return type.kind === 'named' ? type.name : undefined;
}

function pageField(field: FieldModel): PageField {
  const named = namedTypeOf(field.type);
  return {
    name: field.name,
    type: typeNotation(field.type),
    ...(named !== undefined && { namedType: named }),
    optional: field.optional,
    nullable: field.nullable,
    ...(field.description !== undefined && { description: field.description }),
    ...(field.enum && { enum: field.enum }),
    ...(field.examples && { examples: field.examples }),
    ...(field.default !== undefined && { default: field.default }),
    ...(field.whyOptional !== undefined && { whyOptional: field.whyOptional }),
    ...(field.notShown !== undefined && { notShown: field.notShown }),
    ...(field.minLength !== undefined && { minLength: field.minLength }),
  };
}

function pageGap(gap: GapModel): PageGap {
  switch (gap.kind) {
    case 'not_shown':
      return { kind: gap.kind, topic: gap.topic, seed: gap.seed, section: gap.section };
    case 'events_not_shown':
      return { kind: gap.kind, after: gap.after ?? null, before: gap.before ?? null, seed: gap.seed, section: gap.section };
    case 'unnamed_event':
      return { kind: gap.kind, after: gap.after ?? null, before: gap.before ?? null, visibleFields: gap.visibleFields.map(pageField), seed: gap.seed, section: gap.section };
  }
}

/** What a consumer of `from` meets in messages of `to`. */
function versionDiff(snapshot: CatalogSnapshot, from: SnapshotEvent, to: SnapshotEvent): VersionDiff {
  const changes = compareVersions(snapshot, from, to).map((c) => ({ kind: c.kind, severity: c.severity, ...(c.field !== undefined && { field: c.field }), message: c.message }));
  const severity = worst(changes.map((c) => c.severity));
  const breaks = READERS.filter((reader) => changes.some((c) => RULES[c.kind].breaks.includes(reader)));
  return { from: from.version, to: to.version, changes, ...(severity && { severity }), breaks, impact: impactOf(changes.length, breaks) };
}

function eventTypes(model: CatalogModel): PageEventType[] {
  const snapshot = snapshotFromModel(model);
  const byType = new Map<string, SnapshotEvent[]>();
  for (const event of snapshot.events) byType.set(event.type, [...(byType.get(event.type) ?? []), event]);
  return [...byType].map(([type, versions]) => ({
    type,
    section: model.events.find((e) => e.type === type)!.section,
    versions: versions.map((v) => v.version),
    diffs: versions.flatMap((from) => versions.filter((to) => to !== from).map((to) => versionDiff(snapshot, from, to))),
  }));
}

function pageApi(api: ApiModel): PageApi {
  const bodyTypes = (op: ApiModel['operations'][number]): (string | undefined)[] => [op.request, ...op.responses.flatMap((r) => r.json ?? [])].map((t) => t && namedTypeOf(t));
  return {
    title: api.title,
    ...(api.description !== undefined && { description: api.description }),
    sourceFiles: api.sourceFiles,
    contradictions: api.contradictions.map(({ topic, seed, accepted }) => ({ topic, seed, accepted })),
    assumptions: api.assumptions.map(({ topic, seed, assumed }) => ({ topic, seed, assumed })),
    gaps: api.gaps.map(({ topic, seed }) => ({ topic, seed })),
    operations: api.operations.map((op) => ({
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      ...(op.summary !== undefined && { summary: op.summary }),
      ...(op.description !== undefined && { description: op.description }),
      params: op.params.map(pageField),
      query: op.query.map(pageField),
      ...(op.request && { request: typeNotation(op.request) }),
      responses: op.responses.map((r) => ({
        status: r.status,
        description: r.description,
        ...(r.json && { json: r.json.map(typeNotation) }),
        ...(r.text !== undefined && { text: r.text }),
        ...(r.notShown !== undefined && { notShown: r.notShown }),
        ...(r.retry && { retry: { retried: r.retry.retried, seed: r.retry.seed } }),
      })),
      emits: op.emits.map((e) => ({ outcome: e.outcome, events: e.events.map(eventKey) })),
    })),
    types: api.types.map((t) => ({
      name: t.name,
      ...(t.description !== undefined && { description: t.description }),
      ...(t.open && { openSeed: t.open.seed }),
      ...(t.requiredNotShown !== undefined && { requiredNotShown: t.requiredNotShown }),
      ...(t.atLeastOneOf && { atLeastOneOf: t.atLeastOneOf }),
      fields: t.fields.map(pageField),
      usedBy: api.operations.filter((op) => bodyTypes(op).includes(t.name)).map((op) => op.operationId),
    })),
  };
}

function buildPageModel(model: CatalogModel): PageModel {
  return {
    sourceFiles: model.sourceFiles,
    words: VERDICT_WORDS,
    rules: RULES,
    events: model.events.map((e) => ({
      key: e.key,
      type: e.type,
      version: e.version,
      name: e.name,
      section: e.section,
      ...(e.open && { openSeed: e.open.seed }),
      ...(e.description !== undefined && { description: e.description }),
      extends: e.extends,
      fields: e.fields.map(pageField),
      sources: eventSources(model, e),
    })),
    eventTypes: eventTypes(model),
    sharedTypes: model.sharedTypes.map((t) => ({
      name: t.name,
      tsName: t.tsName,
      section: t.section,
      ...(t.description !== undefined && { description: t.description }),
      fields: t.fields.map(pageField),
      usedBy: t.usedBy,
      source: t.position.file,
    })),
    fragments: model.fragments.map((f) => ({
      name: f.name,
      ...(f.description !== undefined && { description: f.description }),
      extends: f.extends,
      fields: f.fields.map(pageField),
      extendedBy: f.extendedBy,
      source: f.position.file,
    })),
    gaps: model.gaps.map(pageGap),
    ...(model.api && { api: pageApi(model.api) }),
  };
}

const built = new WeakMap<CatalogModel, PageModel>();

/** The page model of a catalog, built once however many pages ask. */
export function pageModelOf(model: CatalogModel): PageModel {
  let pages = built.get(model);
  if (!pages) built.set(model, (pages = buildPageModel(model)));
  return pages;
}

// ── the published form ──────────────────────────────────────────────────────────────────

function publishedField(field: PageField): PublishedField {
  const { namedType: _named, nullable, ...rest } = field;
  return { ...rest, ...(nullable && { nullable: true }) };
}

/** Field descriptions by name, or nothing when no field has one. */
function fieldDescriptions(fields: readonly PageField[]): { fieldDescriptions?: Record<string, string> } {
  const described = fields.filter((f) => f.description !== undefined).map((f) => [f.name, f.description!] as const);
  return described.length > 0 ? { fieldDescriptions: Object.fromEntries(described) } : {};
}

/** The page model less what the manifest holds. */
export function publishedPages(pages: PageModel): PublishedPages {
  const events = pages.events.flatMap((e) => {
    const extra = { ...(e.description !== undefined && { description: e.description }), ...(e.extends.length > 0 && { extends: e.extends }), ...fieldDescriptions(e.fields) };
    return Object.keys(extra).length > 0 ? [[e.key, extra] as const] : [];
  });
  return {
    $comment: bannerText([...pages.sourceFiles, ...(pages.api?.sourceFiles ?? [])]),
    sourceFiles: pages.sourceFiles,
    words: pages.words,
    rules: pages.rules,
    events: Object.fromEntries(events),
    diffs: Object.fromEntries(pages.eventTypes.filter((t) => t.versions.length > 1).map((t) => [t.type, t.diffs])),
    sharedTypes: Object.fromEntries(
      pages.sharedTypes.map((t) => [t.name, { source: t.source, ...(t.description !== undefined && { description: t.description }), ...fieldDescriptions(t.fields) }]),
    ),
    fragments: pages.fragments.map((f) => ({ ...f, fields: f.fields.map(publishedField) })),
    ...(pages.api && {
      api: {
        ...pages.api,
        operations: pages.api.operations.map((op) => ({ ...op, params: op.params.map(publishedField), query: op.query.map(publishedField) })),
        types: pages.api.types.map((t) => ({ ...t, fields: t.fields.map(publishedField) })),
      },
    }),
  };
}

/** `docs/pages.json`: the published page model. */
export function emitPageModel(model: CatalogModel): EmittedFile {
  return { path: PUBLISHED_PAGES_PATH, contents: stableJson(publishedPages(pageModelOf(model))) };
}
