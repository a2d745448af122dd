import { isPlainObject } from './plain-object.js';
import { clip, quote } from './echo.js';
import { rejection, type EventError, type EventIssue } from './result.js';

type Rejection = { ok: false; error: EventError };

const malformed = (message: string, issue: EventIssue): Rejection => rejection('malformed_message', message, issue);

/** A message that is not a JSON object. */
export const notAnObject = (): Rejection => malformed('message is not a JSON object', { path: '', code: 'not_object', message: 'expected a JSON object' });

/**
 * Why the members of a message (a plain object: see `isPlainObject`) do not make an envelope
 * (`malformed_message`: `type` or `version` not a string, `payload` not a plain object), or
 * `undefined` when they do. The caller reads the members once and passes them in: the valid
 * path reads each only once.
 */
export function envelopeRejection(type: unknown, version: unknown, payload: unknown): Rejection | undefined {
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
  return undefined;
}

/**
 * Why a well-formed envelope names no known event: `knownVersions` are the versions known of
 * its type (`undefined`: the type is unknown). `named`: the events known are those a program
 * named (`createEventValidator`), not the whole catalog.
 */
export function unknownEventRejection(type: string, version: string, knownVersions: string[] | undefined, named = false): Rejection {
  // Each result written out in full: spreading the extra members into it costs more than the rest of the rejection.
  if (knownVersions === undefined) {
    const quotedType = quote(type);
    const issue: EventIssue = { path: '/type', code: 'unknown_event_type', message: `no event type ${quotedType} ${named ? 'among the events named' : 'in the catalog'}` };
    return { ok: false, error: { code: 'unknown_event_type', message: `unknown event type ${quotedType}`, type: clip(type), version: clip(version), issues: [issue] } };
  }
  const quotedVersion = quote(version);
  const known = knownVersions.length === 1 ? knownVersions[0]! : knownVersions.join(', ');
  const issue: EventIssue = { path: '/version', code: 'unknown_event_version', message: `${type} has no version ${quotedVersion}${named ? ' among the events named' : ''}` };
  return {
    ok: false,
    error: { code: 'unknown_event_version', message: `unknown version ${quotedVersion} of ${type} (known: ${known})`, type, version: clip(version), knownVersions, issues: [issue] },
  };
}
