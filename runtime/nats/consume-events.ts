import type { Consumer, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { countDecision, decideDelivery, deliveryPolicy, emptyCounts, type BusHandler, type Consumption, type DeliveryDecision, type DeliveryOptions } from '../bus/index.js';
import { DEAD_LETTER_HEADERS } from './dead-letter-headers.js';

export interface ConsumeEventsOptions extends DeliveryOptions {
  /** Publishes the dead letters (and awaits the server's acknowledgement of each). */
  js: JetStreamClient;
  /** Where dead letters go; a stream must capture this subject. */
  deadLetterSubject: string;
  /** Messages pulled ahead of the handler (the consumer's buffer). Default 100. */
  maxMessages?: number;
}

/** The dead letter's id for JetStream de-duplication: one dead letter per original, even if the original comes back. */
const deadLetterMsgId = (msg: JsMsg): string => `dead-letter:${msg.info.stream}:${msg.info.streamSequence}`;

/**
 * Consumes catalog events from the caller's JetStream pull consumer with explicit acks:
 * handled → `ack`; handler threw → `nak` with back-off until `maxDeliver`; otherwise the
 * message is published to `deadLetterSubject` with its original bytes and the reason in
 * headers, and only once the server has stored it is the original acknowledged.
 * Messages are handled one at a time, in delivery order.
 */
export function consumeEvents(consumer: Consumer, handler: BusHandler<JsMsg>, options: ConsumeEventsOptions): Consumption {
  const policy = deliveryPolicy(options);
  const { js, deadLetterSubject } = options;
  if (typeof deadLetterSubject !== 'string' || deadLetterSubject === '') throw new TypeError('nats: consumeEvents needs a deadLetterSubject');
  const counts = emptyCounts();
  let stopping = false;
  const messagesReady = consumer.consume({ max_messages: options.maxMessages ?? 100 });

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

  async function settle(msg: JsMsg, decision: DeliveryDecision): Promise<DeliveryDecision> {
    switch (decision.action) {
      case 'handled':
      case 'ignored':
        msg.ack();
        return decision;
      case 'retry':
        msg.nak(decision.delayMs);
        return decision;
      case 'dead_letter':
        return deadLetter(msg, decision);
    }
  }

  const closed = (async () => {
    const messages = await messagesReady;
    if (stopping) await messages.close();
    for await (const msg of messages) {
      // A getter: the delivery count means parsing the reply subject, needed only on failure.
      const delivery = {
        data: msg.data,
        message: msg,
        get deliveries() {
          return msg.info.deliveryCount;
        },
      };
      const decision = await decideDelivery(delivery, handler, policy);
      countDecision(counts, await settle(msg, decision));
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
