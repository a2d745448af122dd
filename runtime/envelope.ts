import { isPlainObject } from './check-payload.js';
import { quote } from './echo.js';
import { rejection, type EventError, type EventIssue } from './result.js';

/** A message whose envelope is well formed; its type and version may still be unknown. */
export interface Envelope {
  type: string;
  version: string;
  payload: Record<string, unknown>;
  [key: string]: unknown;
}

type Rejection = { ok: false; error: EventError };

const malformed = (message: string, issue: EventIssue): Rejection => rejection('malformed_message', message, issue);

/**
 * Why `message` is not an envelope (`malformed_message`: not an object, `type` or `version`
 * not a string, `payload` not a plain object), or `undefined` when it is one.
 */
export function envelopeRejection(message: unknown): Rejection | undefined {
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
  return undefined;
}
