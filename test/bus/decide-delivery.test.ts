/**
 * The transport-free decision: for each delivered message, handled, ignored, retry or a dead
 * letter with the right reason, whatever the bytes.
 */
import { describe, expect, it, vi } from 'vitest';
import { createHandler } from '../../runtime/index.js';
import { boundIssues, countDecision, decideDelivery, decideDeliveryNow, deliveryPolicy, emptyCounts, retryDelayMs, totalDeadLettered, type DeliveryDecision } from '../../runtime/bus/index.js';

const valid = { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } };
const json = (value: unknown) => JSON.stringify(value);
const delivery = (data: string | Uint8Array, deliveries = 1) => ({ data, deliveries, message: { id: 'm-1' } });
const policy = deliveryPolicy({ backoffMs: 100 });

const cases: [string, { data: string | Uint8Array; want: Partial<DeliveryDecision> & { action: string } }][] = [
  ['valid JSON text', { data: json(valid), want: { action: 'handled' } }],
  ['valid UTF-8 bytes', { data: new TextEncoder().encode(json(valid)), want: { action: 'handled' } }],
  ['not JSON', { data: '{"type": ', want: { action: 'dead_letter', reason: 'malformed_message' } }],
  ['bytes that are not UTF-8', { data: new Uint8Array([0xff, 0xfe, 0x7b]), want: { action: 'dead_letter', reason: 'malformed_message' } }],
  ['a JSON array', { data: '[]', want: { action: 'dead_letter', reason: 'malformed_message' } }],
  ['a payload missing a required field', { data: json({ ...valid, payload: { account_user_emails: [] } }), want: { action: 'dead_letter', reason: 'invalid_payload' } }],
  ['an unknown type', { data: json({ ...valid, type: 'account.teleported' }), want: { action: 'dead_letter', reason: 'unknown_event_type' } }],
  ['an unknown version', { data: json({ ...valid, version: 'v99' }), want: { action: 'dead_letter', reason: 'unknown_event_version' } }],
];

