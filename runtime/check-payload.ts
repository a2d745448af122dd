import type { CompiledEventModule } from './compiled-validator.js';
import { summarizeIssues, toIssues } from './issues.js';
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
 * Returns `undefined` when the payload is valid.
 */
export function checkPayload(compiled: CompiledEventModule, type: string, version: string, payload: unknown, strict: boolean): EventError | undefined {
  if ((strict ? compiled.fast.strict : compiled.fast.tolerant)(payload)) return undefined;
  const full = strict ? compiled.full().strict : compiled.full().tolerant;
  const issues = full(payload) ? [] : toIssues(full.errors ?? [], payload);
  if (issues.length === 0) {
    // The two passes disagree: only a payload whose getters or proxies answer differently
    // from one read to the next gets here. Say so rather than reject without a reason.
    const message = 'the payload read differently on a second pass (getters or proxies)';
    return { code: 'malformed_message', message: `${type} ${version} payload could not be read consistently`, issues: [{ path: '/payload', code: 'unreadable', message }] };
  }
  return { code: 'invalid_payload', message: `invalid ${type} ${version} payload: ${summarizeIssues(issues)}`, type, version, issues };
}
