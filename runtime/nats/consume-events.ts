import type { Consumer, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { countDecision, decideDeliveryNow, deliveryPolicy, emptyCounts, type BusHandler, type Consumption, type DeliveryDecision, type DeliveryOptions } from '../bus/index.js';
import { AckBatch } from './ack-batch.js';
import { DEAD_LETTER_HEADERS } from './dead-letter-headers.js';

export interface ConsumeEventsOptions extends DeliveryOptions {
  /** Publishes the dead letters (and awaits the server's acknowledgement of each). */
  js: JetStreamClient;
  /** Where dead letters go; a stream must capture this subject. */
  deadLetterSubject: string;
  /** Messages pulled ahead of the handler (the consumer's buffer); also the most acks held back to be sent together. Default 100. */
  maxMessages?: number;
}

/** The dead letter's id for JetStream de-duplication: one dead letter per original, even if the original comes back. */
const deadLetterMsgId = (msg: JsMsg): string => `dead-letter:${msg.info.stream}:${msg.info.streamSequence}`;

/** Reading the delivery count parses the reply subject: the core asks for it only when it weighs a retry. */
const deliveryCount = (msg: JsMsg): number => msg.info.deliveryCount;

/** Longest an ack of a handled message is held back to be sent with the next ones. */
const MAX_ACK_HOLD_MS = 10;

/** The server's own default, for a consumer whose configuration cannot be read. */
const DEFAULT_ACK_WAIT_MS = 30_000;

/**
 * Consumes catalog events from the caller's JetStream pull consumer with explicit acks:
 * handled → `ack`; handler threw → `nak` with back-off until `maxDeliver`; otherwise the
 * message is published to `deadLetterSubject` with its original bytes and the reason in
 * headers, and only once the server has stored it is the original acknowledged.
 * Messages are handled one at a time, in delivery order. While a handler (or a dead
 * letter's publish) runs long, its message is reported in progress (`working()`) at the
 * latest two thirds of the consumer's `ack_wait` after it began, then every third, so that
 * a long handler does not see its message delivered again. The acks of handled messages are
 * sent together once the messages already buffered are done (see `AckBatch`): one socket
 * write per burst instead of one per message.
 */
export function consumeEvents(consumer: Consumer, handler: BusHandler<JsMsg>, options: ConsumeEventsOptions): Consumption {
  const policy = deliveryPolicy(options);
  const { js, deadLetterSubject } = options;
  if (typeof deadLetterSubject !== 'string' || deadLetterSubject === '') throw new TypeError('nats: consumeEvents needs a deadLetterSubject');
  const counts = emptyCounts();
  let stopping = false;
  const maxMessages = options.maxMessages ?? 100;
  const messagesReady = consumer.consume({ max_messages: maxMessages });

  async function deadLetter(msg: JsMsg, decision: Extract<DeliveryDecision, { action: 'dead_letter' }>): Promise<DeliveryDecision> {
    const h = headers();
    h.set(DEAD_LETTER_HEADERS.reason, decision.reason);
    h.set(DEAD_LETTER_HEADERS.issues, JSON.stringify(decision.issues));
    h.set(DEAD_LETTER_HEADERS.subject, msg.subject);
    h.set(DEAD_LETTER_HEADERS.streamSeq, String(msg.info.streamSequence));
    h.set(DEAD_LETTER_HEADERS.deliveries, String(msg.info.deliveryCount));
    try {
      await js.publish(deadLetterSubject, msg.data, { headers: h, msgID: deadLetterMsgId(msg) });
    } catch (error) {
      // Not stored, so not acknowledged: the original comes back later.
      const delayMs = Math.max(policy.backoffMs, 1000);
      msg.nak(delayMs);
      return { action: 'retry', delayMs, reason: decision.reason, error };
    }
    msg.ack();
    return decision;
  }

  const closed = (async () => {
    const messages = await messagesReady;
    if (stopping) await messages.close();
    const ackWait = await ackWaitMs(consumer);
    const progress = reportProgress(ackWait);
    const acks = new AckBatch(counts, maxMessages, Math.min(MAX_ACK_HOLD_MS, ackWait / 4));
    let failed = false;
    try {
      for await (const msg of messages) {
        // A handler that returns a plain value is decided at once: no await, no promise.
        let decision = decideDeliveryNow(msg.data, msg, deliveryCount, handler, policy);
        if (decision instanceof Promise) {
          // A slow handler must not hold back the acks of the messages before it.
          acks.send();
          progress.inFlight = msg;
          decision = await decision;
        }
        switch (decision.action) {
          case 'handled':
            acks.hold(msg, false);
            break;
          case 'ignored':
            acks.hold(msg, true);
            break;
          case 'retry':
            msg.nak(decision.delayMs);
            countDecision(counts, decision);
            break;
          case 'dead_letter':
            acks.send();
            progress.inFlight = msg;
            countDecision(counts, await deadLetter(msg, decision));
            break;
        }
        progress.inFlight = null;
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      progress.end();
      try {
        acks.send();
      } catch (error) {
        // The first failure is the one the caller hears of.
        if (!failed) throw error;
      }
    }
  })();
  // The caller learns of a failure through `closed`; an unobserved one must not end the process.
  closed.catch(() => undefined);

  return {
    counts,
    closed,
    async stop() {
      stopping = true;
      // Closing ends the pull; messages already buffered are still handled by the loop.
      await messagesReady.then((messages) => messages.close()).catch(() => undefined);
      await closed.catch(() => undefined);
    },
  };
}

/** The consumer's `ack_wait` in milliseconds, from the configuration the client already holds. */
async function ackWaitMs(consumer: Consumer): Promise<number> {
  try {
    const nanos = (await consumer.info(true)).config.ack_wait;
    return typeof nanos === 'number' && nanos > 0 ? nanos / 1e6 : DEFAULT_ACK_WAIT_MS;
  } catch {
    return DEFAULT_ACK_WAIT_MS;
  }
}

interface ProgressReport {
  /** The message whose handler (or dead letter) is being awaited, if any. */
  inFlight: JsMsg | null;
  end(): void;
}

/**
 * One timer for the whole consumer, not one per message: a message found in flight at two
 * ticks in a row (a third of `ack_wait` apart, so in flight for between one and two thirds
 * of it) is reported in progress, which restarts the server's `ack_wait` for it.
 */
function reportProgress(ackWait: number): ProgressReport {
  let seen: JsMsg | null = null;
  const report: ProgressReport = {
    inFlight: null,
    end: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    const msg = report.inFlight;
    if (msg !== null && msg === seen) msg.working();
    seen = msg;
  }, Math.max(ackWait / 3, 1));
  timer.unref();
  return report;
}
