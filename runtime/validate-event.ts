import type { CatalogEvent } from '../generated/types.js';
import { compiledEvents } from '../generated/registry.cjs';
import { checkPayload, isPlainObject } from './check-payload.js';
import { EventValidationError, rejection, type EventIssue, type ValidateOptions, type ValidationResult } from './result.js';

const malformed = (message: string, issue: EventIssue): ValidationResult => rejection('malformed_message', message, issue);

/** Quotes a value from a message for an error message, short and safe to log. */
const quote = (value: string): string => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

function check(message: unknown, options: ValidateOptions | undefined): ValidationResult {
  if (!isPlainObject(message)) {
    return malformed('message is not a JSON object', { path: '', code: 'not_object', message: 'expected a JSON object' });
  }
  const { type, version, payload } = message;
  if (typeof type !== 'string') {
    return malformed('message has no string "type"', { path: '/type', code: type === undefined ? 'required' : 'type', message: 'expected a string event type' });
  }
  if (typeof version !== 'string') {
    return malformed(`${quote(type)} message has no string "version"`, {
      path: '/version',
      code: version === undefined ? 'required' : 'type',
      message: 'expected a string version',
    });
  }
  if (!isPlainObject(payload)) {
    return malformed(`${quote(type)} ${quote(version)} message has no object "payload"`, {
      path: '/payload',
      code: payload === undefined ? 'required' : 'type',
      message: 'expected a JSON object payload',
    });
  }

  const versions = compiledEvents.get(type);
  if (versions === undefined) {
    return rejection('unknown_event_type', `unknown event type ${quote(type)}`, { path: '/type', code: 'unknown_event_type', message: `no event type ${quote(type)} in the catalog` }, { type, version });
  }
  const load = versions.get(version);
  if (load === undefined) {
    const knownVersions = [...versions.keys()];
    return rejection(
      'unknown_event_version',
      `unknown version ${quote(version)} of ${type} (known: ${knownVersions.join(', ')})`,
      { path: '/version', code: 'unknown_event_version', message: `${type} has no version ${quote(version)}` },
      { type, version, knownVersions },
    );
  }

  const error = checkPayload(load(), type, version, payload, options?.mode === 'strict');
  return error ? { ok: false, error } : { ok: true, event: message as unknown as CatalogEvent };
}

/**
 * Checks a message (already parsed from JSON) against the catalog: envelope, event type,
 * version, then the payload, with one precompiled validator. Never throws.
 */
export function validateEvent(message: unknown, options?: ValidateOptions): ValidationResult {
  try {
    return check(message, options);
  } catch (thrown) {
    // Only hostile objects get here (getters or proxies that throw while being read).
    let reason = 'unreadable value';
    try {
      if (thrown instanceof Error && typeof thrown.message === 'string') reason = thrown.message.length > 200 ? `${thrown.message.slice(0, 200)}…` : thrown.message;
    } catch {
      // Even the thrown value was hostile; keep the generic reason.
    }
    return malformed(`message could not be read: ${reason}`, { path: '', code: 'unreadable', message: reason });
  }
}

/** `validateEvent` as a type guard. */
export function isEvent(message: unknown, options?: ValidateOptions): message is CatalogEvent {
  return validateEvent(message, options).ok;
}

/** Returns the message typed as `CatalogEvent`, or throws `EventValidationError` saying why not. */
export function parseEvent(message: unknown, options?: ValidateOptions): CatalogEvent {
  const result = validateEvent(message, options);
  if (!result.ok) throw new EventValidationError(result.error);
  return result.event;
}
