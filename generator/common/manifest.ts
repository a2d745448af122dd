import type { CatalogModel, FieldModel, GapModel } from '../model.js';
import { bannerText, eventSources } from './banner.js';
import { schemaIds, schemaPaths } from './schema-ids.js';
import { typeNotation } from './type-notation.js';

/** A field as the manifest lists it. */
export const fieldEntry = (f: FieldModel) => ({ name: f.name, type: typeNotation(f.type), optional: f.optional, ...(f.nullable && { nullable: true }) });

/** A gap as the manifest (and the AsyncAPI `x-gaps`) lists it: the seed's words and where they are. */
export function gapEntry(gap: GapModel) {
  const where = { section: gap.section, source: `${gap.position.file}:${gap.position.line}` };
  switch (gap.kind) {
    case 'not_shown':
      return { kind: gap.kind, topic: gap.topic, seed: gap.seed, ...where };
    case 'events_not_shown':
      return { kind: gap.kind, after: gap.after ?? null, before: gap.before ?? null, seed: gap.seed, ...where };
    case 'unnamed_event':
      return { kind: gap.kind, after: gap.after ?? null, before: gap.before ?? null, visibleFields: gap.visibleFields.map(fieldEntry), seed: gap.seed, ...where };
  }
}

/**
 * The manifest (`generated/manifest.json`): every event version (catalog order), shared type
 * and gap, for tools and non-TypeScript consumers. Also the baseline format of compatibility
 * checks, hence the fields.
 */
export function manifestOf(model: CatalogModel) {
  return {
    $comment: bannerText(model.sourceFiles),
    events: model.events.map((e) => ({
      type: e.type,
      version: e.version,
      name: e.name,
      open: e.open !== false,
      ...(e.open && { openSeed: e.open.seed }),
      tsName: e.tsName,
      schemaId: schemaIds.message(e),
      payloadSchemaId: schemaIds.payload(e),
      schema: schemaPaths.message(e),
      payloadSchema: schemaPaths.payload(e),
      fields: e.fields.map(fieldEntry),
      section: e.section,
      sources: eventSources(model, e),
    })),
    sharedTypes: model.sharedTypes.map((t) => ({
      name: t.name,
      tsName: t.tsName,
      schemaId: schemaIds.shared(t.name),
      schema: schemaPaths.shared(t.name),
      fields: t.fields.map(fieldEntry),
      usedBy: t.usedBy,
      section: t.section,
    })),
    gaps: model.gaps.map(gapEntry),
  };
}
