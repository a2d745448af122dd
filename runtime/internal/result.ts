import type { CatalogEvent } from '../../generated/types.js';

// The options live with their check; the result family names them too (one direction: result → options).
export type { ValidateOptions, ValidationMode } from './validate-options.js';

export type EventErrorCode = 'malformed_message' | 'unknown_event_type' | 'unknown_event_version' | 'invalid_payload';

/** One reason a message was rejected. */
export interface EventIssue {
  /** JSON Pointer into the message: `/payload/account_number`, `/payload/supply_points/0/market_name`. */
  path: string;
  /** Stable, machine-readable: `required`, `type`, `additional_property`, `not_object`, `json_syntax`, … */
  code: string;
  /** For people; wording may change. */
  message: string;
}

export interface EventError {
  code: EventErrorCode;
  message: string;
  type?: string;
  version?: string;
  /** For `unknown_event_version`: the versions the catalog has for this type, in catalog order. */
  knownVersions?: string[];
  issues: EventIssue[];
}

export type ValidationResult = { ok: true; event: CatalogEvent } | { ok: false; error: EventError };

/** A rejected message with one issue (the envelope-level rejections all have exactly one). */
export function rejection(
  code: EventErrorCode,
  message: string,
  issue: EventIssue,
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

  get issues(): EventIssue[] {
    return this.error.issues;
  }
}

/** What every `parse` returns: the validated value, or an `EventValidationError` thrown with the rejection. */
export function valueOrThrow<T>(result: { ok: true; event: T } | { ok: false; error: EventError }): T {
  if (!result.ok) throw new EventValidationError(result.error);
  return result.event;
}
