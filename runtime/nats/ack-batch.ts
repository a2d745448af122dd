import type { JsMsg } from '@nats-io/jetstream';

/**
 * The acknowledgements of handled messages, held while the consumer works through the
 * messages already buffered, then sent together. nats.js writes whatever was sent in one
 * turn of the event loop to the socket at once, so a burst of messages costs one write
 * rather than one per message (which, on loopback, costs more than the rest of the message).
 * Every message still gets its own ack. A held ack waits until the consumer runs out of
 * buffered messages or awaits something (it calls `send()`), `maxHeld` acks are held or the
 * first one has waited `maxHoldMs`, whichever comes first. `onSent` hears of each burst as it
 * leaves: from then on the consumer no longer holds those messages. `send(true)` also asks the
 * server to confirm the burst's last ack (it processes a consumer's acks in order), and
 * `confirmed()` waits for that: a consumer that stops knows its acks are settled.
 */
export class AckBatch {
  private readonly held: JsMsg[] = [];
  private heldSince = 0;

  constructor(
    private readonly maxHeld: number,
    private readonly maxHoldMs: number,
    /** Told how many messages each send acknowledged. */
    private readonly onSent: (count: number) => void = () => undefined,
  ) {}

  /** Holds the ack of a message. */
  hold(msg: JsMsg): void {
    const now = performance.now();
    if (this.held.length === 0) this.heldSince = now;
    this.held.push(msg);
    if (this.held.length >= this.maxHeld || now - this.heldSince >= this.maxHoldMs) this.send();
  }

  /** The server's confirmation of the last burst sent with `confirm` (resolved when there is none). */
  private lastConfirmed: Promise<unknown> = Promise.resolve();

  /** Resolves once the server has confirmed the last burst sent with `confirm` (never rejects). */
  confirmed(): Promise<void> {
    return this.lastConfirmed.then(
      () => undefined,
      () => undefined,
    );
  }

  /**
   * Sends every held ack now (with `confirm`, the last as a request the server answers once it
   * has processed it); throws if one could not be sent (what was sent before it is reported sent).
   */
  send(confirm = false): void {
    const held = this.held;
    if (held.length === 0) return;
    let sent = 0;
    try {
      for (; sent < held.length - (confirm ? 1 : 0); sent++) held[sent]!.ack();
      if (confirm) {
        this.lastConfirmed = held[sent]!.ackAck();
        sent += 1;
      }
    } finally {
      held.length = 0;
      if (sent > 0) this.onSent(sent);
    }
  }
}
