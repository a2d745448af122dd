/**
 * The NATS consumer's held acks: sent together when the loop asks (it runs out of buffered
 * messages, or is about to await), at the latest after `maxHeld` acks or `maxHoldMs`; a burst the
 * consumer asks to be confirmed (when it stops) is confirmed by the server's answer to its last ack.
 */
import type { JsMsg } from '@nats-io/jetstream';
import { describe, expect, it, vi } from 'vitest';
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
const ackCounts = (msgs: { ack: ReturnType<typeof vi.fn> }[]) => msgs.map((m) => m.ack.mock.calls.length);

describe('AckBatch', () => {
  it('holds acks until send(), then sends every one of them once, and reports them sent', async () => {
    const sent = vi.fn();
    const batch = new AckBatch(100, 10_000, sent);
    const msgs = [fakeMsg(), fakeMsg(), fakeMsg()];
    for (const msg of msgs) batch.hold(msg);
    await nextTurn();
    expect(ackCounts(msgs)).toEqual([0, 0, 0]);
    batch.send();
    batch.send();
    expect(ackCounts(msgs)).toEqual([1, 1, 1]);
    expect(sent).toHaveBeenCalledExactlyOnceWith(3);
  });

  it('sends at once when maxHeld acks are held', () => {
    const batch = new AckBatch(2, 10_000);
    const msgs = [fakeMsg(), fakeMsg(), fakeMsg()];
    for (const msg of msgs) batch.hold(msg);
    expect(ackCounts(msgs)).toEqual([1, 1, 0]);
  });

  it('sends at once when the first held ack has waited maxHoldMs (a slow handler that returns no promise)', () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const batch = new AckBatch(100, 10);
      const [first, second] = [fakeMsg(), fakeMsg()];
      batch.hold(first);
      vi.advanceTimersByTime(11);
      batch.hold(second);
      expect(ackCounts([first, second])).toEqual([1, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('send(true) sends the last ack as a request, and confirmed() resolves once the server answers it', async () => {
    let confirm!: (value: boolean) => void;
    const answered = new Promise<boolean>((resolve) => (confirm = resolve));
    const batch = new AckBatch(100, 10_000);
    const msgs = [fakeMsg(), fakeMsg(undefined, answered)];
    for (const msg of msgs) batch.hold(msg);
    batch.send(true);
    expect(ackCounts(msgs)).toEqual([1, 1]);
    let settled = false;
    const waiting = batch.confirmed().then(() => (settled = true));
    await nextTurn();
    expect(settled).toBe(false);
    confirm(true);
    await waiting;
    expect(settled).toBe(true);
  });

  it('throws the error of an ack that could not be sent, and reports those sent before it', async () => {
    const sent = vi.fn();
    const batch = new AckBatch(100, 10_000, sent);
    const closed = new Error('connection closed');
    const msgs = [
      fakeMsg(),
      fakeMsg(() => {
        throw closed;
      }),
      fakeMsg(),
    ];
    for (const msg of msgs) batch.hold(msg);
    expect(() => batch.send()).toThrow(closed);
    expect(sent).toHaveBeenCalledExactlyOnceWith(1);
    // Nothing is held any more: what could not be sent is the server's to deliver again.
    expect(() => batch.send()).not.toThrow();
    expect(ackCounts(msgs)).toEqual([1, 1, 0]);
  });
});
