// Through the root entry, so that a built adapter shares the root's code (one EventValidationError class).
import { decodeEvent, EventValidationError, type CatalogEvent, type EventError, type EventErrorCode, type EventIssue } from '../index.js';
import { describeError } from '../internal/describe-error.js';
import { boundIssues } from './dead-letter-issues.js';
import { retryDelayMs, type DeliveryPolicy } from './delivery-policy.js';

/** Why a message was set aside: the validation error codes, or a handler that kept failing. */
export type DeadLetterReason = EventErrorCode | 'handler_failed';

export const DEAD_LETTER_REASONS: readonly DeadLetterReason[] = ['malformed_message', 'invalid_payload', 'unknown_event_type', 'unknown_event_version', 'handler_failed'];

/** The caller's handler: gets the validated event and the transport's message. */
export type BusHandler<M = unknown> = (event: CatalogEvent, message: M) => unknown;

/** One delivered message, as any transport sees it. */
export interface Delivery<M = unknown> {
  /** The bytes (or text) as delivered. */
  data: string | Uint8Array;
  /** 1 for the first delivery. Read only when a retry is weighed: a getter may compute it lazily. */
  readonly deliveries: number;
  /** Handed to the handler as its second argument. */
  message: M;
}

/** The type and version a message named, as far as it could be read (a rejected message may name neither). */
export interface NamedEvent {
  type?: string;
  version?: string;
}

export type DeliveryDecision =
  /** The handler returned: acknowledge. */
  | { action: 'handled'; event: CatalogEvent }
  /** An unknown type or version under `unknown: 'ack'`: acknowledge without handling. */
  | { action: 'ignored'; reason: 'unknown_event_type' | 'unknown_event_version'; named: NamedEvent }
  /** Deliver again after `delayMs`. `error` is what the handler threw, if it threw. */
  | { action: 'retry'; delayMs: number; reason: DeadLetterReason; error?: unknown; named: NamedEvent }
  /** Store aside with the reason, then acknowledge. */
  | { action: 'dead_letter'; reason: DeadLetterReason; message: string; issues: EventIssue[]; named: NamedEvent };

const byteLength = (data: string | Uint8Array): number => (typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);


/** A handler's result that must be waited for: a promise, or any thenable (as `await` treats it). */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';

/**
 * The whole consumer decision for one delivered message, free of any transport: decode and
 * validate (`decodeEvent`), then call the handler. A message that cannot become valid by
 * being delivered again (malformed, invalid) is dead-lettered at once; a handler that throws
 * is retried with back-off until `maxDeliver`, then dead-lettered as `handler_failed`.
 * Never throws.
 */
export async function decideDelivery<M>(delivery: Delivery<M>, handler: BusHandler<M>, policy: DeliveryPolicy): Promise<DeliveryDecision> {
  return decideDeliveryNow(delivery.data, delivery.message, () => delivery.deliveries, handler, policy);
}

/**
 * `decideDelivery` for a consumer loop: the same decision, returned at once unless the
 * handler returned a promise (then a promise of it), so that a handler that returns a plain
 * value costs the loop no await. `deliveriesOf(message)` is called only when a retry is
 * weighed, so a transport whose delivery count is costly to read pays for it only then.
 * Throws (or rejects) only if `deliveriesOf` does.
 */
export function decideDeliveryNow<M>(
  data: string | Uint8Array,
  message: M,
  deliveriesOf: (message: M) => number,
  handler: BusHandler<M>,
  policy: DeliveryPolicy,
): DeliveryDecision | Promise<DeliveryDecision> {
  const size = byteLength(data);
  if (size > policy.maxMessageBytes) {
    const text = `message of ${size} bytes is larger than the ${policy.maxMessageBytes} bytes allowed`;
    return { action: 'dead_letter', reason: 'malformed_message', message: text, issues: [{ path: '', code: 'too_large', message: text }], named: {} };
  }
  const result = decodeEvent(data, policy.mode === 'strict' ? STRICT : TOLERANT);
  if (!result.ok) return rejected(result.error, message, deliveriesOf, policy);
  const { event } = result;
  let returned: unknown;
  try {
    returned = handler(event, message);
    // Inside the try: reading `then` can throw too, which `await` would have caught.
    if (!isThenable(returned)) return { action: 'handled', event };
  } catch (thrown) {
    return handlerThrew(thrown, event, message, deliveriesOf, policy);
  }
  return Promise.resolve(returned).then(
    (): DeliveryDecision => ({ action: 'handled', event }),
    (thrown: unknown) => handlerThrew(thrown, event, message, deliveriesOf, policy),
  );
}

// One options object per mode, not one per message.
const TOLERANT = { mode: 'tolerant' } as const;
const STRICT = { mode: 'strict' } as const;

function rejected<M>(error: EventError, message: M, deliveriesOf: (message: M) => number, policy: DeliveryPolicy): DeliveryDecision {
  const named: NamedEvent = { type: error.type, version: error.version };
  if (error.code === 'unknown_event_type' || error.code === 'unknown_event_version') {
    if (policy.unknown === 'ack') return { action: 'ignored', reason: error.code, named };
    if (policy.unknown === 'retry') {
      const deliveries = deliveriesOf(message);
      if (deliveries < policy.maxDeliver) return { action: 'retry', delayMs: retryDelayMs(deliveries, policy.backoffMs), reason: error.code, named };
    }
  }
  return { action: 'dead_letter', reason: error.code, message: error.message, issues: boundIssues(error.issues), named };
}

function handlerThrew<M>(thrown: unknown, event: CatalogEvent, message: M, deliveriesOf: (message: M) => number, policy: DeliveryPolicy): DeliveryDecision {
  const named: NamedEvent = { type: event.type, version: event.version };
  // A handler that validates again (a `createHandler` in strict mode) can reject what a
  // tolerant decode let through: no retry can fix that either.
  if (thrown instanceof EventValidationError) {
    return { action: 'dead_letter', reason: thrown.code, message: thrown.message, issues: boundIssues(thrown.issues), named };
  }
  const deliveries = deliveriesOf(message);
  if (deliveries < policy.maxDeliver) {
    return { action: 'retry', delayMs: retryDelayMs(deliveries, policy.backoffMs), reason: 'handler_failed', error: thrown, named };
  }
  const text = `handler failed on delivery ${deliveries} of ${policy.maxDeliver}: ${describeError(thrown)}`;
  return { action: 'dead_letter', reason: 'handler_failed', message: text, issues: boundIssues([{ path: '', code: 'handler_error', message: describeError(thrown) }]), named };
}
