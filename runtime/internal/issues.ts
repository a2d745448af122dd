/**
 * The one translator from a validator's errors to issues, for every surface: the event
 * validators (`toIssues`), the REST validators (`IssueList`, in the words of `rest/issues.ts`)
 * and, bounded again, the dead letters (`bus/dead-letter-issues.ts`). One issue type, one
 * rule for every list: at most `MAX_ISSUES` issues, then one closing issue saying how many
 * more. A surface chooses only its words (`IssueWording`). Names copied from a message are
 * clipped in pointers and quoted in messages (`echo.ts`); a value's kind is named as JSON
 * would (`jsonTypeOf`).
 */
import type { CompiledValidatorError } from '../contract/compiled-validator.js';
import { clip, quote } from './echo.js';
import { pointerToken, pointerTokens } from '../contract/json-pointer.js';

/**
 * Every code an issue written by this package carries, on every surface, grouped by where it
 * arises (a schema keyword no surface has words for would be named as itself: none in this
 * catalog). `Issue.code` stays `string`, so issues of your own (a server's business rules) fit
 * the same lists; `IssueCode` is what a reader can switch over.
 */
export const ISSUE_CODES = [
  // A message as a whole (events)
  'json_syntax',
  'invalid_utf8',
  'not_text',
  'not_object',
  'unreadable',
  'cloudevents_specversion',
  'line_too_long',
  'unknown_event_type',
  'unknown_event_version',
  // A value, wherever it is (events and REST)
  'required',
  'type',
  'additional_property',
  'enum',
  'const',
  'format',
  'min_length',
  'at_least_one_of',
  'any_of',
  // A request or a response as a whole (REST)
  'no_body',
  'not_allowed',
  'unknown_operation',
  'unknown_status',
  // A dead letter's own reasons
  'too_large',
  'handler_error',
  // The closing issue of a list cut short: events', then REST's and dead letters'
  'too_many_issues',
  'more_issues',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

/** One thing wrong with a message, a request or a response, at its place. */
export interface Issue {
  /** JSON Pointer to where it is: `/payload/account_number` (events), `/body/notes/0/created_at`, `/query/…`, `/params/…` (REST). */
  path: string;
  /** Stable, machine-readable: one of `IssueCode` for every issue this package writes. */
  code: string;
  /** For people; wording may change. */
  message: string;
}

/** What one surface says in its own words; everything else about issues is the same everywhere. */
export interface IssueWording {
  /** Why a property the schema does not list is refused, after `property "name" `. */
  readonly unlisted: string;
  /** The issue closing a list: `more` issues were not listed; `partial`, only part of the value was searched. */
  readonly closing: (more: number, partial: boolean) => Issue;
  /**
   * Words for the keywords beyond `required`, `additionalProperties` and `type`, for a surface
   * whose schemas hold them (`contractKeywords`). Event payload schemas hold none but `anyOf`
   * (generation refuses the rest, `payload-keywords.ts`), so an event entry carries none of
   * these words: its `anyOf`, which no event of the catalog uses, is listed as ajv reports it.
   */
  readonly keywords?: KeywordWords;
}

/** Words for more keywords, and `anyOf` read as one issue. */
export interface KeywordWords {
  /** A keyword's issue at `path`, given its error and, for an `anyOf`, its alternatives' errors. */
  readonly issues: ReadonlyMap<string, (error: CompiledValidatorError, path: string, alternatives: readonly CompiledValidatorError[]) => Issue>;
  /** Sorts the errors of each failed `anyOf`'s alternatives under it: they are reported through it, not listed. */
  readonly alternatives: (errors: readonly CompiledValidatorError[]) => AnyOfAlternatives | undefined;
}

/** Most issues one list names on every surface; past it, one closing issue says how many more. */
export const MAX_ISSUES = 100;

/** The first `limit` issues and, when there were more, one closing issue saying how many. */
export function boundIssueList<I>(issues: readonly I[], limit: number, closing: (more: number) => I): I[] {
  return issues.length <= limit ? issues.slice() : [...issues.slice(0, limit), closing(issues.length - limit)];
}

/** Whether an issue is the one closing a list cut short (on any surface). */
export const isClosingIssue = (issue: Issue): boolean => issue.code === 'too_many_issues' || issue.code === 'more_issues';

/**
 * A validator's errors (paths relative to `data`) as issues with JSON Pointers below `root`,
 * pushed onto `listed` while it holds fewer than `MAX_ISSUES`; returns how many more there
 * were (counted, never built). A missing or unexpected property is reported at its own
 * pointer, not at its parent's; a property name taken from the value is clipped (`clip`).
 */
function translate(errors: readonly CompiledValidatorError[], data: unknown, root: string, wording: IssueWording, listed: Issue[]): number {
  const anyOfs = wording.keywords?.alternatives(errors);
  let more = 0;
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i]!;
    if (anyOfs?.inside.has(error)) continue;
    if (listed.length < MAX_ISSUES) listed.push(toIssue(error, data, root, wording, anyOfs));
    // The list is full: with no anyOf to look through, every error left is one issue more.
    else if (anyOfs === undefined) return errors.length - i;
    else more++;
  }
  return more;
}

