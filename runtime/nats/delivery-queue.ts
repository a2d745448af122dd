import type { JsMsg } from '@nats-io/jetstream';

/**
 * The messages the server has delivered and the handler has not reached yet, in delivery
 * order (`pullMessages` fills it). Behind a slow handler they may wait
 * longer than `ack_wait`, and the server would deliver them again; held here rather than
 * inside the client's iterator, they are in reach: `reportWaiting()` marks each one that has
 * waited since the previous report in progress (`working()`), which restarts its `ack_wait`.
 * It also counts every message delivered and not yet settled (acknowledged, nak'ed or
 * terminated), wherever it is: waiting here, in the handler, or with its ack held back; the
 * pulls keep that count, plus what they asked for, within `maxMessages`.
 */
export class DeliveryQueue {
  private items: (JsMsg | undefined)[] = [];
  private head = 0;
  /** Messages below this index were already waiting at the previous report. */
  private reportedUpTo = 0;
  private wakeUp: (() => void) | null = null;
  /** Pullers waiting for room: each looks again when messages are settled or `wakeWaiters()` is called. */
  private rooms: (() => void)[] = [];
  private ended = false;
  /** Delivered and not yet settled. */
  private held = 0;

  readonly push = (msg: JsMsg): void => {
    this.items.push(msg);
    this.held += 1;
    this.wake();
  };

  /** `count` messages were acknowledged, nak'ed or terminated: room for more. */
  settled(count: number): void {
    if (count <= 0) return;
    this.held -= count;
    if (this.rooms.length > 0) this.wakeWaiters();
  }

  /** Messages delivered and not yet settled: waiting, in the handler, or with their ack held. */
  get unsettled(): number {
    return this.held;
  }

  /** Takes every waiting message out of the queue at once (to hand them back on `stop()`). */
  drain(): JsMsg[] {
    const waiting = this.items.slice(this.head) as JsMsg[];
    this.items = [];
    this.head = 0;
    this.reportedUpTo = 0;
    return waiting;
  }

  /** No more messages will come: once the queue is empty, `wait()` resolves `false`. */
  end(): void {
    this.ended = true;
    this.wake();
  }

  /** The next message at once, if one is queued. */
  shift(): JsMsg | undefined {
    if (this.head === this.items.length) return undefined;
    const msg = this.items[this.head]!;
    this.items[this.head++] = undefined;
    // Drop the handled front now and then, so the array does not grow for ever.
    if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.reportedUpTo = Math.max(0, this.reportedUpTo - this.head);
      this.head = 0;
    }
    return msg;
  }

  /** Resolves when a message is queued or the queue has ended (`true` if there is something to take). */
  async wait(): Promise<boolean> {
    while (this.head === this.items.length && !this.ended) await new Promise<void>((resolve) => (this.wakeUp = resolve));
    return this.head < this.items.length;
  }

  /**
   * Resolves the next time messages are settled or `wakeWaiters()` is called. A puller checks
   * for room again after it, and reserves that room in the same synchronous step as the check:
   * two pullers woken together must not both take the same room.
   */
  roomChanged(): Promise<void> {
    return new Promise<void>((resolve) => this.rooms.push(resolve));
  }

  /** Wakes the pullers waiting for room, to look again. */
  wakeWaiters(): void {
    const rooms = this.rooms;
    this.rooms = [];
    for (const resolve of rooms) resolve();
  }

  /** Reports in progress every message that was already waiting at the previous call. */
  reportWaiting(): void {
    for (let i = this.head; i < Math.min(this.reportedUpTo, this.items.length); i++) this.items[i]!.working();
    this.reportedUpTo = this.items.length;
  }

  private wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = null;
    wakeUp?.();
  }
}
