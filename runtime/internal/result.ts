import type { CatalogEvent } from '../../generated/types.js';
import type { Issue } from './issues.js';

// The options live with their check; the result family names them too (one direction: result → options).
export type { ValidateOptions, ValidationMode } from './validate-options.js';
export type { Issue, IssueCode } from './issues.js';

export type EventErrorCode = 'malformed_message' | 'unknown_event_type' | 'unknown_event_version' | 'invalid_payload';

/** One reason a message was rejected: the package's one issue type (`Issue`), by its events' name. */
export type EventIssue = Issue;

/**
 * Why a value was refused, on every surface: a stable code (each surface has its own set),
 * a sentence for people, and every issue found (bounded, `issues.ts`).
 */
export interface ValidationFailure<C extends string> {
  code: C;
  message: string;
  issues: Issue[];
}

export interface EventError extends ValidationFailure<EventErrorCode> {
  type?: string;
  version?: string;
  /** For `unknown_event_version`: the versions the catalog has for this type, in catalog order. */
  knownVersions?: string[];
}

/** What validating a message (or a payload) returns: the value, typed `E`, or why it was refused. */
export type EventValidationResult<E> = { ok: true; event: E } | { ok: false; error: EventError };

/** What the root's validators return: any event of the catalog, or why not. */
export type ValidationResult = EventValidationResult<CatalogEvent>;

/** A rejected message with one issue (the envelope-level rejections all have exactly one). */
export function rejection(
  code: EventErrorCode,
  message: string,
  issue: Issue,
  extra?: Pick<EventError, 'type' | 'version' | 'knownVersions'>,
): { ok: false; error: EventError } {
  // Without extra members, no spread: spreading even an empty object costs more than the rest.
  if (extra === undefined) return { ok: false, error: { code, message, issues: [issue] } };
  return { ok: false, error: { code, message, ...extra, issues: [issue] } };
}

/** Thrown by `parseEvent`; carries the same `EventError` that `validateEvent` returns. */
export class EventValidationError extends Error {
  readonly error: EventError;

  constructor(error: EventError) {
    super(error.message);
    this.name = 'EventValidationError';
    this.error = error;
  }

  get code(): EventErrorCode {
    return this.error.code;
  }

  get issues(): Issue[] {
    return this.error.issues;
  }
}

/** What every `parse` returns: the validated value, or an `EventValidationError` thrown with the rejection. */
export function valueOrThrow<T>(result: EventValidationResult<T>): T {
  if (!result.ok) throw new EventValidationError(result.error);
  return result.event;
}