describe('decideDelivery', () => {
  it.each(cases)('%s', async (_name, { data, want }) => {
    const handler = vi.fn();
    const decision = await decideDelivery(delivery(data), handler, policy);
    expect(decision).toMatchObject(want);
    expect(handler).toHaveBeenCalledTimes(want.action === 'handled' ? 1 : 0);
  });

  it('hands the validated event and the transport message to the handler', async () => {
    const handler = vi.fn();
    await decideDelivery(delivery(json(valid)), handler, policy);
    expect(handler).toHaveBeenCalledWith(valid, { id: 'm-1' });
  });

  it('says exactly why an invalid message is dead-lettered, at once, whatever the delivery count', async () => {
    const decision = await decideDelivery(delivery(json({ ...valid, payload: { account_user_emails: [] } }), 1), vi.fn(), policy);
    expect(decision).toEqual({
      action: 'dead_letter',
      reason: 'invalid_payload',
      message: expect.stringContaining('account_number'),
      issues: [{ path: '/payload/account_number', code: 'required', message: expect.any(String) }],
      named: { type: 'account.created', version: 'v1' },
    });
  });

  it('retries a throwing handler with growing delays, then dead-letters it as handler_failed', async () => {
    const handler = vi.fn(async () => {
      throw new Error('database down');
    });
    const decisions = [];
    for (let deliveries = 1; deliveries <= 5; deliveries++) decisions.push(await decideDelivery(delivery(json(valid), deliveries), handler, policy));
    expect(decisions.slice(0, 4).map((d) => d.action)).toEqual(['retry', 'retry', 'retry', 'retry']);
    expect(decisions[0]).toMatchObject({ reason: 'handler_failed', error: expect.objectContaining({ message: 'database down' }) });
    expect(decisions[4]).toEqual({
      action: 'dead_letter',
      reason: 'handler_failed',
      message: 'handler failed on delivery 5 of 5: Error: database down',
      issues: [{ path: '', code: 'handler_error', message: 'Error: database down' }],
      named: { type: 'account.created', version: 'v1' },
    });
  });

  it('honours maxDeliver: 1 means no retry at all', async () => {
    const decision = await decideDelivery(delivery(json(valid), 1), () => Promise.reject(new Error('x')), deliveryPolicy({ maxDeliver: 1 }));
    expect(decision).toMatchObject({ action: 'dead_letter', reason: 'handler_failed' });
  });

  it('dead-letters what a stricter handler rejects, without retrying', async () => {
    const strictHandle = createHandler({ 'account.created': { v1: () => 'ok' } }, { mode: 'strict' });
    const extra = json({ ...valid, payload: { ...valid.payload, nickname: 'x' } });
    const decision = await decideDelivery(delivery(extra, 1), (event) => strictHandle(event), policy);
    expect(decision).toMatchObject({ action: 'dead_letter', reason: 'invalid_payload', issues: [{ code: 'additional_property', path: '/payload/nickname' }] });
  });

  it('accepts a createHandler result as the handler', async () => {
    const created = vi.fn();
    const handle = createHandler({ 'account.created': { v1: (payload) => created(payload.account_number) } });
    expect(await decideDelivery(delivery(json(valid)), handle, policy)).toMatchObject({ action: 'handled' });
    expect(created).toHaveBeenCalledWith('A-1');
  });

  it('strict mode dead-letters unlisted payload properties', async () => {
    const extra = json({ ...valid, payload: { ...valid.payload, nickname: 'x' } });
    expect(await decideDelivery(delivery(extra), vi.fn(), deliveryPolicy())).toMatchObject({ action: 'handled' });
    expect(await decideDelivery(delivery(extra), vi.fn(), deliveryPolicy({ mode: 'strict' }))).toMatchObject({ action: 'dead_letter', reason: 'invalid_payload' });
  });

  describe('unknown types and versions', () => {
    const unknownType = json({ ...valid, type: 'account.teleported' });
    const unknownVersion = json({ ...valid, version: 'v99' });
    it("'ack' drops them without calling the handler", async () => {
      const handler = vi.fn();
      expect(await decideDelivery(delivery(unknownType), handler, deliveryPolicy({ unknown: 'ack' }))).toEqual({ action: 'ignored', reason: 'unknown_event_type', named: { type: 'account.teleported', version: 'v1' } });
      expect(await decideDelivery(delivery(unknownVersion), handler, deliveryPolicy({ unknown: 'ack' }))).toEqual({ action: 'ignored', reason: 'unknown_event_version', named: { type: 'account.created', version: 'v99' } });
      expect(handler).not.toHaveBeenCalled();
    });
    it("'retry' leaves them for another consumer until maxDeliver, then dead-letters them", async () => {
      const retrying = deliveryPolicy({ unknown: 'retry', maxDeliver: 3 });
      expect(await decideDelivery(delivery(unknownVersion, 2), vi.fn(), retrying)).toMatchObject({ action: 'retry', reason: 'unknown_event_version' });
      expect(await decideDelivery(delivery(unknownVersion, 3), vi.fn(), retrying)).toMatchObject({ action: 'dead_letter', reason: 'unknown_event_version' });
    });
  });

  it('dead-letters a message over maxMessageBytes without reading it', async () => {
    const decision = await decideDelivery(delivery('x'.repeat(2000)), vi.fn(), deliveryPolicy({ maxMessageBytes: 1000 }));
    expect(decision).toMatchObject({ action: 'dead_letter', reason: 'malformed_message', issues: [{ code: 'too_large' }] });
  });

  it('never throws, whatever the handler throws', async () => {
    for (const thrown of [undefined, null, 42, 'text', Symbol('s'), new TypeError('t')]) {
      const decision = await decideDelivery(delivery(json(valid), 5), () => {
        throw thrown;
      }, policy);
      expect(decision).toMatchObject({ action: 'dead_letter', reason: 'handler_failed' });
    }
  });
});

