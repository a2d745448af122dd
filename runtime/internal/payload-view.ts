/**
 * Bounds on the search for a rejected payload's issues. The all-errors validator makes one
 * error object per fault, and a payload can hold millions of faults (an array of ten million
 * wrong items), so a large payload is searched through a bounded view of it.
 */
import type { CompiledValidatorError } from '../contract/compiled-validator.js';
import { pointerToken } from '../contract/json-pointer.js';

/** Payloads of at most this many values (counting every member and item) are searched in full. */
export const FULL_SEARCH_LIMIT = 4096;

/** Whether `root` holds more than `limit` values; reads at most about `limit` of them. */
export function hasMoreValuesThan(root: unknown, limit: number): boolean {
  let count = 1;
  // Only containers wait here: a leaf is counted and done with.
  const pending: object[] = [];
  let value: unknown = root;
  for (;;) {
    if (typeof value === 'object' && value !== null) {
      if (Array.isArray(value)) {
        count += value.length;
        if (count > limit) return true;
        for (let i = 0; i < value.length; i++) {
          const item: unknown = value[i];
          if (typeof item === 'object' && item !== null) pending.push(item);
        }
      } else {
        for (const key in value) {
          if (++count > limit) return true;
          const member: unknown = (value as Record<string, unknown>)[key];
          if (typeof member === 'object' && member !== null) pending.push(member);
        }
      }
    }
    if (pending.length === 0) return false;
    value = pending.pop();
  }
}

export interface PayloadView {
  /** A copy of the payload with at most `budget` values. */
  root: unknown;
  /** Whether this error only says that the view left a property out (`required` of a property the payload has). */
  omitted(error: CompiledValidatorError): boolean;
}

/**
 * A copy of `root` that keeps at most `budget` values, breadth first, so every level is seen
 * before the next: the first items of each array, the first members of each object.
 * Every fault in the view is a fault of the payload at the same path, except a `required`
 * error for a member the view left out (see `omitted`).
 */
export function boundedView(root: unknown, budget: number): PayloadView {
  /** Objects some of whose members the view leaves out, by their JSON Pointer in the payload. */
  const cut = new Map<string, object>();
  let left = budget;
  const rootCopy = emptyCopy(root);
  const queue: [source: unknown, copy: unknown, path: string][] = [[root, rootCopy, '']];
  const take = (source: unknown, copies: unknown[] | Record<string, unknown>, key: string | number, path: string): void => {
    const value = (source as Record<string | number, unknown>)[key];
    const copy = emptyCopy(value);
    (copies as Record<string | number, unknown>)[key] = copy;
    if (copy !== value) queue.push([value, copy, `${path}/${typeof key === 'number' ? key : pointerToken(key)}`]);
  };
  for (let head = 0; head < queue.length; head++) {
    const [source, copy, path] = queue[head]!;
    if (Array.isArray(source)) {
      const kept = Math.min(source.length, left);
      left -= kept;
      for (let i = 0; i < kept; i++) take(source, copy as unknown[], i, path);
    } else {
      const keys = Object.keys(source as object);
      const kept = Math.min(keys.length, left);
      left -= kept;
      if (kept < keys.length) cut.set(path, source as object);
      for (let i = 0; i < kept; i++) take(source, copy as Record<string, unknown>, keys[i]!, path);
    }
  }
  return {
    root: rootCopy,
    omitted(error) {
      const source = error.keyword === 'required' ? cut.get(error.instancePath) : undefined;
      return source !== undefined && Object.prototype.hasOwnProperty.call(source, String(error.params.missingProperty));
    },
  };
}

/** An empty array or object to fill in place of a container; any other value as it is. */
function emptyCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  // No prototype: a member named `__proto__` stays a member.
  return Array.isArray(value) ? [] : Object.create(null);
}
