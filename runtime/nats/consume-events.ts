import { createHash } from 'node:crypto';
import type { Consumer, ConsumerInfo, JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { headers, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  ConsumerFailedError,
  loopPolicy,
  positiveInteger,
  requiredText,
  runConsumerLoop,
  type Broker,
  type BusHandler,
  type ConsumerOptions,
  type Consumption,
  type DeadLetterDecision,
  type Delivered,
  type Prepared,
} from '../bus/index.js';
import { describeError } from '../internal/describe-error.js';
import { AckBatch } from './ack-batch.js';
import { connectionOf } from './connection-of.js';
import { DEAD_LETTER_HEADERS, REFERENCE_HEAD_BYTES } from './dead-letter-headers.js';
import { DeliveryQueue } from './delivery-queue.js';
import { pullMessages, type Puller } from './pull-messages.js';

export interface ConsumeEventsOptions extends ConsumerOptions {
  /** Publishes the dead letters (and awaits the server's acknowledgement of each). */
  js: JetStreamClient;
  /** Where dead letters go; a stream must capture this subject. */
  deadLetterSubject: string;
  /**
   * The most messages this consumer holds unacknowledged at any moment: waiting, in the
   * handler, or with their ack held back (pulled a quarter at a time, up to four pulls in flight). Default 100.
   */
  maxMessages?: number;
}

export { ConsumerFailedError };

/** The dead letter's id for JetStream de-duplication: one dead letter per original, even if the original comes back. */
const deadLetterMsgId = (msg: JsMsg): string => `dead-letter:${msg.info.stream}:${msg.info.streamSequence}`;

/** Reading the delivery count parses the reply subject: the core asks for it only when it weighs a retry. */
const deliveryCount = (msg: JsMsg): number => msg.info.deliveryCount;

/** Longest an ack of a handled message is held back to be sent with the next ones. */
const MAX_ACK_HOLD_MS = 10;

/** The server's own default, for a consumer whose configuration cannot be read. */
const DEFAULT_ACK_WAIT_MS = 30_000;

/**
 * Consumes catalog events from the caller's JetStream pull consumer with explicit acks, by
 * the one consumer loop (`runConsumerLoop`): handled → `ack` (sent together with the rest of
 * the burst, see `AckBatch`); handler threw → `nak` with back-off until `maxDeliver`;
 * otherwise the message is published to `deadLetterSubject` with its original bytes and the
 * reason in headers, and only once the server has stored it is the original acknowledged (one
 * too large to travel whole is dead-lettered by reference and terminated). While a handler (or
 * a dead letter's publish) runs long, its message is reported in progress (`working()`) at the
 * latest two thirds of the consumer's `ack_wait` after it began, then every third; the messages
 * waiting behind it are reported the same way (see `DeliveryQueue`). Refuses to start when no
 * stream stores the dead letters, or when the consumer's `max_deliver` would drop a message
 * before `maxDeliver` dead-letters it.
 */
export function consumeEvents(consumer: Consumer, handler: BusHandler<JsMsg>, options: ConsumeEventsOptions): Consumption {
  const policy = loopPolicy(options);
  const deadLetterSubject = requiredText('a deadLetterSubject', options.deadLetterSubject);
  const maxMessages = positiveInteger('maxMessages', options.maxMessages, 100);
  return runConsumerLoop(new JetStreamBroker(consumer, options.js, deadLetterSubject, maxMessages, policy.delivery.maxDeliver), handler, policy);
}

/** JetStream's side of the consumer loop. */
class JetStreamBroker implements Broker<JsMsg, JsMsg> {
  readonly system = 'nats';
  readonly label = 'nats';
  private readonly queue = new DeliveryQueue();
  private readonly nc: NatsConnection | undefined;
  private puller: Puller | null = null;
  private acks: AckBatch | null = null;
  /** The message found in flight at the previous keep-alive. */
  private seenInFlight: JsMsg | null = null;

  constructor(
    private readonly consumer: Consumer,
    private readonly js: JetStreamClient,
    readonly deadLetterDestination: string,
    private readonly maxMessages: number,
    private readonly maxDeliver: number,
  ) {
    this.nc = connectionOf(js);
  }

  async prepare(): Promise<Prepared> {
    await checkDeadLetterStream(this.js, this.deadLetterDestination);
    const config = await consumerConfig(this.consumer);
    refuseDroppingMaxDeliver(config, this.maxDeliver);
    const ackWait = ackWaitMs(config);
    // Half of `maxMessages` at most: the acks of the first pulls' batches go out while the next ones are handled, making room for the next pull.
    this.acks = new AckBatch(Math.max(1, Math.ceil(this.maxMessages / 2)), Math.min(MAX_ACK_HOLD_MS, ackWait / 4), (sent) => this.queue.settled(sent));
    return { group: config?.durable_name ?? config?.name ?? '', redelivery: { name: "the consumer's ack_wait", ms: ackWait } };
  }

  start(): void {
    this.puller = pullMessages(this.consumer, this.queue, { maxMessages: this.maxMessages, nc: this.nc });
  }

  next(): JsMsg | undefined {
    return this.queue.shift();
  }

  wait(): Promise<boolean> {
    return this.queue.wait();
  }

  async endedBecause(): Promise<string> {
    return (await this.puller?.ended) ?? 'the pulls ended';
  }

  read(msg: JsMsg): Delivered<JsMsg> {
    return {
      data: msg.data,
      message: msg,
      deliveries: deliveryCount,
      destination: msg.subject,
      messageId: msg.headers?.get('Nats-Msg-Id') || undefined,
      carrier: (name) => msg.headers?.get(name) || undefined,
    };
  }

  acknowledge(msg: JsMsg): void {
    this.acks!.hold(msg);
  }

  flush(): void {
    this.acks?.send();
  }

  async finish(): Promise<void> {
    // The last burst confirmed by the server: once `closed` resolves, nothing handled is still pending there.
    this.acks?.send(true);
    await this.acks?.confirmed();
  }

  retry(msg: JsMsg, delayMs: number): void {
    msg.nak(delayMs);
    this.queue.settled(1);
  }

  async deadLetter(msg: JsMsg, decision: DeadLetterDecision, carrier: Record<string, string>): Promise<void> {
    // Sized with the trace headers the publish carries, if any.
    const letter = deadLetterOf(msg, decision, maxPayload(this.nc), carrier);
    await this.js.publish(this.deadLetterDestination, letter.data, { headers: letter.headers, msgID: deadLetterMsgId(msg) });
    // By reference, the original stays in its stream for whoever reads the dead letter: terminated, never delivered again.
    if (letter.byReference) msg.term();
    else msg.ack();
    this.queue.settled(1);
  }

  /**
   * A message found in flight at two keep-alives in a row (a third of `ack_wait` apart, so in
   * flight for between one and two thirds of it) is reported in progress, which restarts the
   * server's `ack_wait` for it; so is every message found waiting in the queue at two in a row.
   */
  keepAlive(inFlight: JsMsg | null): void {
    if (inFlight !== null && inFlight === this.seenInFlight) inFlight.working();
    this.seenInFlight = inFlight;
    this.queue.reportWaiting();
  }

  /**
   * Naks every waiting message at once, so that another consumer gets it well before
   * `ack_wait`. Its delay is only as long as a pull request of this consumer may still wait on
   * the server with room left (at most a pull's expiry, 2 s; none at all when no pull is open):
   * the server would redeliver into that request, which nobody reads after `stop()`.
   */
  handBack(): void {
    const waiting = this.queue.drain();
    const delay = Math.max(0, (this.puller?.openUntil() ?? 0) - Date.now());
    for (const msg of waiting) msg.nak(delay);
    this.queue.settled(waiting.length);
  }

  async stop(): Promise<void> {
    if (this.puller) await this.puller.stop();
    else this.queue.end();
  }

  describe(msg: JsMsg): string {
    return `${msg.info.stream} #${msg.info.streamSequence}`;
  }

  abandon(): void {
    // Hands back what it holds while the connection lasts.
    if (!(this.nc?.isClosed() ?? false)) this.handBack();
  }
}

/** Refuses to start when no stream stores dead letters: they could only be retried forever, or dropped. */
async function checkDeadLetterStream(js: JetStreamClient, subject: string): Promise<void> {
  let error: unknown;
  try {
    const jsm = await js.jetstreamManager();
    if (await jsm.streams.find(subject)) return;
  } catch (caught) {
    // "No stream matches the subject" is the answer, not a failure to get one.
    if (!(caught instanceof Error && caught.name === 'StreamNotFoundError')) error = caught;
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
 * `carrier`), sized so that headers and data fit the server's `max_payload` (the issues are
 * dropped from the end first, then the issues header itself; the original bytes are never
 * cut). When even that cannot fit, a dead letter by reference: the original's stream, sequence,
 * size and SHA-256 in headers, its first KiB as data. Throws only if the server's
 * `max_payload` cannot hold even that.
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
