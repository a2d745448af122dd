import type { AllErrorsValidators, CompiledEventModule, CompiledValidator, CompiledValidatorError, PayloadSchema } from '../contract/compiled-validator.js';
import { summarizeIssues, toIssues } from './issues.js';
import { payloadValidator } from './payload-errors.js';
import { boundedView, FULL_SEARCH_LIMIT, hasMoreValuesThan } from './payload-view.js';
import type { EventError } from './result.js';

/**
 * Runs one event's payload check. Only a rejected payload pays for the all-errors run that
 * collects every issue (once). Returns `undefined` when the payload is valid.
 */
export function checkPayload(compiled: CompiledEventModule, type: string, version: string, payload: unknown, strict: boolean): EventError | undefined {
  if ((strict ? compiled.accepts.strict : compiled.accepts.tolerant)(payload)) return undefined;
  return payloadRejection(compiled, type, version, payload, strict);
}

/**
 * Why a payload the check rejected is invalid: one all-errors run collects its issues, with
 * ajv's standalone validator when the caller has it (`allErrors`, the package root), else by
 * walking the event's schema (`payloadValidator`, the per-event entries: the same errors).
 */
export function payloadRejection(compiled: CompiledEventModule, type: string, version: string, payload: unknown, strict: boolean, allErrors?: AllErrorsValidators): EventError {
  const schema = strict ? compiled.schemas.strict : compiled.schemas.tolerant;
  const full = allErrors === undefined ? payloadValidator(schema, true) : strict ? allErrors.strict : allErrors.tolerant;
  const issues = collectIssues(full, schema, payload);
  if (issues.length === 0) {
    // The check and the validator disagree: only a payload whose getters or proxies answer
    // differently from one read to the next gets here. Say so rather than reject without a reason.
    const message = 'the payload read differently on a second pass (getters or proxies)';
    return { code: 'malformed_message', message: `${type} ${version} payload could not be read consistently`, issues: [{ path: '/payload', code: 'unreadable', message }] };
  }
  return { code: 'invalid_payload', message: `invalid ${type} ${version} payload: ${summarizeIssues(issues)}`, type, version, issues };
}

/**
 * The issues of a rejected payload, in bounded time and memory. The all-errors validator
 * makes one error object per fault, and a payload can hold millions (an array of ten
 * million wrong items), so a payload of more than `FULL_SEARCH_LIMIT` values is searched
 * through a bounded view of it instead (the first values of each array and object, breadth
 * first). Every issue found there is a real one; the closing issue says the search was partial.
 */
function collectIssues(full: CompiledValidator, schema: PayloadSchema, payload: unknown) {
  if (!hasMoreValuesThan(payload, FULL_SEARCH_LIMIT)) return full(payload) ? [] : toIssues(full.errors ?? [], payload);
  const view = boundedView(payload, FULL_SEARCH_LIMIT);
  // A property the view left out is not missing: drop what its absence made the validator say.
  const errors = full(view.root) ? [] : (full.errors ?? []).filter((error) => !view.omitted(error));
  if (errors.length > 0) return toIssues(errors, payload, true);
  // The view holds none of the faults: the first-error validator finds a real one (it stops there).
  const fast = payloadValidator(schema, false);
  const first: readonly CompiledValidatorError[] = fast(payload) ? [] : (fast.errors ?? []);
  return first.length > 0 ? toIssues(first, payload, true) : [];
}
