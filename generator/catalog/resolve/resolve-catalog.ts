import { reachableSharedTypes } from '../../common/shared-types.js';
import type { CatalogModel, EventVersionModel, FieldModel, FragmentModel, GapModel, SharedTypeModel } from '../../model.js';
import { toTsName } from '../names.js';
import type { ProblemList } from '../problems.js';
import { eventKeyOf, type RawCatalog, type RawField } from '../read/raw-catalog.js';
import { firstByKey, ReuseFlattener } from './flatten-reuse.js';
import { resolveApi } from './resolve-api.js';
import { resolveField, resolveObjectType, type TypeVocabulary } from './resolve-type.js';

/**
 * Turns the checked raw declarations into the model: field types resolved, reuse flattened,
 * and which events reach each shared type. Reports what only resolving can find (unknown
 * types and references, reuse cycles, fields declared twice, fragments no event extends).
 */
export function resolveCatalog(catalog: RawCatalog, problems: ProblemList): CatalogModel {
  const sharedByName = firstByKey(catalog.sharedTypes, (t) => t.name);
  // The events' seed states no formats: a date is a plain string.
  const vocabulary: TypeVocabulary = { names: new Set(sharedByName.keys()), aName: 'a shared type', formats: [] };
  const toField = (field: RawField): FieldModel | undefined => resolveField(field, `field "${field.name}"`, vocabulary, problems);
  const toFields = (fields: RawField[]): FieldModel[] => fields.flatMap((f) => toField(f) ?? []);
  const reuse = new ReuseFlattener(catalog.fragments, catalog.events, toField, problems);

  const events: EventVersionModel[] = [];
  for (const event of firstByKey(catalog.events, eventKeyOf).values()) {
    const model: EventVersionModel = {
      type: event.type,
      version: event.version,
      key: eventKeyOf(event),
      name: `${event.type}-${event.version}`,
      tsName: toTsName(event.type, event.version),
      fields: reuse.event(event),
      open: event.open === undefined ? false : { seed: event.open },
      extends: event.extends.map((r) => r.ref),
      section: event.section,
      position: event.position,
    };
    if (event.description !== undefined) model.description = event.description;
    events.push(model);
  }

  const fragments: FragmentModel[] = [];
  for (const fragment of firstByKey(catalog.fragments, (f) => f.name).values()) {
    if (!reuse.isFlattened(fragment)) problems.warning(fragment.position, `fragment "${fragment.name}" is extended by no event`, 'fragments extended by no event');
    const model: FragmentModel = {
      name: fragment.name,
      fields: reuse.fragment(fragment), // flattened even when unused, to check it
      extends: fragment.extends.map((r) => r.ref),
      extendedBy: events.filter((e) => e.extends.includes(fragment.name)).map((e) => e.key),
      position: fragment.position,
    };
    if (fragment.description !== undefined) model.description = fragment.description;
    fragments.push(model);
  }

  const sharedTypes: SharedTypeModel[] = [...sharedByName.values()].map((shared) => ({ ...resolveObjectType(shared, toTsName(shared.name), vocabulary, problems), usedBy: [] }));
  for (const event of events) {
    for (const shared of reachableSharedTypes(sharedTypes, event.fields)) shared.usedBy.push(event.key);
  }

  const gaps: GapModel[] = catalog.gaps.map((gap): GapModel => {
    if (gap.kind === 'not_shown') return { ...gap };
    const bounds = { ...(gap.after && { after: gap.after.ref }), ...(gap.before && { before: gap.before.ref }) };
    if (gap.kind === 'events_not_shown') return { kind: gap.kind, ...bounds, seed: gap.seed, section: gap.section, position: gap.position };
    return { kind: gap.kind, ...bounds, seed: gap.seed, visibleFields: toFields(gap.visibleFields), section: gap.section, position: gap.position };
  });

  const api = resolveApi(catalog, problems);
  return { sourceFiles: catalog.files, events, sharedTypes, fragments, gaps, ...(api && { api }) };
}
