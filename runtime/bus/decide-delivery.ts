// Through the root entry, so that a built adapter shares the root's code (one EventValidationError class).
import { decodeEvent, EventValidationError, type CatalogEvent, type EventErrorCode, type EventIssue } from '../index.js';
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

export type DeliveryDecision =
  /** The handler returned: acknowledge. */
  | { action: 'handled'; event: CatalogEvent }
  /** An unknown type or version under `unknown: 'ack'`: acknowledge without handling. */
  | { action: 'ignored'; reason: 'unknown_event_type' | 'unknown_event_version' }
  /** Deliver again after `delayMs`. `error` is what the handler threw, if it threw. */
  | { action: 'retry'; delayMs: number; reason: DeadLetterReason; error?: unknown }
  /** Store aside with the reason, then acknowledge. */
  | { action: 'dead_letter'; reason: DeadLetterReason; message: string; issues: EventIssue[] };

const byteLength = (data: string | Uint8Array): number => (typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);

const describeThrown = (thrown: unknown): string => (thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : `threw ${String(thrown)}`);

/**
 * The whole consumer decision for one delivered message, free of any transport: decode and
 * validate (`decodeEvent`), then call the handler. A message that cannot become valid by
 * being delivered again (malformed, invalid) is dead-lettered at once; a handler that throws
 * is retried with back-off until `maxDeliver`, then dead-lettered as `handler_failed`.
 * Never throws.
 */
export async function decideDelivery<M>(delivery: Delivery<M>, handler: BusHandler<M>, policy: DeliveryPolicy): Promise<DeliveryDecision> {
  const size = byteLength(delivery.data);
  if (size > policy.maxMessageBytes) {
    const message = `message of ${size} bytes is larger than the ${policy.maxMessageBytes} bytes allowed`;
    return { action: 'dead_letter', reason: 'malformed_message', message, issues: [{ path: '', code: 'too_large', message }] };
  }
  const result = decodeEvent(delivery.data, { mode: policy.mode });
  if (!result.ok) {
    const { error } = result;
    if (error.code === 'unknown_event_type' || error.code === 'unknown_event_version') {
      if (policy.unknown === 'ack') return { action: 'ignored', reason: error.code };
      if (policy.unknown === 'retry' && delivery.deliveries < policy.maxDeliver) {
        return { action: 'retry', delayMs: retryDelayMs(delivery.deliveries, policy.backoffMs), reason: error.code };
      }
    }
    return { action: 'dead_letter', reason: error.code, message: error.message, issues: boundIssues(error.issues) };
  }

  try {
    await handler(result.event, delivery.message);
    return { action: 'handled', event: result.event };
  } catch (thrown) {
    // A handler that validates again (a `createHandler` in strict mode) can reject what a
    // tolerant decode let through: no retry can fix that either.
    if (thrown instanceof EventValidationError) {
      return { action: 'dead_letter', reason: thrown.code, message: thrown.message, issues: boundIssues(thrown.issues) };
    }
    if (delivery.deliveries < policy.maxDeliver) {
      return { action: 'retry', delayMs: retryDelayMs(delivery.deliveries, policy.backoffMs), reason: 'handler_failed', error: thrown };
    }
    const message = `handler failed on delivery ${delivery.deliveries} of ${policy.maxDeliver}: ${describeThrown(thrown)}`;
    return { action: 'dead_letter', reason: 'handler_failed', message, issues: boundIssues([{ path: '', code: 'handler_error', message: describeThrown(thrown) }]) };
  }
}
