import { createHash } from 'node:crypto';
import type { Consumer, ConsumerInfo, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  consumerTelemetry,
  countDecision,
  decideDeliveryNow,
  deliveryPolicy,
  emptyCounts,
  StallWatch,
  warningHook,
  type BusHandler,
  type ConsumerWarnings,
  type Consumption,
  type DeliveryDecision,
  type DeliveryOptions,
  type MessageTrace,
} from '../bus/index.js';
import { backoffCeilingMs } from '../internal/backoff.js';
import { describeError } from '../internal/describe-error.js';
import { AckBatch } from './ack-batch.js';
import { connectionOf } from './connection-of.js';
import { DEAD_LETTER_HEADERS, REFERENCE_HEAD_BYTES } from './dead-letter-headers.js';
import { DeliveryQueue } from './delivery-queue.js';
import { pullMessages, type Puller } from './pull-messages.js';

export interface ConsumeEventsOptions extends DeliveryOptions, ConsumerWarnings {
  /** Publishes the dead letters (and awaits the server's acknowledgement of each). */
  js: JetStreamClient;
  /** Where dead letters go; a stream must capture this subject. */
  deadLetterSubject: string;
  /**
   * The most messages this consumer holds unacknowledged at any moment: waiting, in the
   * handler, or with their ack held back (pulled half at a time, two pulls in flight). Default 100.
   */
  maxMessages?: number;
  /** Attempts to store one dead letter before the consumer gives up and `closed` rejects. Default 6, about 15 s in all (500 ms, doubling): longer than a cluster takes to elect a leader. */
  deadLetterAttempts?: number;
}

/** Why a consumer ended other than by `stop()`: what failed, and what to do about it. */
export class ConsumerFailedError extends Error {
  override name = 'ConsumerFailedError';
}

/** The dead letter's id for JetStream de-duplication: one dead letter per original, even if the original comes back. */
const deadLetterMsgId = (msg: JsMsg): string => `dead-letter:${msg.info.stream}:${msg.info.streamSequence}`;

/** Reading the delivery count parses the reply subject: the core asks for it only when it weighs a retry. */
const deliveryCount = (msg: JsMsg): number => msg.info.deliveryCount;

/** First pause between two attempts to store a dead letter; doubles per attempt, up to the second. */
const DEAD_LETTER_RETRY_MS = 500;
const MAX_DEAD_LETTER_RETRY_MS = 8000;

/** Longest an ack of a handled message is held back to be sent with the next ones. */
const MAX_ACK_HOLD_MS = 10;

/** The server's own default, for a consumer whose configuration cannot be read. */
const DEFAULT_ACK_WAIT_MS = 30_000;

type DeadLetterDecision = Extract<DeliveryDecision, { action: 'dead_letter' }>;

/**
 * Consumes catalog events from the caller's JetStream pull consumer with explicit acks:
 * handled → `ack`; handler threw → `nak` with back-off until `maxDeliver`; otherwise the
 * message is published to `deadLetterSubject` with its original bytes and the reason in
 * headers, and only once the server has stored it is the original acknowledged (one too
 * large to travel whole is dead-lettered by reference and terminated).
 * Messages are handled one at a time, in delivery order. While a handler (or a dead
 * letter's publish) runs long, its message is reported in progress (`working()`) at the
 * latest two thirds of the consumer's `ack_wait` after it began, then every third, so that
 * a long handler does not see its message delivered again; the messages delivered and
 * waiting behind it are reported the same way (see `DeliveryQueue`). The acks of handled messages are
 * sent together once the messages already buffered are done (see `AckBatch`): one socket
 * write per burst instead of one per message. Refuses to start when no stream stores the
 * dead letters, or when the consumer's `max_deliver` would drop a message before
 * `maxDeliver` dead-letters it.
 */
