import type { ValidationMode } from '../index.js';
import { backoffCeilingMs, equalJitterMs } from '../internal/backoff.js';

/** What to do with a message whose type or version this package does not know yet. */
export type UnknownEventPolicy = 'dead_letter' | 'ack' | 'retry';

export interface DeliveryOptions {
  /** Deliveries before a failing handler's message is dead-lettered as `handler_failed`. Default 5. */
  maxDeliver?: number;
  /**
   * An `unknown_event_type` or `unknown_event_version` message (a producer ahead of this
   * consumer). `dead_letter` (default): set aside, to replay after an upgrade; `ack`: drop it;
   * `retry`: leave it for another consumer (dead-lettered after `maxDeliver`).
   */
  unknown?: UnknownEventPolicy;
  /** Validation mode. Default `tolerant`. */
  mode?: ValidationMode;
  /** First retry delay; doubles per delivery, capped at 60 s, with jitter. Default 1000 ms. */
  backoffMs?: number;
  /** A message larger than this is dead-lettered as `malformed_message` unread. Default 1 MiB. */
  maxMessageBytes?: number;
}

export interface DeliveryPolicy {
  maxDeliver: number;
  unknown: UnknownEventPolicy;
  mode: ValidationMode;
  backoffMs: number;
  maxMessageBytes: number;
}

const MAX_BACKOFF_MS = 60_000;

/** An option that must be a positive integer, or its default; anything else throws a `RangeError` naming it. */
export function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`bus: ${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** An option that must be a non-empty string; anything else throws a `TypeError` naming it. */
export function requiredText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`bus: consumeEvents needs ${name} (a non-empty string)`);
  return value;
}

/** The options with their defaults; a bad option throws a `RangeError` naming it. */
export function deliveryPolicy(options: DeliveryOptions = {}): DeliveryPolicy {
  const unknown = options.unknown ?? 'dead_letter';
  if (unknown !== 'dead_letter' && unknown !== 'ack' && unknown !== 'retry') throw new RangeError(`bus: unknown must be 'dead_letter', 'ack' or 'retry', got ${JSON.stringify(unknown)}`);
  const mode = options.mode ?? 'tolerant';
  if (mode !== 'tolerant' && mode !== 'strict') throw new RangeError(`bus: mode must be 'tolerant' or 'strict', got ${JSON.stringify(mode)}`);
  const backoffMs = options.backoffMs ?? 1000;
  if (!Number.isFinite(backoffMs) || backoffMs < 0) throw new RangeError(`bus: backoffMs must be a number ≥ 0, got ${String(backoffMs)}`);
  return {
    maxDeliver: positiveInteger('maxDeliver', options.maxDeliver, 5),
    unknown,
    mode,
    backoffMs,
    maxMessageBytes: positiveInteger('maxMessageBytes', options.maxMessageBytes, 1024 * 1024),
  };
}

/**
 * Delay before the next delivery after `deliveries` failed ones: exponential, capped, with
 * "equal jitter" (half fixed, half random) so that consumers that failed together do not
 * all come back together.
 */
export function retryDelayMs(deliveries: number, backoffMs: number, random: () => number = Math.random): number {
  return equalJitterMs(backoffCeilingMs(deliveries, backoffMs, MAX_BACKOFF_MS), random);
}
