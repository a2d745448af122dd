/**
 * Sample payloads built from the catalog model (its fields and named types, on any surface), for
 * tests, the sample stream and the bench.
 *
 * - `fullPayload`: every field, optional ones included; shared types filled in; arrays hold
 *   two items.
 * - `minimalPayload`: required fields only, at every depth; arrays hold one (minimal) item.
 * - `mutations`: labelled variants of the full payload that break exactly one thing, each
 *   with the JSON Pointer (inside the payload) of the property at fault.
 *
 * Everything is deterministic: values are derived from field names, never from a random
 * source or the clock, so a failing case is the same on every run.
 */
import { pointerToken } from '../../runtime/contract/json-pointer.js';
import type { CatalogModel, EventVersionModel, FieldModel, FormatName, ObjectTypeModel, PrimitiveName, TypeRef } from '../model.js';

/** The validators' modes. */
type Mode = 'tolerant' | 'strict';

export type Payload = Record<string, unknown>;

export interface Mutation {
  /** What was broken, and where: `missing /ledger/account/number`. */
  label: string;
  payload: Payload;
  /**
   * JSON Pointer, inside the payload, of the property at fault: a missing property's own
   * pointer (`/account_number`), a wrong value's pointer (`/supply_points/0/market_name`), an
   * unlisted property's pointer (`/unlisted_property`).
   */
  expectPath: string;
  /** Modes in which this variant is nevertheless valid: only unlisted properties (tolerant; strict too in open events). */
  validIn: readonly Mode[];
}

/** Name of the property the "unlisted property" variants add (suffixed if a field already has it). */
export const UNLISTED_PROPERTY = 'unlisted_property';

