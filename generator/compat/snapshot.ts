/**
 * What a compatibility check compares: the part of a catalog a consumer depends on.
 *
 * Both sides become a `CatalogSnapshot`: the baseline from a manifest (`generated/manifest.json`
 * at a git ref, or a manifest file such as `catalog/baseline/manifest.json`), the current
 * side from the in-memory `CatalogModel`. Field types stay in catalog notation
 * (`string[]`, `billing-_billing-Ledger`); shared types are compared structurally by the diff.
 */
import { typeNotation } from '../common/type-notation.js';
import type { CatalogModel, FieldModel } from '../model.js';

export interface SnapshotField {
  name: string;
  /** Catalog notation: a primitive, a shared type name, or either followed by `[]`s. */
  type: string;
  optional: boolean;
  nullable: boolean;
}

export interface SnapshotEvent {
  type: string;
  version: string;
  open: boolean;
  /** The seed's words when `open`. */
  openSeed?: string;
  fields: SnapshotField[];
}

export interface SnapshotSharedType {
  name: string;
  fields: SnapshotField[];
  /** Keys (`type@version`) of the events that reach this type, directly or nested. */
  usedBy: string[];
}

export interface CatalogSnapshot {
  /** Catalog order. */
  events: SnapshotEvent[];
  sharedTypes: SnapshotSharedType[];
}

export const eventKey = (e: { type: string; version: string }): string => `${e.type}@${e.version}`;

const fromField = (f: FieldModel): SnapshotField => ({ name: f.name, type: typeNotation(f.type), optional: f.optional, nullable: f.nullable });

/** The current side: a loaded catalog. */
export function snapshotFromModel(model: CatalogModel): CatalogSnapshot {
  return {
    events: model.events.map((e) => ({
      type: e.type,
      version: e.version,
      open: e.open !== false,
      ...(e.open && { openSeed: e.open.seed }),
      fields: e.fields.map(fromField),
    })),
    sharedTypes: model.sharedTypes.map((t) => ({ name: t.name, fields: t.fields.map(fromField), usedBy: [...t.usedBy] })),
  };
}

/** A manifest that does not have the shape of `generated/manifest.json`. */
export class ManifestShapeError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readFields(value: unknown, where: string): SnapshotField[] {
  if (!Array.isArray(value)) throw new ManifestShapeError(`${where}: "fields" is not an array`);
  return value.map((f, i) => {
    if (!isObject(f) || typeof f.name !== 'string' || typeof f.type !== 'string' || typeof f.optional !== 'boolean') {
      throw new ManifestShapeError(`${where}: fields[${i}] needs "name" and "type" (strings) and "optional" (boolean)`);
    }
    return { name: f.name, type: f.type, optional: f.optional, nullable: f.nullable === true };
  });
}

/** The baseline side: a parsed `manifest.json` (only the keys the comparison needs are read). */
export function snapshotFromManifest(manifest: unknown): CatalogSnapshot {
  if (!isObject(manifest) || !Array.isArray(manifest.events)) throw new ManifestShapeError('not a catalog manifest: no "events" array');
  const events = manifest.events.map((e, i): SnapshotEvent => {
    if (!isObject(e) || typeof e.type !== 'string' || typeof e.version !== 'string') {
      throw new ManifestShapeError(`events[${i}] needs "type" and "version" (strings)`);
    }
    const where = `event ${e.type}@${e.version}`;
    return {
      type: e.type,
      version: e.version,
      open: e.open === true,
      ...(e.open === true && typeof e.openSeed === 'string' && { openSeed: e.openSeed }),
      fields: readFields(e.fields, where),
    };
  });
  const shared = manifest.sharedTypes ?? [];
  if (!Array.isArray(shared)) throw new ManifestShapeError('"sharedTypes" is not an array');
  const sharedTypes = shared.map((t, i): SnapshotSharedType => {
    if (!isObject(t) || typeof t.name !== 'string') throw new ManifestShapeError(`sharedTypes[${i}] needs "name" (a string)`);
    const usedBy = Array.isArray(t.usedBy) ? t.usedBy.filter((k): k is string => typeof k === 'string') : [];
    return { name: t.name, fields: readFields(t.fields, `shared type ${t.name}`), usedBy };
  });
  return { events, sharedTypes };
}