/** `listed`, then the closing issue when `more` were not listed (or, `partial`, when the search was not complete). */
function close(listed: Issue[], more: number, partial: boolean, wording: IssueWording): Issue[] {
  if (more > 0 || partial) listed.push(wording.closing(more, partial));
  return listed;
}

/** How the event validators word their issues: a rejected payload's, at `/payload`. */
const EVENT_WORDING: IssueWording = {
  unlisted: 'is not in the catalog (strict mode)',
  closing: (more, partial) => {
    const count = more.toLocaleString('en-US');
    const message = !partial
      ? `${count} more issue(s) not listed (at most ${MAX_ISSUES} are)`
      : `${more > 0 ? `at least ${count}` : 'possibly'} more issue(s) not listed: the payload is too large to search in full, so only part of it was`;
    return { path: '/payload', code: 'too_many_issues', message };
  },
};

/**
 * A rejected payload's issues, with JSON Pointers into the whole message (`/payload/…`): the
 * first `MAX_ISSUES`, then one closing issue saying how many more there are (`partial`: at
 * least how many, when only part of the payload was searched).
 */
export function toIssues(errors: readonly CompiledValidatorError[], payload: unknown, partial = false): Issue[] {
  const listed: Issue[] = [];
  return close(listed, translate(errors, payload, '/payload', EVENT_WORDING, listed), partial, EVENT_WORDING);
}

/**
 * The issues of one answer gathered from several places (a request's parameters, query and
 * body) under the same rule: the first `MAX_ISSUES` listed, the rest counted, one closing issue.
 */
export class IssueList {
  private readonly listed: Issue[] = [];
  private more = 0;

  constructor(private readonly wording: IssueWording) {}

  /** Whether nothing was found. */
  get isEmpty(): boolean {
    return this.listed.length === 0;
  }

  add(issue: Issue): void {
    if (this.listed.length < MAX_ISSUES) this.listed.push(issue);
    else this.more++;
  }

  addErrors(errors: readonly CompiledValidatorError[], data: unknown, root: string): void {
    this.more += translate(errors, data, root, this.wording, this.listed);
  }

  close(): Issue[] {
    return close(this.listed, this.more, false, this.wording);
  }
}

/**
 * Words for `enum`, `const`, `minLength`, `pattern` (the `format` it states, `patternForm`)
 * and `anyOf` (one issue: `at_least_one_of` when its alternatives are lists of required
 * properties, else `any_of`, `noAlternative`): the keywords of the REST contract's schemas.
 */
