/** One output file, as text, with its path relative to `generated/`. */
export interface EmittedFile {
  path: string;
  contents: string;
}

export { byCodeUnit } from '../../runtime/code-unit-order.js';

/** JSON with two-space indent and a trailing newline; key order is the order the object was built in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
