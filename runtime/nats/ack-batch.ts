import type { JsMsg } from '@nats-io/jetstream';

/**
 * The acknowledgements of handled messages, held while the consumer works through the
 * messages already buffered, then sent together. nats.js writes whatever was sent in one
 * turn of the event loop to the socket at once, so a burst of messages costs one write
 * rather than one per message (which, on loopback, costs more than the rest of the message).
 * Every message still gets its own ack. A held ack waits until the consumer runs out of
 * buffered messages or awaits something (it calls `send()`), `maxHeld` acks are held or the
 * first one has waited `maxHoldMs`, whichever comes first. When a pull is waiting for the room
 * a burst frees (`confirmBefore()`), the burst's last ack asks the server to confirm it and
 * `onSent` hears of the burst only then: the server may process a consumer's acks after a pull
 * request sent behind them, and the room must not be used twice. Otherwise the room is free at
 * once, and no round trip is paid.
 */
export class AckBatch {
  private readonly held: JsMsg[] = [];
  private heldSince = 0;

  constructor(
    private readonly maxHeld: number,
    private readonly maxHoldMs: number,
    /** Told how many messages a send acknowledged (once the server has confirmed them, when it must). */
    private readonly onSent: (count: number) => void = () => undefined,
    /** Whether a pull waits for the room this send frees: then the server confirms the burst first. */
    private readonly confirmBefore: () => boolean = () => true,
  ) {}

  /** Holds the ack of a message. */
  hold(msg: JsMsg): void {
    const now = performance.now();
    if (this.held.length === 0) this.heldSince = now;
    this.held.push(msg);
    if (this.held.length >= this.maxHeld || now - this.heldSince >= this.maxHoldMs) this.send();
  }

  /** The server's confirmation of the last burst sent (resolved when there is none). */
  private lastConfirmed: Promise<unknown> = Promise.resolve();

  /** Resolves once the server has confirmed every burst sent so far (never rejects). */
  confirmed(): Promise<void> {
    return this.lastConfirmed.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Sends every held ack now; throws if one could not be sent (what was sent before it is reported sent). */
  send(): void {
    const held = this.held;
    if (held.length === 0) return;
    let sent = 0;
    let confirmed: Promise<unknown> | undefined;
    try {
      const confirm = this.confirmBefore();
      for (; sent < held.length - (confirm ? 1 : 0); sent++) held[sent]!.ack();
      // The server processes a consumer's acks in order: once the last is confirmed, the whole burst is settled.
      if (confirm) {
        confirmed = held[sent]!.ackAck();
        sent += 1;
      }
    } finally {
      held.length = 0;
      const count = sent;
      if (confirmed === undefined) {
        if (count > 0) this.onSent(count);
      } else {
        this.lastConfirmed = confirmed;
        void confirmed.then(
          () => this.onSent(count),
          () => this.onSent(count),
        );
      }
    }
  }
}
