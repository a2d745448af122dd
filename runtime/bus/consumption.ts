import type { DeliveryCounts } from './delivery-counts.js';

/** A running consumer, whatever the broker. */
export interface Consumption {
  /** Live counts; they add up at every moment (see `DeliveryCounts`). */
  readonly counts: DeliveryCounts;
  /** Stops taking new messages, hands back at once those waiting behind the running handler, lets it finish, then resolves. */
  stop(): Promise<void>;
  /** Settles when the consumer has stopped: resolves after `stop()`, rejects if the transport failed. */
  readonly closed: Promise<void>;
}
