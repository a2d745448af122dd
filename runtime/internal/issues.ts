/**
 * Issues, built and bounded in one place for every caller: the event validators, the REST
 * validators (`rest/issues.ts`) and the dead letters (`bus/dead-letter-issues.ts`). Names
 * copied from a message are clipped in pointers and quoted in messages (`echo.ts`); a value's
 * kind is named as JSON would (`jsonTypeOf`); each caller chooses only how many issues it
 * keeps and the words of the closing issue.
 */
import type { CompiledValidatorError } from '../contract/compiled-validator.js';
import { clip, quote } from './echo.js';
import { pointerToken, pointerTokens } from '../contract/json-pointer.js';
import type { EventIssue } from './result.js';

/** Most issues one rejected message lists; past it, one closing `too_many_issues` issue says how many more. */
export const MAX_ISSUES = 100;

/** The first `limit` issues and, when there were more, one closing issue saying how many. */
export function boundIssueList<I>(issues: readonly I[], limit: number, closing: (more: number) => I): I[] {
  return issues.length <= limit ? issues.slice() : [...issues.slice(0, limit), closing(issues.length - limit)];
}

/** Most issues an error's one-line `message` names. */
const SUMMARY_ISSUES = 10;

/** Issues on one line, for an error's `message`: `/payload/a missing required property "a"; …`. */
export function summarizeIssues(issues: readonly EventIssue[]): string {
  const named = Math.min(issues.length, SUMMARY_ISSUES);
  if (named === 0) return '';
  // Plain `+`, separator outside the loop: fewer strings joined than with a template per issue.
  let summary = issues[0]!.path + ' ' + issues[0]!.message;
  for (let i = 1; i < named; i++) summary += '; ' + issues[i]!.path + ' ' + issues[i]!.message;
  return named === issues.length ? summary : `${summary}; and ${(issues.length - SUMMARY_ISSUES).toLocaleString('en-US')} more issue(s)`;
}


/** The value at a JSON Pointer below `root`, or `undefined`; reads it token by token, as `hasOwnProperty` then a read. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  const keys = keysOf(pointer);
  let current = root;
  for (let i = 0; i < keys.length; i++) {
    if (typeof current !== 'object' || current === null) return undefined;
    const key = keys[i]!;
    current = Object.prototype.hasOwnProperty.call(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/**
 * The tokens of the pointers read so far. A token cut out of a pointer is a new string, which
 * the engine must look up in its table of names before it can find the property (most of the
 * cost of a type error's issue); a token kept and used again is found at once. The pointers
 * are the catalog's field paths (and array positions), so the same ones come back; at
 * `KEPT_POINTERS` the map starts again empty, so the memory stays bounded and a burst of
 * array positions does not crowd the field paths out for good.
 */
const pointerKeys = new Map<string, string[]>();
const KEPT_POINTERS = 1024;

function keysOf(pointer: string): string[] {
  let keys = pointerKeys.get(pointer);
  if (keys === undefined) {
    keys = pointerTokens(pointer);
    if (pointerKeys.size >= KEPT_POINTERS) pointerKeys.clear();
    pointerKeys.set(pointer, keys);
  }
  return keys;
}

/** `string`, `integer`, `number`, `boolean`, `null`, `array`, `object`: the JSON type a reader would name. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : Number.isFinite(value) ? 'number' : 'non-finite number';
  return typeof value;
}

/**
 * Turns the validator's errors (paths relative to the payload) into issues with JSON
 * Pointers into the whole message: the first `MAX_ISSUES` of them, then one closing issue
 * saying how many more there are (`partial`: at least how many, when only part of the
 * payload was searched). A missing or unexpected property is reported at its own pointer,
 * not at its parent's; a property name taken from the message is clipped (`clip`).
 */
export function toIssues(errors: readonly CompiledValidatorError[], payload: unknown, partial = false, base = '/payload'): EventIssue[] {
  const listed = Math.min(errors.length, MAX_ISSUES);
  const issues: EventIssue[] = [];
  for (let i = 0; i < listed; i++) issues.push(toIssue(errors[i]!, payload, base));
  const more = errors.length - listed;
  if (more > 0 || partial) issues.push(closingIssue(more, partial, base));
  return issues;
}

function closingIssue(more: number, partial: boolean, base: string): EventIssue {
  const count = more.toLocaleString('en-US');
  const message = !partial
    ? `${count} more issue(s) not listed (at most ${MAX_ISSUES} are)`
    : `${more > 0 ? `at least ${count}` : 'possibly'} more issue(s) not listed: the payload is too large to search in full, so only part of it was`;
  return { path: base, code: 'too_many_issues', message };
}

function toIssue(error: CompiledValidatorError, payload: unknown, base: string): EventIssue {
  const at = error.instancePath;
  switch (error.keyword) {
    case 'required': {
      const name = String(error.params.missingProperty);
      return { path: `${base}${at}/${pointerToken(clip(name))}`, code: 'required', message: `missing required property ${quote(name)}` };
    }
    case 'additionalProperties': {
      const name = String(error.params.additionalProperty);
      return { path: `${base}${at}/${pointerToken(clip(name))}`, code: 'additional_property', message: `property ${quote(name)} is not in the catalog (strict mode)` };
    }
    case 'type': {
      const expected = Array.isArray(error.params.type) ? error.params.type.join(' or ') : String(error.params.type);
      return { path: `${base}${at}`, code: 'type', message: `expected ${expected}, got ${jsonTypeOf(valueAt(payload, at))}` };
    }
    default:
      return { path: `${base}${at}`, code: error.keyword, message: error.message ?? `fails "${error.keyword}"` };
  }
}
