import { clip } from './echo.js';
import { rejection, type EventError } from './result.js';

/**
 * A message (or, `what` = `payload`, a payload) whose reading threw: a getter that throws, a
 * revoked proxy. What was thrown, clipped, says why; the root, the per-event entries and
 * `createEventValidator` answer alike.
 */
export function unreadable(thrown: unknown, what: 'message' | 'payload' = 'message'): { ok: false; error: EventError } {
  let reason = 'unreadable value';
  try {
    if (thrown instanceof Error && typeof thrown.message === 'string') reason = clip(thrown.message);
  } catch {
    // Even the thrown value was hostile; keep the generic reason.
  }
  return rejection('malformed_message', `${what} could not be read: ${reason}`, { path: what === 'message' ? '' : '/payload', code: 'unreadable', message: reason });
}