describe('decideDeliveryNow', () => {
  const message = { id: 'm-1' };
  const deliveriesOf = (deliveries: number) => vi.fn((_message: typeof message) => deliveries);

  it('decides at once, without a promise, when the handler returns a plain value', () => {
    const handler = vi.fn(() => 'done');
    const decision = decideDeliveryNow(json(valid), message, deliveriesOf(1), handler, policy);
    expect(decision).not.toBeInstanceOf(Promise);
    expect(decision).toEqual({ action: 'handled', event: valid });
    expect(handler).toHaveBeenCalledWith(valid, message);
  });

  it.each(cases)('decides %s at once, as decideDelivery does', async (_name, { data, want }) => {
    const decision = decideDeliveryNow(data, message, deliveriesOf(1), vi.fn(), policy);
    expect(decision).not.toBeInstanceOf(Promise);
    expect(decision).toEqual(await decideDelivery(delivery(data), vi.fn(), policy));
    expect(decision).toMatchObject(want);
  });

  it('retries a handler that throws at once, without a promise', () => {
    const decision = decideDeliveryNow(json(valid), message, deliveriesOf(2), () => {
      throw new Error('timeout');
    }, policy);
    expect(decision).toMatchObject({ action: 'retry', reason: 'handler_failed', error: expect.objectContaining({ message: 'timeout' }) });
  });

  it('waits for a handler that returns a promise (or any thenable), and only then decides', async () => {
    let finish!: () => void;
    const pending = decideDeliveryNow(json(valid), message, deliveriesOf(1), () => new Promise<void>((resolve) => (finish = resolve)), policy);
    expect(pending).toBeInstanceOf(Promise);
    let decided = false;
    void (pending as Promise<unknown>).then(() => (decided = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(decided).toBe(false);
    finish();
    await expect(pending).resolves.toEqual({ action: 'handled', event: valid });

    const thenable = { then: (resolve: (value: unknown) => void) => resolve('ok') };
    await expect(decideDeliveryNow(json(valid), message, deliveriesOf(1), () => thenable, policy)).resolves.toMatchObject({ action: 'handled' });
  });

  it('turns a rejected promise into the same retry, then dead letter, as a throw', async () => {
    const failing = () => Promise.reject(new Error('database down'));
    await expect(decideDeliveryNow(json(valid), message, deliveriesOf(4), failing, policy)).resolves.toMatchObject({ action: 'retry', reason: 'handler_failed' });
    await expect(decideDeliveryNow(json(valid), message, deliveriesOf(5), failing, policy)).resolves.toEqual({
      action: 'dead_letter',
      reason: 'handler_failed',
      message: 'handler failed on delivery 5 of 5: Error: database down',
      issues: [{ path: '', code: 'handler_error', message: 'Error: database down' }],
      named: { type: 'account.created', version: 'v1' },
    });
  });

  it('treats a result whose then cannot be read as a handler failure, as await does', async () => {
    const hostile = {
      get then(): never {
        throw new Error('no then');
      },
    };
    const decision = decideDeliveryNow(json(valid), message, deliveriesOf(1), () => hostile, policy);
    expect(decision).toMatchObject({ action: 'retry', reason: 'handler_failed', error: expect.objectContaining({ message: 'no then' }) });
    expect(await decideDelivery(delivery(json(valid)), () => hostile, policy)).toMatchObject({ action: 'retry', reason: 'handler_failed' });
  });

  it('reads the delivery count only when it weighs a retry', async () => {
    const counted = deliveriesOf(1);
    decideDeliveryNow(json(valid), message, counted, vi.fn(), policy);
    decideDeliveryNow('{', message, counted, vi.fn(), policy);
    decideDeliveryNow(json({ ...valid, version: 'v99' }), message, counted, vi.fn(), policy);
    await decideDeliveryNow(json(valid), message, counted, async () => undefined, policy);
    expect(counted).not.toHaveBeenCalled();
    decideDeliveryNow(json(valid), message, counted, () => {
      throw new Error('x');
    }, policy);
    decideDeliveryNow(json({ ...valid, version: 'v99' }), message, counted, vi.fn(), deliveryPolicy({ unknown: 'retry' }));
    expect(counted.mock.calls).toEqual([[message], [message]]);
  });
});

describe('deliveryPolicy', () => {
  it('has documented defaults', () => {
    expect(deliveryPolicy()).toEqual({ maxDeliver: 5, unknown: 'dead_letter', mode: 'tolerant', backoffMs: 1000, maxMessageBytes: 1024 * 1024 });
  });
  it.each([[{ maxDeliver: 0 }, /maxDeliver/], [{ maxDeliver: 1.5 }, /maxDeliver/], [{ unknown: 'drop' as never }, /unknown/], [{ mode: 'lenient' as never }, /mode/], [{ backoffMs: -1 }, /backoffMs/]])(
    'rejects %j',
    (options, message) => {
      expect(() => deliveryPolicy(options)).toThrow(message);
    },
  );
});

describe('retryDelayMs', () => {
  it('doubles per delivery between half and all of the ceiling, capped at 60 s', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, 100, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((n) => retryDelayMs(n, 100, () => 1))).toEqual([100, 200, 400]);
    expect(retryDelayMs(40, 1000, () => 1)).toBe(60_000);
  });
});

describe('counts', () => {
  it('add up after any mix of decisions', async () => {
    const counts = emptyCounts();
    const inputs = [json(valid), '{', json({ ...valid, version: 'v99' }), json({ ...valid, payload: {} })];
    for (const data of inputs) countDecision(counts, await decideDelivery(delivery(data), vi.fn(), policy));
    countDecision(counts, await decideDelivery(delivery(json(valid)), () => Promise.reject(new Error('x')), policy));
    expect(counts).toEqual({
      received: 5,
      handled: 1,
      ignored: 0,
      retried: 1,
      deadLettered: { malformed_message: 1, invalid_payload: 1, unknown_event_type: 0, unknown_event_version: 1, handler_failed: 0 },
      stalls: 0,
    });
    expect(counts.handled + counts.ignored + counts.retried + totalDeadLettered(counts)).toBe(counts.received);
  });
});

describe('boundIssues', () => {
  it('keeps at most 20 issues, then says how many more, and cuts long messages', () => {
    const issues = Array.from({ length: 1000 }, (_, i) => ({ path: `/payload/${i}`, code: 'type', message: 'm'.repeat(10_000) }));
    const bounded = boundIssues(issues);
    expect(bounded).toHaveLength(21);
    expect(bounded[20]).toEqual({ path: '', code: 'more_issues', message: '980 more issues not shown' });
    expect(bounded[0]!.message).toHaveLength(201);
    expect(JSON.stringify(bounded).length).toBeLessThan(6000);
  });
});
