/**
 * What the home page's search reads, compact: the manifest's fields of every event version
 * and shared type (the browser expands them through shared types with `field-tree.ts`, as the
 * event pages do), and the fields of each REST operation's bodies and parameters, flattened.
 */
import type { Manifest } from '../published.js';
import { flattenTree, type FieldSource } from './field-tree.js';
import type { RestOperation } from './rest-operations.js';

/** `[name, type, optional, nullable]`, 1 for true and 0 for false. */
export type CompactField = readonly [name: string, type: string, optional: 0 | 1, nullable: 0 | 1];

export interface SearchData {
  sharedTypes: (readonly [name: string, fields: CompactField[]])[];
  /** In catalog order; `latest` is 1 for the last version of its type. */
  events: (readonly [type: string, version: string, latest: 0 | 1, fields: CompactField[]])[];
  /** Each field as `[path joined with dots, always present, named types passed through, joined with ' › ']`. */
  operations: (readonly [operationId: string, method: string, path: string, summary: string, fields: (readonly [path: string, alwaysPresent: 0 | 1, via: string])[]])[];
}

const bit = (value: boolean | undefined): 0 | 1 => (value ? 1 : 0);
export const compactField = (f: FieldSource): CompactField => [f.name, f.type, bit(f.optional), bit(f.nullable)];
export const expandField = ([name, type, optional, nullable]: CompactField): FieldSource => ({ name, type, optional: optional === 1, nullable: nullable === 1 });

export function searchData(manifest: Manifest, operations: readonly RestOperation[], latest: (event: { type: string; version: string }) => boolean): SearchData {
  return {
    sharedTypes: manifest.sharedTypes.map((t) => [t.name, t.fields.map(compactField)] as const),
    events: manifest.events.map((e) => [e.type, e.version, bit(latest(e)), e.fields.map(compactField)] as const),
    operations: operations.map((op) => {
      const trees = [...op.params, ...op.query, ...(op.request?.fields ?? []), ...op.responses.flatMap((r) => r.bodies.flatMap((b) => b.fields))];
      const seen = new Set<string>();
      const fields = flattenTree(trees)
        .map((node) => [node.path.join('.'), bit(node.alwaysPresent), node.via.join(' › ')] as const)
        .filter(([path, , via]) => !seen.has(`${path}|${via}`) && Boolean(seen.add(`${path}|${via}`)));
      return [op.operationId, op.method, op.path, op.summary ?? '', fields] as const;
    }),
  };
}
