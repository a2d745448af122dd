import type { CompiledEventModule } from './compiled-validator.js';
import { toIssues } from './issues.js';
import type { EventError } from './result.js';

/** A JSON object as `JSON.parse` makes it: not null, not an array, no class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Runs one event's payload validator. The first-error validator runs first; only a
 * rejected payload pays for the all-errors run that collects every issue.
 * Returns `undefined` when valid.
 */
export function checkPayload(compiled: CompiledEventModule, type: string, version: string, payload: unknown, strict: boolean): EventError | undefined {
  if ((strict ? compiled.fast.strict : compiled.fast.tolerant)(payload)) return undefined;
  const full = strict ? compiled.full().strict : compiled.full().tolerant;
  full(payload);
  const issues = toIssues(full.errors ?? [], payload);
  return {
    code: 'invalid_payload',
    message: `invalid ${type} ${version} payload: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`,
    type,
    version,
    issues,
  };
}
