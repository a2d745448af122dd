import type { JsMsg } from '@nats-io/jetstream';

/**
 * The messages the server has delivered and the handler has not reached yet, in delivery
 * order (`pullMessages` fills it, at most `maxMessages`). Behind a slow handler they may wait
 * longer than `ack_wait`, and the server would deliver them again; held here rather than
 * inside the client's iterator, they are in reach: `reportWaiting()` marks each one that has
 * waited since the previous report in progress (`working()`), which restarts its `ack_wait`.
 */
export class DeliveryQueue {
  private items: (JsMsg | undefined)[] = [];
  private head = 0;
  /** Messages below this index were already waiting at the previous report. */
  private reportedUpTo = 0;
  private wakeUp: (() => void) | null = null;
  /** Pullers waiting for room: each looks again when a message is taken or `wakeWaiters()` is called. */
  private rooms: (() => void)[] = [];
  private ended = false;

  readonly push = (msg: JsMsg): void => {
    this.items.push(msg);
    this.wake();
  };

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
    if (this.rooms.length > 0) this.wakeWaiters();
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

  /** Resolves once `ready()` holds, looking again each time a message is taken or `wakeWaiters()` is called. */
  async roomFor(ready: () => boolean): Promise<void> {
    while (!ready()) await new Promise<void>((resolve) => this.rooms.push(resolve));
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

  get waiting(): number {
    return this.items.length - this.head;
  }

  private wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = null;
    wakeUp?.();
  }
}
