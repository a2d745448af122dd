import type { JsMsg } from '@nats-io/jetstream';
import type { DeliveryCounts } from '../bus/index.js';

/**
 * The acknowledgements of settled messages, held while the consumer works through the
 * messages already buffered, then sent together. nats.js writes whatever was sent in one
 * turn of the event loop to the socket at once, so a burst of messages costs one write
 * rather than one per message (which, on loopback, costs more than the rest of the message).
 * Every message still gets its own `ack()`. A held ack waits until the buffered messages are
 * done (the next turn of the event loop), `maxHeld` acks are held or the first one has waited
 * `maxHoldMs`, whichever comes first; the owner sends them at once before anything it awaits.
 * Messages are counted when their ack is sent, so the counts still add up at every moment.
 */
export class AckBatch {
  private readonly held: JsMsg[] = [];
  /** Where in `held` the ignored messages (acknowledged without being handled) are. */
  private readonly ignoredAt: number[] = [];
  private heldSince = 0;
  private sendScheduled = false;
  /** An ack that failed when sent from the event loop: thrown by the next `send()`. */
  private failure: { error: unknown } | null = null;

  constructor(
    private readonly counts: DeliveryCounts,
    private readonly maxHeld: number,
    private readonly maxHoldMs: number,
    /** Told how many messages a send acknowledged, once the server has confirmed them. */
    private readonly onSent: (count: number) => void = () => undefined,
  ) {}

  /** Holds the ack of a message that was handled (or, `ignored`, skipped on purpose). */
  hold(msg: JsMsg, ignored: boolean): void {
    const now = performance.now();
    if (this.held.length === 0) this.heldSince = now;
    if (ignored) this.ignoredAt.push(this.held.length);
    this.held.push(msg);
    if (this.held.length >= this.maxHeld || now - this.heldSince >= this.maxHoldMs) {
      this.send();
    } else if (!this.sendScheduled) {
      // Runs once the microtasks are done, that is once the loop waits for more messages.
      this.sendScheduled = true;
      setImmediate(this.sendFromEventLoop);
    }
  }

  /** Sends every held ack now and counts those messages; throws if an ack could not be sent. */
  send(): void {
    if (this.failure !== null) {
      const { error } = this.failure;
      this.failure = null;
      throw error;
    }
    const held = this.held;
    let sent = 0;
    let confirmed: Promise<unknown> | undefined;
    try {
      for (; sent < held.length - 1; sent++) held[sent]!.ack();
      // The last one asks the server to confirm: it processes a consumer's acks in order, so
      // once this one is confirmed, the whole burst is settled on the server too.
      if (held.length > 0) {
        confirmed = held[sent]!.ackAck();
        sent += 1;
      }
    } finally {
      // What could not be acknowledged is not counted: the server delivers it again.
      let ignored = 0;
      for (const at of this.ignoredAt) if (at < sent) ignored += 1;
      this.counts.received += sent;
      this.counts.handled += sent - ignored;
      this.counts.ignored += ignored;
      held.length = 0;
      this.ignoredAt.length = 0;
      const count = sent;
      if (confirmed === undefined) {
        if (count > 0) this.onSent(count);
      } else
        void confirmed.then(
          () => this.onSent(count),
          () => this.onSent(count),
        );
    }
  }

  private readonly sendFromEventLoop = (): void => {
    this.sendScheduled = false;
    try {
      this.send();
    } catch (error) {
      this.failure = { error };
    }
  };
}
