import type { FieldModel, ObjectTypeModel, TypeRef } from '../model.js';
import { byCodeUnit } from '../../runtime/contract/code-unit-order.js';

/**
 * The shared types some fields reach, directly, in arrays or through other shared types,
 * sorted by name. One walk for everyone: the resolver derives `usedBy` from it, the schema
 * builder the `$defs` of a schema.
 */
export function reachableSharedTypes(sharedTypes: readonly ObjectTypeModel[], fields: readonly FieldModel[]): ObjectTypeModel[] {
  const byName = sharedTypesByName(sharedTypes);
  const reached = new Map<string, ObjectTypeModel>();
  const visit = (type: TypeRef): void => {
    if (type.kind === 'array') return visit(type.items);
    if (type.kind !== 'named' || reached.has(type.name)) return;
    const shared = byName.get(type.name);
    if (shared === undefined) return;
    reached.set(type.name, shared);
    for (const field of shared.fields) visit(field.type);
  };
  for (const field of fields) visit(field.type);
  return [...reached.values()].sort((a, b) => byCodeUnit(a.name, b.name));
}

/**
 * The lookup by name, built once per list (rebuilt if the list has since grown or shrunk):
 * every event asks, and building it per call made the walk grow with events × shared types.
 */
const lookups = new WeakMap<readonly ObjectTypeModel[], { length: number; byName: ReadonlyMap<string, ObjectTypeModel> }>();

function sharedTypesByName(sharedTypes: readonly ObjectTypeModel[]): ReadonlyMap<string, ObjectTypeModel> {
  const known = lookups.get(sharedTypes);
  if (known?.length === sharedTypes.length) return known.byName;
  const byName = new Map(sharedTypes.map((t) => [t.name, t]));
  lookups.set(sharedTypes, { length: sharedTypes.length, byName });
  return byName;
}
