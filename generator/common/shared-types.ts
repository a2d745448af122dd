import type { FieldModel, ObjectTypeModel, TypeRef } from '../model.js';
import { byCodeUnit } from '../../runtime/contract/code-unit-order.js';

/**
 * The named object types some types reach, directly, in arrays or through other named types,
 * in the order of `types` (the catalog's). One walk for every surface: the resolver derives
 * the shared types' `usedBy` from it, the schema builders the `$defs` of a schema, the OpenAPI
 * document which types requests and responses reach.
 */
export function reachableTypes<T extends ObjectTypeModel>(types: readonly T[], roots: readonly TypeRef[]): T[] {
  const byName = typesByName(types);
  const reached = new Set<string>();
  const visit = (type: TypeRef): void => {
    if (type.kind === 'array') return visit(type.items);
    if (type.kind !== 'named' || reached.has(type.name)) return;
    const named = byName.get(type.name);
    if (named === undefined) return;
    reached.add(type.name);
    for (const field of named.fields) visit(field.type);
  };
  for (const root of roots) visit(root);
  return reached.size === 0 ? [] : types.filter((t) => reached.has(t.name));
}

/** The shared types some fields reach, sorted by name: an event's `$defs`, and the events each shared type is used by. */
export function reachableSharedTypes<T extends ObjectTypeModel>(sharedTypes: readonly T[], fields: readonly FieldModel[]): T[] {
  return reachableTypes(sharedTypes, fields.map((f) => f.type)).sort((a, b) => byCodeUnit(a.name, b.name));
}

/**
 * The lookup by name, built once per list (rebuilt if the list has since grown or shrunk):
 * every event asks, and building it per call made the walk grow with events × shared types.
 */
const lookups = new WeakMap<readonly ObjectTypeModel[], { length: number; byName: ReadonlyMap<string, ObjectTypeModel> }>();

function typesByName<T extends ObjectTypeModel>(types: readonly T[]): ReadonlyMap<string, T> {
  const known = lookups.get(types);
  if (known?.length === types.length) return known.byName as ReadonlyMap<string, T>;
  const byName = new Map(types.map((t) => [t.name, t]));
  lookups.set(types, { length: types.length, byName });
  return byName;
}
