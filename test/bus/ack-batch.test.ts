/**
 * The NATS consumer's held acks: sent together once the buffered messages are done, at the
 * latest after `maxHeld` acks or `maxHoldMs`; counted only once sent; settled (room for the
 * next pull) only once the server has confirmed the last ack of the burst.
 */
import type { JsMsg } from '@nats-io/jetstream';
import { describe, expect, it, vi } from 'vitest';
import { emptyCounts, totalDeadLettered, type DeliveryCounts } from '../../runtime/bus/index.js';
import { AckBatch } from '../../runtime/nats/ack-batch.js';

/** A message whose `ack()` and `ackAck()` both call `ack` (the last of a burst is sent as `ackAck()`, confirmed when `confirm` resolves). */
const fakeMsg = (ack: () => void = () => undefined, confirm: Promise<boolean> = Promise.resolve(true)) => {
  const acks = vi.fn(ack);
  return {
    ack: acks,
    ackAck: () => {
      acks();
      return confirm;
    },
  } as unknown as JsMsg & { ack: ReturnType<typeof vi.fn> };
};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const addsUp = (counts: DeliveryCounts) => counts.handled + counts.ignored + counts.retried + totalDeadLettered(counts) === counts.received;

describe('AckBatch', () => {
  it('holds acks while the current turn of the event loop goes on, then sends them all and counts them', async () => {
    const counts = emptyCounts();
    const batch = new AckBatch(counts, 100, 10_000);
    const msgs = [fakeMsg(), fakeMsg(), fakeMsg()];
    batch.hold(msgs[0]!, false);
    batch.hold(msgs[1]!, true);
    await Promise.resolve(); // microtasks (the next buffered message) do not send them
    batch.hold(msgs[2]!, false);
    expect(msgs.map((m) => m.ack.mock.calls.length)).toEqual([0, 0, 0]);
    expect(counts).toMatchObject({ received: 0, handled: 0, ignored: 0 });
    await nextTurn();
    expect(msgs.map((m) => m.ack.mock.calls.length)).toEqual([1, 1, 1]);
    expect(counts).toMatchObject({ received: 3, handled: 2, ignored: 1 });
    expect(addsUp(counts)).toBe(true);
  });

  it('sends at once when maxHeld acks are held', () => {
    const counts = emptyCounts();
    const batch = new AckBatch(counts, 2, 10_000);
    const msgs = [fakeMsg(), fakeMsg(), fakeMsg()];
    for (const msg of msgs) batch.hold(msg, false);
    expect(msgs.map((m) => m.ack.mock.calls.length)).toEqual([1, 1, 0]);
    expect(counts).toMatchObject({ received: 2, handled: 2 });
  });

  it('sends at once when the first held ack has waited maxHoldMs (a slow handler that returns no promise)', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const batch = new AckBatch(emptyCounts(), 100, 10);
      const [first, second] = [fakeMsg(), fakeMsg()];
      batch.hold(first, false);
      vi.advanceTimersByTime(11);
      batch.hold(second, false);
      expect([first.ack.mock.calls.length, second.ack.mock.calls.length]).toEqual([1, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('send() sends what is held now, and nothing twice', async () => {
    const counts = emptyCounts();
    const batch = new AckBatch(counts, 100, 10_000);
    const msg = fakeMsg();
    batch.hold(msg, false);
    batch.send();
    batch.send();
    await nextTurn();
    expect(msg.ack).toHaveBeenCalledTimes(1);
    expect(counts).toMatchObject({ received: 1, handled: 1 });
  });

  it('reports the burst settled only once the server has confirmed its last ack', async () => {
    let confirm!: (value: boolean) => void;
    const confirmed = new Promise<boolean>((resolve) => (confirm = resolve));
    const settled = vi.fn();
    const batch = new AckBatch(emptyCounts(), 100, 10_000, settled);
    const msgs = [fakeMsg(), fakeMsg(), fakeMsg(undefined, confirmed)];
    for (const msg of msgs) batch.hold(msg, false);
    batch.send();
    expect(msgs.map((m) => m.ack.mock.calls.length)).toEqual([1, 1, 1]);
    await nextTurn();
    expect(settled).not.toHaveBeenCalled();
    confirm(true);
    await nextTurn();
    expect(settled).toHaveBeenCalledExactlyOnceWith(3);
  });

  it('counts only the acks that went out when one fails, and throws its error', () => {
    const counts = emptyCounts();
    const batch = new AckBatch(counts, 100, 10_000);
    const closed = new Error('connection closed');
    batch.hold(fakeMsg(), true);
    batch.hold(fakeMsg(), false);
    batch.hold(
      fakeMsg(() => {
        throw closed;
      }),
      true,
    );
    batch.hold(fakeMsg(), false);
    expect(() => batch.send()).toThrow(closed);
    expect(counts).toMatchObject({ received: 2, handled: 1, ignored: 1 });
    expect(addsUp(counts)).toBe(true);
  });

  it('keeps an ack failure from the event loop for the next send(), instead of throwing it nowhere', async () => {
    const batch = new AckBatch(emptyCounts(), 100, 10_000);
    const closed = new Error('connection closed');
    batch.hold(
      fakeMsg(() => {
        throw closed;
      }),
      false,
    );
    await nextTurn();
    expect(() => batch.send()).toThrow(closed);
    expect(() => batch.send()).not.toThrow();
  });
});
