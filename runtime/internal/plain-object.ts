/** A JSON object as `JSON.parse` makes it: not null, not an array, no class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  // An array's prototype is `Array.prototype`: no `Array.isArray` needed.
  return proto === Object.prototype || proto === null;
}
