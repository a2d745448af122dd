/**
 * The NATS consumer's held acks: sent together when the loop asks (it runs out of buffered
 * messages, or is about to await), at the latest after `maxHeld` acks or `maxHoldMs`; the burst
 * reported sent only once the server has confirmed its last ack.
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
  it('holds acks until send(), then sends every one of them once', async () => {
    const sent = vi.fn();
    const batch = new AckBatch(100, 10_000, sent);
    const msgs = [fakeMsg(), fakeMsg(), fakeMsg()];
    for (const msg of msgs) batch.hold(msg);
    await nextTurn();
    expect(ackCounts(msgs)).toEqual([0, 0, 0]);
    batch.send();
    batch.send();
    expect(ackCounts(msgs)).toEqual([1, 1, 1]);
    await nextTurn();
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

  it('reports the burst sent only once the server has confirmed its last ack', async () => {
    let confirm!: (value: boolean) => void;
    const confirmed = new Promise<boolean>((resolve) => (confirm = resolve));
    const sent = vi.fn();
    const batch = new AckBatch(100, 10_000, sent);
    const msgs = [fakeMsg(), fakeMsg(), fakeMsg(undefined, confirmed)];
    for (const msg of msgs) batch.hold(msg);
    batch.send();
    expect(ackCounts(msgs)).toEqual([1, 1, 1]);
    await nextTurn();
    expect(sent).not.toHaveBeenCalled();
    confirm(true);
    await nextTurn();
    expect(sent).toHaveBeenCalledExactlyOnceWith(3);
  });

  it('when no pull waits for the room, reports the burst sent at once, with plain acks and no round trip', async () => {
    const sent = vi.fn();
    const batch = new AckBatch(100, 10_000, sent, () => false);
    const msgs = [fakeMsg(), fakeMsg(undefined, new Promise<boolean>(() => undefined))];
    for (const msg of msgs) batch.hold(msg);
    batch.send();
    expect(ackCounts(msgs)).toEqual([1, 1]);
    expect(sent).toHaveBeenCalledExactlyOnceWith(2);
    await expect(batch.confirmed()).resolves.toBeUndefined();
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