export const contractKeywords = (patternForm: (pattern: string) => string, noAlternative: string): KeywordWords => ({
  issues: new Map([
    ['enum', (error, path) => ({ path, code: 'enum', message: `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` })],
    ['const', (error, path) => ({ path, code: 'const', message: `must be ${JSON.stringify(error.params.allowedValue)}` })],
    ['pattern', (error, path) => ({ path, code: 'format', message: `must be ${patternForm(String(error.params.pattern))}` })],
    ['minLength', (error, path) => {
      const limit = Number(error.params.limit);
      return { path, code: 'min_length', message: limit === 1 ? 'must not be empty' : `must have at least ${limit} characters` };
    }],
    ['anyOf', (_, path, alternatives) => alternatives.length > 0 && alternatives.every((e) => e.keyword === 'required')
      ? { path, code: 'at_least_one_of', message: `at least one of ${alternatives.map((e) => quote(String(e.params.missingProperty))).join(', ')} is required` }
      : { path, code: 'any_of', message: noAlternative }],
  ]),
  alternatives: alternativesOf,
});

/** The errors of the alternatives of each `anyOf` that failed, and every such error (reported through its `anyOf`). */
export interface AnyOfAlternatives {
  readonly of: Map<CompiledValidatorError, CompiledValidatorError[]>;
  readonly inside: Set<CompiledValidatorError>;
}

/**
 * Sorts each error found inside an `anyOf` that failed under the innermost such `anyOf`;
 * `undefined` when there is no `anyOf` error (most lists: nothing to look through). Inside
 * means below it in the schema and at or below its value (every item of an array fails the
 * same `anyOf` of the schema, each at its own place): each error looks only at the `anyOf`s
 * at its own place and the places above it, nearest first, so the work grows with the
 * number of errors, not with its square.
 */
function alternativesOf(errors: readonly CompiledValidatorError[]): AnyOfAlternatives | undefined {
  let byPlace: Map<string, CompiledValidatorError[]> | undefined;
  for (let i = 0; i < errors.length; i++) {
    const error = errors[i]!;
    if (error.keyword !== 'anyOf') continue;
    byPlace ??= new Map();
    const here = byPlace.get(error.instancePath);
    if (here === undefined) byPlace.set(error.instancePath, [error]);
    else here.push(error);
  }
  if (byPlace === undefined) return undefined;
  const of = new Map<CompiledValidatorError, CompiledValidatorError[]>();
  const inside = new Set<CompiledValidatorError>();
  for (const error of errors) {
    for (let place = error.instancePath; ; place = place.slice(0, place.lastIndexOf('/'))) {
      // ajv reports an anyOf after its alternatives' errors, so at one place the first that holds the error is the innermost.
      const anyOf = byPlace.get(place)?.find((a) => a !== error && error.schemaPath.startsWith(`${a.schemaPath}/`));
      if (anyOf !== undefined) {
        inside.add(error);
        const alternatives = of.get(anyOf);
        if (alternatives === undefined) of.set(anyOf, [error]);
        else alternatives.push(error);
        break;
      }
      if (place === '') break;
    }
  }
  return { of, inside };
}

function toIssue(error: CompiledValidatorError, data: unknown, root: string, wording: IssueWording, anyOfs: AnyOfAlternatives | undefined): Issue {
  const at = root + error.instancePath;
  switch (error.keyword) {
    case 'required': {
      const name = String(error.params.missingProperty);
      return { path: `${at}/${pointerToken(clip(name))}`, code: 'required', message: `missing required property ${quote(name)}` };
    }
    case 'additionalProperties': {
      const name = String(error.params.additionalProperty);
      return { path: `${at}/${pointerToken(clip(name))}`, code: 'additional_property', message: `property ${quote(name)} ${wording.unlisted}` };
    }
    case 'type': {
      const expected = Array.isArray(error.params.type) ? error.params.type.join(' or ') : String(error.params.type);
      return { path: at, code: 'type', message: `expected ${expected}, got ${jsonTypeOf(valueAt(data, error.instancePath))}` };
    }
    default: {
      const words = wording.keywords?.issues.get(error.keyword);
      return words ? words(error, at, anyOfs?.of.get(error) ?? []) : { path: at, code: error.keyword, message: `fails "${error.keyword}"` };
    }
  }
}

/** Most issues an error's one-line `message` names. */
const SUMMARY_ISSUES = 10;

/** Issues on one line, for an error's `message`: `/payload/a missing required property "a"; …`. */
export function summarizeIssues(issues: readonly Issue[]): string {
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
