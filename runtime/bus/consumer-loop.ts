import { backoffCeilingMs } from '../internal/backoff.js';
import { describeError } from '../internal/describe-error.js';
import { sleep } from '../internal/sleep.js';
import type { Broker, DeadLetterDecision } from './broker.js';
import type { Consumption } from './consumption.js';
import { ConsumerFailedError } from './consumer-failed-error.js';
import { decideDeliveryNow, type BusHandler, type DeliveryDecision } from './decide-delivery.js';
import { countDecision, emptyCounts } from './delivery-counts.js';
import { deliveryPolicy, positiveInteger, type DeliveryOptions, type DeliveryPolicy } from './delivery-policy.js';
import { StallWatch, warningHook, type ConsumerWarnings } from './stall-watch.js';
import { consumerTelemetry, type MessageTrace } from './telemetry.js';

/** What every consumer takes, whatever the broker. */
export interface ConsumerOptions extends DeliveryOptions, ConsumerWarnings {
  /**
   * Attempts to store one dead letter before the consumer gives up and `closed` rejects, the
   * original left unacknowledged. Default 6: 500 ms, doubling, about 15 s in all, longer than
   * a NATS cluster takes to elect a leader or a Redis replica to be promoted.
   */
  deadLetterAttempts?: number;
}

/** The options of the loop itself, checked: a bad one throws a `RangeError` or `TypeError` naming it. */
export interface LoopPolicy {
  delivery: DeliveryPolicy;
  warn: (message: string) => void;
  deadLetterAttempts: number;
}

export function loopPolicy(options: ConsumerOptions): LoopPolicy {
  return {
    delivery: deliveryPolicy(options),
    warn: warningHook(options),
    deadLetterAttempts: positiveInteger('deadLetterAttempts', options.deadLetterAttempts, 6),
  };
}

/** First pause between two attempts to store a dead letter; doubles per attempt, up to the second. */
const DEAD_LETTER_RETRY_MS = 500;
const MAX_DEAD_LETTER_RETRY_MS = 8000;

/**
 * The consumer loop, written once for every broker: take the next delivered message, decide
 * (`decideDeliveryNow`: validate, call the handler), settle (acknowledge, retry, or store the
 * dead letter — retried with back-off — before acknowledging), keep what is held alive every
 * third of the broker's redelivery time, and count and trace each message. Messages are handled
 * one at a time, in delivery order; a handler that returns a plain value costs no await.
 * `stop()` hands back what waits behind the running handler at once, lets the handler finish
 * and resolves; `closed` resolves only after `stop()`, and rejects with a `ConsumerFailedError`
 * saying what failed otherwise.
 */
export function runConsumerLoop<Raw, M>(broker: Broker<Raw, M>, handler: BusHandler<M>, policy: LoopPolicy): Consumption {
  const counts = emptyCounts();
  let stopping = false;
  let started = false;
  let inFlight: Raw | null = null;

  async function deadLetter(raw: Raw, decision: DeadLetterDecision, trace: MessageTrace | null): Promise<void> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= policy.deadLetterAttempts; attempt++) {
      try {
        const store = (carrier: Record<string, string>) => broker.deadLetter(raw, decision, carrier);
        await (trace ? trace.deadLetter(broker.deadLetterDestination, decision.reason, store) : store({}));
        return;
      } catch (error) {
        lastError = error;
        if (attempt < policy.deadLetterAttempts) await sleep(backoffCeilingMs(attempt, DEAD_LETTER_RETRY_MS, MAX_DEAD_LETTER_RETRY_MS));
      }
    }
    // Not stored, so not acknowledged: the original stays with the broker for the next consumer.
    throw new ConsumerFailedError(
      `${broker.label}: could not store the dead letter of ${broker.describe(raw)} in "${broker.deadLetterDestination}" after ${policy.deadLetterAttempts} attempt${policy.deadLetterAttempts === 1 ? '' : 's'} ` +
        `(${describeError(lastError)}); the original is left unacknowledged. Check that the dead letters can be stored there, then start the consumer again.`,
      { cause: lastError },
    );
  }

  /** Settles a decision that needs no await (all but a dead letter): acknowledge, or retry. */
  function settleNow(raw: Raw, decision: Exclude<DeliveryDecision, DeadLetterDecision>): void {
    if (decision.action === 'retry') broker.retry(raw, decision.delayMs);
    else broker.acknowledge(raw, decision.action === 'ignored');
  }

  const closed = (async () => {
    const prepared = await broker.prepare();
    const telemetry = await consumerTelemetry({ system: broker.system, group: prepared.group });
    if (stopping) return;
    started = true;
    broker.start();
    const { redelivery } = prepared;
    const stalls = new StallWatch(redelivery.ms / 3, redelivery, counts, policy.warn);
    const keeper = setInterval(() => {
      stalls.tick();
      broker.keepAlive(inFlight);
    }, Math.max(redelivery.ms / 3, 1));
    keeper.unref();
    let failed = false;
    try {
      for (;;) {
        const raw = broker.next();
        if (raw === undefined) {
          await broker.flush();
          if (await broker.wait()) continue;
          break;
        }
        const delivered = broker.read(raw);
        const trace = telemetry?.begin(delivered.destination, delivered.messageId, delivered.carrier) ?? null;
        let decision: DeliveryDecision | Promise<DeliveryDecision> =
          delivered.rejected ?? decideDeliveryNow(delivered.data, delivered.message, delivered.deliveries, trace ? trace.wrap(handler) : handler, policy.delivery);
        if (decision instanceof Promise) {
          // A slow handler must not hold back the acknowledgements of the messages before it.
          await broker.flush();
          inFlight = raw;
          decision = await decision;
        }
        if (decision.action === 'dead_letter') {
          await broker.flush();
          inFlight = raw;
          await deadLetter(raw, decision, trace);
        } else {
          // No await for a message handled, ignored or retried: a handler that returns a plain value costs the loop none.
          settleNow(raw, decision);
        }
        countDecision(counts, decision);
        trace?.end(decision);
        inFlight = null;
      }
      if (!stopping) {
        throw new ConsumerFailedError(
          `${broker.label}: the consumer stopped receiving messages without stop() (${await broker.endedBecause()}); messages stay with the broker. ` +
            'Start the consumer again; for a long-running consumer let the client reconnect for ever, to every server.',
        );
      }
    } catch (error) {
      failed = true;
      throw error instanceof ConsumerFailedError ? error : new ConsumerFailedError(`${broker.label}: the consumer failed: ${describeError(error)}`, { cause: error });
    } finally {
      clearInterval(keeper);
      try {
        await broker.finish();
      } catch (error) {
        // The first failure is the one the caller hears of.
        if (!failed) throw new ConsumerFailedError(`${broker.label}: could not acknowledge the last messages handled: ${describeError(error)}`, { cause: error });
      }
      if (failed) await Promise.resolve(broker.abandon()).catch(() => undefined);
    }
  })();
  // The caller learns of a failure through `closed`; an unobserved one must not end the process.
  closed.catch(() => undefined);

  return {
    counts,
    closed,
    async stop() {
      stopping = true;
      if (started) {
        // Deliveries end first (synchronously, before anything is awaited), so that the room the
        // hand-back frees is not taken by a new pull; then what waits behind the running handler
        // goes back at once, not after it, and so does whatever the ending deliveries still bring.
        const ended = broker.stop();
        await broker.handBack();
        await ended;
        await broker.handBack();
      }
      await closed.catch(() => undefined);
    },
  };
}