export function consumeEvents(consumer: Consumer, handler: BusHandler<JsMsg>, options: ConsumeEventsOptions): Consumption {
  const policy = deliveryPolicy(options);
  const { js, deadLetterSubject } = options;
  if (typeof deadLetterSubject !== 'string' || deadLetterSubject === '') throw new TypeError('nats: consumeEvents needs a deadLetterSubject');
  const warn = warningHook(options);
  const counts = emptyCounts();
  let stopping = false;
  const maxMessages = options.maxMessages ?? 100;
  if (!Number.isInteger(maxMessages) || maxMessages < 1) throw new RangeError(`nats: maxMessages must be a positive integer, got ${String(maxMessages)}`);
  const attempts = options.deadLetterAttempts ?? 6;
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`nats: deadLetterAttempts must be a positive integer, got ${String(attempts)}`);
  const queue = new DeliveryQueue();
  let puller: Puller | null = null;
  const nc = connectionOf(js);

  async function deadLetter(msg: JsMsg, decision: DeadLetterDecision, trace: MessageTrace | null): Promise<DeliveryDecision> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        let byReference = false;
        // Sized with the trace headers the publish carries, if any.
        const publish = (carrier: Record<string, string>) => {
          const letter = deadLetterOf(msg, decision, maxPayload(nc), carrier);
          byReference = letter.byReference;
          return js.publish(deadLetterSubject, letter.data, { headers: letter.headers, msgID: deadLetterMsgId(msg) });
        };
        await (trace ? trace.deadLetter(deadLetterSubject, decision.reason, publish) : publish({}));
        // By reference, the original stays in its stream for whoever reads the dead letter: terminated, never delivered again.
        if (byReference) msg.term();
        else msg.ack();
        queue.settled(1);
        return decision;
      } catch (error) {
        lastError = error;
        // Long enough in all to ride out a cluster's leader election.
        if (attempt < attempts) await sleep(backoffCeilingMs(attempt, DEAD_LETTER_RETRY_MS, MAX_DEAD_LETTER_RETRY_MS));
      }
    }
    // Not stored, so not acknowledged: the original stays in the stream for the next consumer.
    throw new ConsumerFailedError(
      `nats: could not store the dead letter of ${msg.info.stream} #${msg.info.streamSequence} on "${deadLetterSubject}" after ${attempts} attempts (${describeError(lastError)}); ` +
        'the original is left unacknowledged. Check that a stream captures the subject and accepts writes, then start the consumer again.',
      { cause: lastError },
    );
  }

  /** Hands every waiting message back to the server at once, for another consumer (or this one's next start). */
  function handBack(): void {
    const waiting = queue.drain();
    for (const msg of waiting) msg.nak();
    queue.settled(waiting.length);
  }

  const closed = (async () => {
    await checkDeadLetterStream(js, deadLetterSubject);
    const config = await consumerConfig(consumer);
    refuseDroppingMaxDeliver(config, policy.maxDeliver);
    const telemetry = await consumerTelemetry({ system: 'nats', group: config?.durable_name ?? config?.name ?? '' });
    // However the pulls end, what was delivered before is still handled, then the loop ends.
    if (stopping) queue.end();
    else puller = pullMessages(consumer, queue, { maxMessages, nc });
    const ackWait = ackWaitMs(config);
    const stalls = new StallWatch(ackWait / 3, { name: 'the consumer\'s ack_wait', ms: ackWait }, counts, warn);
    const progress = reportProgress(ackWait, queue, stalls);
    // Half of `maxMessages` at most: the acks of one pull's batch go out while the next batch is handled, making room for the next pull.
    const acks = new AckBatch(counts, Math.max(1, Math.ceil(maxMessages / 2)), Math.min(MAX_ACK_HOLD_MS, ackWait / 4), (sent) => queue.settled(sent));
    let failed = false;
    try {
      for (;;) {
        const msg = queue.shift();
        if (msg === undefined) {
          if (await queue.wait()) continue;
          break;
        }
        const trace = telemetry?.begin(msg.subject, msg.headers?.get('Nats-Msg-Id') || undefined, (name) => msg.headers?.get(name) || undefined) ?? null;
        // A handler that returns a plain value is decided at once: no await, no promise.
        let decision = decideDeliveryNow(msg.data, msg, deliveryCount, trace ? trace.wrap(handler) : handler, policy);
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
            queue.settled(1);
            countDecision(counts, decision);
            break;
          case 'dead_letter':
            acks.send();
            progress.inFlight = msg;
            countDecision(counts, await deadLetter(msg, decision, trace));
            break;
        }
        trace?.end(decision);
        progress.inFlight = null;
      }
      if (!stopping) {
        const cause = (await puller?.ended) ?? 'the pulls ended';
        throw new ConsumerFailedError(
          `nats: the consumer stopped receiving messages without stop() (${cause}); messages stay in the stream. ` +
            'Start the consumer again; for a long-running consumer connect with maxReconnectAttempts: -1 and every server of the cluster.',
        );
      }
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      progress.end();
      try {
        acks.send();
        // A consumer that failed hands back what it holds too, while the connection lasts.
        if (failed && !(nc?.isClosed() ?? false)) handBack();
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
      // What waits behind the running handler goes back now, not after it.
      handBack();
      // Ends the pulls; what they deliver meanwhile is handed back too.
      await puller?.stop();
      handBack();
      await closed.catch(() => undefined);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Refuses to start when no stream stores dead letters: they could only be retried forever, or dropped. */
async function checkDeadLetterStream(js: JetStreamClient, subject: string): Promise<void> {
  let error: unknown;
  try {
    const jsm = await js.jetstreamManager();
    if (await jsm.streams.find(subject)) return;
  } catch (caught) {
    error = caught;
  }
  throw new ConsumerFailedError(
    `nats: no stream captures the dead-letter subject "${subject}"${error === undefined ? '' : ` (${describeError(error)})`}; ` +
      `create one before consuming, e.g. jsm.streams.add({ name: 'EVENTS_DEAD', subjects: ['${subject}'] })`,
    { cause: error },
  );
}

/** The consumer's configuration, as the client already holds it; `undefined` if it cannot be read. */
async function consumerConfig(consumer: Consumer): Promise<ConsumerInfo['config'] | undefined> {
  try {
    return (await consumer.info(true)).config;
  } catch {
    return undefined;
  }
}

/**
 * A `max_deliver` at or below `maxDeliver` lets the server stop delivering a message whose
 * handler keeps failing before this consumer dead-letters it: dropped, with nothing said.
 */
function refuseDroppingMaxDeliver(config: ConsumerInfo['config'] | undefined, maxDeliver: number): void {
  const serverLimit = config?.max_deliver;
  if (typeof serverLimit !== 'number' || serverLimit <= 0 || serverLimit > maxDeliver) return;
  const name = config?.durable_name ?? config?.name ?? '';
  throw new ConsumerFailedError(
    `nats: the consumer${name ? ` "${name}"` : ''} has max_deliver ${serverLimit}, not above maxDeliver ${maxDeliver}: a message whose handler keeps failing would reach the server's limit ` +
      `before it is dead-lettered, and be dropped without a trace. Set max_deliver above ${maxDeliver} (or -1, no limit) on the consumer, or lower maxDeliver.`,
  );
}

/** The consumer's `ack_wait` in milliseconds, or the server's default. */
function ackWaitMs(config: ConsumerInfo['config'] | undefined): number {
  const nanos = config?.ack_wait;
  return typeof nanos === 'number' && nanos > 0 ? nanos / 1e6 : DEFAULT_ACK_WAIT_MS;
}

/** The server's largest message (headers and data together), or NATS's default. */
const maxPayload = (nc: NatsConnection | undefined): number => nc?.info?.max_payload ?? 1024 * 1024;

/** Bytes a header takes on the wire: `Name: value\r\n`. */
const headerBytes = (name: string, value: string) => Buffer.byteLength(name) + 2 + Buffer.byteLength(value) + 2;
/** `NATS/1.0\r\n` before the headers, `\r\n` after, and the `Nats-Msg-Id` the publish adds. */
const fixedHeaderBytes = (msg: JsMsg) => 10 + 2 + headerBytes('Nats-Msg-Id', deadLetterMsgId(msg));

interface DeadLetter {
  data: Uint8Array;
  headers: MsgHdrs;
  byReference: boolean;
}

/**
 * The dead letter: the original bytes and the reason in headers (and the trace context, from
 * `carrier`), sized so that headers and data fit the server's `max_payload` (the issues are dropped from the end first, then the
 * issues header itself; the original bytes are never cut). When even that cannot fit, a dead
 * letter by reference: the original's stream, sequence, size and SHA-256 in headers, its first
 * KiB as data. Throws only if the server's `max_payload` cannot hold even that.
 */
function deadLetterOf(msg: JsMsg, decision: DeadLetterDecision, limit: number, carrier: Record<string, string>): DeadLetter {
  const h = headers();
  for (const [name, value] of Object.entries(carrier)) h.set(name, value);
  h.set(DEAD_LETTER_HEADERS.reason, decision.reason);
  h.set(DEAD_LETTER_HEADERS.subject, msg.subject);
  h.set(DEAD_LETTER_HEADERS.stream, msg.info.stream);
  h.set(DEAD_LETTER_HEADERS.streamSeq, String(msg.info.streamSequence));
  h.set(DEAD_LETTER_HEADERS.deliveries, String(msg.info.deliveryCount));
  let data = msg.data;
  let byReference = false;
  if (roomLeft(msg, h, data, limit) < 0) {
    byReference = true;
    h.set(DEAD_LETTER_HEADERS.byReference, 'true');
    h.set(DEAD_LETTER_HEADERS.originalSize, String(msg.data.length));
    h.set(DEAD_LETTER_HEADERS.originalSha256, createHash('sha256').update(msg.data).digest('hex'));
    data = msg.data.subarray(0, REFERENCE_HEAD_BYTES);
  }
  const room = roomLeft(msg, h, data, limit);
  if (room < 0) {
    throw new ConsumerFailedError(
      `nats: the server's max_payload of ${limit} bytes cannot hold even a dead letter by reference of ${msg.info.stream} #${msg.info.streamSequence}; ` +
        'the original is left unacknowledged. Raise max_payload on the server.',
    );
  }
  for (let count = decision.issues.length; count >= 0; count--) {
    const issues = JSON.stringify(decision.issues.slice(0, count));
    if (headerBytes(DEAD_LETTER_HEADERS.issues, issues) <= room) {
      h.set(DEAD_LETTER_HEADERS.issues, issues);
      break;
    }
  }
  return { data, headers: h, byReference };
}

function roomLeft(msg: JsMsg, h: MsgHdrs, data: Uint8Array, limit: number): number {
  let used = fixedHeaderBytes(msg) + data.length;
  for (const name of h.keys()) used += headerBytes(name, h.get(name));
  return limit - used;
}

interface ProgressReport {
  /** The message whose handler (or dead letter) is being awaited, if any. */
  inFlight: JsMsg | null;
  end(): void;
}

/**
 * One timer for the whole consumer, not one per message: a message found in flight at two
 * ticks in a row (a third of `ack_wait` apart, so in flight for between one and two thirds
 * of it) is reported in progress, which restarts the server's `ack_wait` for it; so is every
 * message found waiting in the queue at two ticks in a row. A tick that comes late says the
 * event loop was blocked (`StallWatch`).
 */
function reportProgress(ackWait: number, queue: DeliveryQueue, stalls: StallWatch): ProgressReport {
  let seen: JsMsg | null = null;
  const report: ProgressReport = {
    inFlight: null,
    end: () => clearInterval(timer),
  };
  const timer = setInterval(() => {
    stalls.tick();
    const msg = report.inFlight;
    if (msg !== null && msg === seen) msg.working();
    seen = msg;
    queue.reportWaiting();
  }, Math.max(ackWait / 3, 1));
  timer.unref();
  return report;
}
