/** One output file, as text, with its path relative to `generated/`. */
export interface EmittedFile {
  path: string;
  contents: string;
}

/** Plain code-unit order (never `localeCompare`): the same on every machine and locale. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** JSON with two-space indent and a trailing newline; key order is the order the object was built in. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}
