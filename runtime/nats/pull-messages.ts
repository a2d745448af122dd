import type { Consumer, ConsumerMessages } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { backoffCeilingMs } from '../internal/backoff.js';
import { describeError } from '../internal/describe-error.js';
import { sleep } from '../internal/sleep.js';
import type { DeliveryQueue } from './delivery-queue.js';

/**
 * How long one pull request waits on the server for messages. Short, so that a pull lost
 * with a restarted server is replaced within seconds, and so that a request left open when
 * the consumer stops (see `Puller.openUntil`) soon stops taking messages; a quiet stream costs
 * two requests per period.
 */
const PULL_EXPIRES_MS = 2_000;
/** Server and client clocks start a request's expiry a moment apart: a margin for that. */
const EXPIRY_MARGIN_MS = 100;
/** First pause after a failed pull; doubles, up to `MAX_PULL_RETRY_MS`, while the connection is open. */
const PULL_RETRY_MS = 250;
const MAX_PULL_RETRY_MS = 5_000;
/** Times in a row, seconds apart, the server must say the consumer does not exist before the pulls end: once could be a moment of a cluster electing a leader. */
const NOT_FOUND_LIMIT = 2;
/** Pulls in flight at once: while one batch is handled, the next ones are on their way, each freed room soon used. */
const PULLERS = 4;

export interface Puller {
  /**
   * Ends the pulls; messages already delivered are still queued. Resolves once nothing more will
   * be queued. Synchronously, before it returns, no new pull goes out.
   */
  stop(): Promise<void>;
  /** Resolves when the pulls end: `undefined` after `stop()`, otherwise why they ended. */
  ended: Promise<string | undefined>;
  /**
   * After `stop()`: until when (`Date.now()` time) a pull request this consumer sent may still
   * wait on the server with room left. The server would deliver into it a message handed back
   * before then, and nobody reads that request any more: the message would wait for `ack_wait`.
   * 0 when none was open with room.
   */
  openUntil(): number;
}

/**
 * Pulls messages from the consumer into the queue in batches of a quarter of `maxMessages`,
 * up to four pulls in flight, a new one only when the messages not yet settled (`queue.unsettled`:
 * waiting, in the handler, or with their ack held back) and those asked for leave room for
 * it. So the consumer never holds more than `maxMessages` unacknowledged, and every message
 * waiting is in the queue, where the consumer can report it in progress (nats.js's `consume()` either keeps
 * its buffer out of reach or, with a callback, keeps pulling however many wait). A failed pull
 * is tried again while the connection is open (a server restarting, a cluster electing a
 * leader); the pulls end when the connection closes or the consumer is gone.
 */
export function pullMessages(consumer: Consumer, queue: DeliveryQueue, options: { maxMessages: number; nc: NatsConnection | undefined }): Puller {
  const { maxMessages, nc } = options;
  const batchSize = Math.max(1, Math.ceil(maxMessages / PULLERS));
  /** Messages asked for and not yet delivered. */
  let requested = 0;
  let stopping = false;
  /** Why the pulls ended, once one of them knows. */
  let endedBecause: string | undefined;
  /** Each pull request sent and not finished: when it expires on the server, and how many messages it may still bring. */
  const open = new Set<{ expiresAt: number; room: number }>();
  let openUntil = 0;
  const done = () => stopping || endedBecause !== undefined;
  const batches = new Set<ConsumerMessages>();
  /** Aborted when the pulls are over: wakes a puller pausing after a failed pull. */
  const over = new AbortController();
  const pause = (ms: number) => sleep(ms, over.signal).catch(() => undefined);
  /** Wakes every puller to see that the pulls are over. */
  const finish = () => {
    queue.wakeWaiters();
    over.abort();
    // Not awaited: each batch's loop sees it end.
    for (const batch of batches) void batch.close().catch(() => undefined);
  };
  const isClosed = () => nc?.isClosed() ?? false;
  let closedCause = 'the connection closed';
  void nc?.closed().then((error) => {
    closedCause = `the connection closed${error ? `: ${describeError(error)}` : ''}`;
  });

  async function pullLoop(): Promise<void> {
    let failures = 0;
    let notFound = 0;
    while (!done()) {
      while (!done() && queue.unsettled + requested + batchSize > maxMessages) await queue.roomChanged();
      if (done()) return;
      // In the same synchronous step as the check above: the other puller sees this room taken.
      requested += batchSize;
      let delivered = 0;
      let batch: ConsumerMessages | undefined;
      const request = { expiresAt: Date.now() + PULL_EXPIRES_MS + EXPIRY_MARGIN_MS, room: batchSize };
      open.add(request);
      try {
        batch = await consumer.fetch({ max_messages: batchSize, expires: PULL_EXPIRES_MS });
        batches.add(batch);
        // Not awaited: a batch closed before it is iterated settles only once iterated, just below.
        if (done()) void batch.close().catch(() => undefined);
        for await (const msg of batch) {
          delivered += 1;
          requested -= 1;
          request.room -= 1;
          queue.push(msg);
        }
        failures = 0;
        notFound = 0;
      } catch (error) {
        if (done() || isClosed()) break;
        if (await consumerIsGone(consumer)) {
          if (++notFound >= NOT_FOUND_LIMIT) {
            endedBecause = `the consumer was deleted (${describeError(error)})`;
            break;
          }
        } else {
          notFound = 0;
        }
        failures += 1;
        await pause(backoffCeilingMs(failures, PULL_RETRY_MS, MAX_PULL_RETRY_MS));
      } finally {
        open.delete(request);
        if (batch) batches.delete(batch);
        // What the batch did not deliver (it expired, or failed) is no longer on its way.
        requested -= batchSize - delivered;
        queue.wakeWaiters();
      }
      if (isClosed()) break;
    }
  }

  const ended = (async (): Promise<string | undefined> => {
    try {
      await Promise.all(
        Array.from({ length: PULLERS }, () =>
          pullLoop().finally(() => {
            // One puller's end is every puller's end.
            if (endedBecause === undefined && !stopping) endedBecause = isClosed() ? closedCause : 'the pulls ended';
            finish();
          }),
        ),
      );
      return stopping ? undefined : endedBecause;
    } finally {
      queue.end();
    }
  })();

  return {
    ended,
    openUntil: () => openUntil,
    async stop() {
      stopping = true;
      // Before the batches close (which forgets them): the requests the server may still fill.
      for (const request of open) if (request.room > 0) openUntil = Math.max(openUntil, request.expiresAt);
      finish();
      await ended.catch(() => undefined);
    },
  };
}

/** Whether the server says the consumer does not exist (rather than not answering). */
async function consumerIsGone(consumer: Consumer): Promise<boolean> {
  try {
    await consumer.info(false);
    return false;
  } catch (error) {
    return error instanceof Error && /consumer not found|stream not found/i.test(error.message);
  }
}
