import type { DeliveryDecision } from './decide-delivery.js';
import type { CarrierReader, MessagingSystem } from './telemetry.js';

/** A dead-letter decision, as the loop hands it to the broker to store. */
export type DeadLetterDecision = Extract<DeliveryDecision, { action: 'dead_letter' }>;

/** One delivered message, as the loop reads it: what to decide on and what to trace. */
export interface Delivered<M> {
  /** The bytes (or text) as delivered. */
  data: string | Uint8Array;
  /** Set when the broker's message cannot be decided on at all (a Redis entry without a message field): its dead letter. */
  rejected?: DeadLetterDecision;
  /** Handed to the handler as its second argument. */
  message: M;
  /** The delivery count, read only when a retry is weighed. */
  deliveries: (message: M) => number;
  /** The subject or stream, as spans and metrics name it. */
  destination: string;
  /** The message id for the span, if the broker or producer gave one. */
  messageId: string | undefined;
  /** Reads the trace context the producer put in the message. */
  carrier: CarrierReader;
}

/** What the broker tells the loop once its checks pass. */
export interface Prepared {
  /** The durable consumer or group, for spans and metrics. */
  group: string;
  /** The broker setting after which it delivers a held message again (`ack_wait`, `claimIdleMs`): the keep-alive runs at a third of it. */
  redelivery: { name: string; ms: number };
}

/**
 * What a broker adapter supplies to the one consumer loop (`runConsumerLoop`): how messages
 * arrive, and how each decision is settled on that broker. The loop owns the order of things
 * (decide, settle, dead-letter with retries, keep-alive, stop, counts, traces); a broker owns
 * only its operations. Methods are called one at a time, from the loop.
 */
export interface Broker<Raw, M> {
  readonly system: MessagingSystem;
  /** How errors name the adapter: `nats`, `redis-streams`. */
  readonly label: string;
  /** The checks that must pass before anything is taken; throws a `ConsumerFailedError` saying what to fix. */
  prepare(): Promise<Prepared>;
  /** Starts delivering (after `prepare`, unless the consumer was stopped meanwhile). */
  start(): void;
  /** The next delivered message if one is at hand, without waiting. */
  next(): Raw | undefined;
  /** Resolves `true` once a message is at hand, `false` once none will come (stopped, or the source ended: `endedBecause`). */
  wait(): Promise<boolean>;
  /** Why deliveries ended although nobody stopped them (connection closed, consumer deleted), once `wait` said `false`. */
  endedBecause(): Promise<string>;
  read(raw: Raw): Delivered<M>;
  /** Handled (or, `ignored`, an unknown event dropped on purpose): acknowledge, now or with the next `flush`. */
  acknowledge(raw: Raw, ignored: boolean): void;
  /** Sends the acknowledgements held back. Called before anything the loop awaits, and when it runs out of messages. */
  flush(): void | Promise<void>;
  /** At the end: sends what is held back and resolves once the broker has taken every acknowledgement (so that `closed` means they are settled). */
  finish(): Promise<void>;
  /** The handler threw: deliver again after `delayMs` (or leave it for the broker's own redelivery). */
  retry(raw: Raw, delayMs: number): void;
  /** One attempt to store the dead letter and then acknowledge the original; throws if it was not stored. */
  deadLetter(raw: Raw, decision: DeadLetterDecision, carrier: Record<string, string>): Promise<void>;
  /** Every third of the redelivery time: keeps what the consumer holds from being delivered again (`inFlight` is the message being handled). */
  keepAlive(inFlight: Raw | null): void;
  /** Gives every message delivered and not yet started back to the broker, at once. */
  handBack(): void | Promise<void>;
  /** Ends deliveries: no new request for messages goes out after this call returns; resolves once none will come. */
  stop(): Promise<void>;
  /** Names a message in an error: `EVENTS #12`, `entry 1-2 of events`. */
  describe(raw: Raw): string;
  /** Where dead letters go, for errors and spans. */
  readonly deadLetterDestination: string;
  /** After a failure: whatever the broker can still do for what it holds (hand it back while the connection lasts). */
  abandon(): void | Promise<void>;
}
