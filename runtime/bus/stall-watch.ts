import type { DeliveryCounts } from './delivery-counts.js';

/** What both adapters take for telling the application what it should know but nothing throws for. */
export interface ConsumerWarnings {
  /**
   * Called once per consumer when it sees something the application must fix, such as a
   * handler blocking the event loop past the broker's redelivery time. Default `console.warn`.
   */
  onWarning?: (message: string) => void;
}

/** The warning hook from the options, checked: a function, or the default. */
export function warningHook(options: ConsumerWarnings): (message: string) => void {
  const hook = options.onWarning ?? ((message: string) => console.warn(message));
  if (typeof hook !== 'function') throw new TypeError(`bus: onWarning must be a function, got ${typeof hook}`);
  return hook;
}

/**
 * Notices when the event loop was blocked long enough for the broker to give this
 * consumer's messages to another consumer (or to it again). The consumer's keep-alive timer
 * ticks every `periodMs` (a third of the broker's redelivery time) and reports each message
 * still held at the latest two periods after it arrived; a tick that comes more than two
 * periods after the previous one means that no report could be sent meanwhile, so a message
 * may have gone past the redelivery time. Each such gap is counted (`counts.stalls`); the
 * first one is also told through the warning hook. Nothing here prevents the redelivery:
 * only a handler that gives the event loop back (awaits) can be kept alive.
 */
export class StallWatch {
  private last = performance.now();
  private warned = false;

  constructor(
    private readonly periodMs: number,
    /** The broker setting that decides redelivery, as the warning names it (`ack_wait`, `claimIdleMs`). */
    private readonly limit: { name: string; ms: number },
    private readonly counts: DeliveryCounts,
    private readonly warn: (message: string) => void,
  ) {}

  /** Called on every tick of the keep-alive timer. */
  tick(): void {
    const now = performance.now();
    const gap = now - this.last;
    this.last = now;
    if (gap <= 2 * this.periodMs) return;
    this.counts.stalls += 1;
    if (this.warned) return;
    this.warned = true;
    this.warn(
      `event-catalog consumer: the event loop was blocked for about ${Math.round(gap - this.periodMs)} ms, so the messages this consumer held could not be kept alive; ` +
        `those held longer than ${this.limit.name} (${Math.round(this.limit.ms)} ms) may be delivered again, to this consumer or another. ` +
        'A handler must not block the event loop that long: await between steps, or move CPU-bound work to a worker thread. ' +
        '(Warned once; every later stall is counted in counts.stalls.)',
    );
  }
}
