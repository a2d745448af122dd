/**
 * Exponential back-off, written once: the REST client's retries, the bus consumers'
 * redeliveries, and the NATS consumer's dead-letter and pull retries all wait by it.
 */

/** The longest wait before attempt `attempt + 1`: `baseMs · 2^(attempt-1)`, at most `maxMs`. */
export const backoffCeilingMs = (attempt: number, baseMs: number, maxMs: number): number => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));

/** Full jitter: anywhere from 0 to the ceiling, so that many callers retrying one server spread out. */
export const fullJitterMs = (ceiling: number, random: () => number = Math.random): number => Math.floor(random() * ceiling);

/** Equal jitter: half the ceiling always, the other half at random, so that a retry never comes back at once. */
export const equalJitterMs = (ceiling: number, random: () => number = Math.random): number => Math.round(ceiling / 2 + (ceiling / 2) * random());
