import { DEAD_LETTER_REASONS, type DeadLetterReason, type DeliveryDecision } from './decide-delivery.js';

/**
 * What a consumer did so far. Each message is counted once it is settled, in one step, so
 * `received = handled + ignored + retried + sum(deadLettered)` holds at any moment.
 */
export interface DeliveryCounts {
  received: number;
  handled: number;
  ignored: number;
  retried: number;
  deadLettered: Record<DeadLetterReason, number>;
  /**
   * Outside the sum: times the event loop was blocked so long that the messages this consumer
   * held could not be kept alive (see the consumer's `onWarning`).
   */
  stalls: number;
}

export function emptyCounts(): DeliveryCounts {
  return {
    received: 0,
    handled: 0,
    ignored: 0,
    retried: 0,
    deadLettered: Object.fromEntries(DEAD_LETTER_REASONS.map((reason) => [reason, 0])) as Record<DeadLetterReason, number>,
    stalls: 0,
  };
}

/** Records one settled decision. */
export function countDecision(counts: DeliveryCounts, decision: DeliveryDecision): void {
  counts.received += 1;
  if (decision.action === 'handled') counts.handled += 1;
  else if (decision.action === 'ignored') counts.ignored += 1;
  else if (decision.action === 'retry') counts.retried += 1;
  else counts.deadLettered[decision.reason] += 1;
}

/** All dead letters, whatever the reason. */
export const totalDeadLettered = (counts: DeliveryCounts): number => Object.values(counts.deadLettered).reduce((sum, n) => sum + n, 0);