/** A small stable number from a string (FNV-1a, 32 bits): seeds derived from names, never from chance. */
export function fnv1a(name: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    hash ^= name.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function primitiveSample(name: PrimitiveName, seedName: string): unknown {
  const seed = fnv1a(seedName);
  switch (name) {
    case 'string':
      return `${seedName}-${seed % 1000}`;
    case 'integer':
      return 1 + (seed % 997);
    case 'number':
      return (seed % 997) + 0.25;
    case 'boolean':
      return seed % 2 === 0;
    case 'object':
      // Opaque content (`o`): any object will do.
      return { sample_of: seedName };
  }
}

/** A value of each stated format: 29 February of a leap year, the one day only a real calendar check accepts. */
const FORMAT_SAMPLES: Readonly<Record<FormatName, string>> = { date: '2024-02-29', datetime: '2024-02-29T13:45:00Z', decimal: '125.50' };

/** A value of the wrong type for a primitive. */
function wrongPrimitive(name: PrimitiveName): unknown {
  switch (name) {
    case 'string':
      return 42;
    case 'integer':
      return 1.5;
    case 'number':
      return '12.5';
    case 'boolean':
      return 'true';
    case 'object':
      return ['not', 'an', 'object'];
  }
}

/** A value of the wrong type for a field's type; never `null` (that is its own variant). */
function wrongValue(type: TypeRef): unknown {
  switch (type.kind) {
    case 'primitive':
      return wrongPrimitive(type.name);
    case 'format':
      return wrongPrimitive('string');
    case 'array':
      return { 0: 'not an array' };
    case 'named':
      return 'not an object';
  }
}

class SampleBuilder {
  private readonly shared: Map<string, ObjectTypeModel>;

  constructor(model: CatalogModel) {
    this.shared = new Map(model.sharedTypes.map((t) => [t.name, t]));
  }

  sharedType(name: string): ObjectTypeModel {
    const shared = this.shared.get(name);
    if (!shared) throw new Error(`samples: unknown shared type ${name}`);
    return shared;
  }

  /**
   * An object for a list of fields. `stack` holds the shared types being built around this
   * one: a full sample stops at a cycle (that occurrence is built minimally); a minimal one
   * cannot, and says so.
   */
  object(fields: readonly FieldModel[], full: boolean, seedPrefix: string, stack: readonly string[]): Payload {
    const result: Payload = {};
    for (const field of fields) {
      if (field.optional && !full) continue;
      result[field.name] = this.value(field.type, full, `${seedPrefix}${field.name}`, stack);
    }
    return result;
  }

  value(type: TypeRef, full: boolean, seedName: string, stack: readonly string[]): unknown {
    switch (type.kind) {
      case 'primitive':
        return primitiveSample(type.name, seedName);
      case 'format':
        return FORMAT_SAMPLES[type.name];
      case 'array': {
        const count = full ? 2 : 1;
        return Array.from({ length: count }, (_, i) => this.value(type.items, full, `${seedName}-${i}`, stack));
      }
      case 'named': {
        if (stack.includes(type.name)) {
          if (!full) throw new Error(`samples: the required fields of ${[...stack, type.name].join(' → ')} form a cycle`);
          return this.object(this.sharedType(type.name).fields, false, `${seedName}.`, [...stack, type.name]);
        }
        return this.object(this.sharedType(type.name).fields, full, `${seedName}.`, [...stack, type.name]);
      }
    }
  }
}

/** Every field, optional ones included, at every depth; arrays hold two items. */
export function fullPayload(model: CatalogModel, event: EventVersionModel): Payload {
  return new SampleBuilder(model).object(event.fields, true, '', []);
}

/** Required fields only, at every depth; arrays hold one item, itself minimal. */
export function minimalPayload(model: CatalogModel, event: EventVersionModel): Payload {
  return new SampleBuilder(model).object(event.fields, false, '', []);
}

const pointer = (path: readonly (string | number)[]): string => path.map((p) => `/${pointerToken(String(p))}`).join('');

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** The parent container of `path` inside `root` (the path must exist down to its parent). */
function parentOf(root: Payload, path: readonly (string | number)[]): Record<string | number, unknown> {
  let node: unknown = root;
  for (const step of path.slice(0, -1)) node = (node as Record<string | number, unknown>)[step];
  return node as Record<string | number, unknown>;
}

function withChange(base: Payload, path: readonly (string | number)[], change: { remove: true } | { value: unknown }): Payload {
  const payload = clone(base);
  const parent = parentOf(payload, path);
  const last = path[path.length - 1]!;
  if ('remove' in change) delete parent[last];
  else parent[last] = change.value;
  return payload;
}

/**
 * Labelled invalid variants of `fullPayload`, each breaking one thing, at every depth (into
 * shared types, and into the first item of arrays):
 *
 * - each required field removed (`missing`);
 * - each field, and the first item of each array, given a value of the wrong type (`wrong type`);
 * - `null` for each optional field that is not nullable (`null`);
 * - an unlisted property on each object the catalog describes (`unlisted property`): valid in
 *   tolerant mode; in strict mode too, but only on the payload of an open event.
 */
export function mutations(model: CatalogModel, event: EventVersionModel): Mutation[] {
  const builder = new SampleBuilder(model);
  const base = fullPayload(model, event);
  const result: Mutation[] = [];

  const unlistedName = (fields: readonly FieldModel[]): string => {
    let name = UNLISTED_PROPERTY;
    while (fields.some((f) => f.name === name)) name += '_x';
    return name;
  };

  const visitObject = (fields: readonly FieldModel[], at: readonly (string | number)[], stack: readonly string[], openPayload: boolean): void => {
    for (const field of fields) {
      const path = [...at, field.name];
      const where = pointer(path);
      if (!field.optional) {
        result.push({ label: `missing ${where}`, payload: withChange(base, path, { remove: true }), expectPath: where, validIn: [] });
      }
      result.push({ label: `wrong type ${where}`, payload: withChange(base, path, { value: wrongValue(field.type) }), expectPath: where, validIn: [] });
      if (field.optional && !field.nullable) {
        result.push({ label: `null ${where}`, payload: withChange(base, path, { value: null }), expectPath: where, validIn: [] });
      }
      visitValue(field.type, path, stack);
    }
    const extra = [...at, unlistedName(fields)];
    result.push({
      label: `unlisted property ${pointer(extra)}`,
      payload: withChange(base, extra, { value: 'not in the catalog' }),
      expectPath: pointer(extra),
      validIn: openPayload ? ['tolerant', 'strict'] : ['tolerant'],
    });
  };

  const visitValue = (type: TypeRef, path: readonly (string | number)[], stack: readonly string[]): void => {
    if (type.kind === 'array') {
      const item = [...path, 0];
      result.push({ label: `wrong type ${pointer(item)}`, payload: withChange(base, item, { value: wrongValue(type.items) }), expectPath: pointer(item), validIn: [] });
      visitValue(type.items, item, stack);
    } else if (type.kind === 'named' && !stack.includes(type.name)) {
      visitObject(builder.sharedType(type.name).fields, path, [...stack, type.name], false);
    }
  };

  visitObject(event.fields, [], [], event.open !== false);
  return result;
}
