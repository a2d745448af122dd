/**
 * The Redis Streams adapter against a real `redis-server` (Debian's 7.0): publish validates
 * first; a consumer group's consumer acks, leaves failed messages pending to be claimed
 * again, and adds each dead letter in the same script as the XACK; replay moves back what is
 * valid now.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventValidationError, type CatalogEvent } from '../../runtime/index.js';
import { consumeEvents, ConsumerFailedError, publishEvent, replayDeadLetters, type StreamMessage } from '../../runtime/redis-streams/index.js';
import { startRedisServer, type RunningBroker } from './brokers.js';
import { until } from './until.js';

const valid = (account: string): CatalogEvent => ({ type: 'account.created', version: 'v1', payload: { account_number: account, account_user_emails: [] } });

let server: RunningBroker;
let redis: Redis;
const connections: Redis[] = [];
const connection = () => {
  const c = new Redis(server.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  connections.push(c);
  return c;
};

beforeAll(async () => {
  server = await startRedisServer();
  redis = connection();
}, 60_000);

afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
  await server?.stop();
}, 60_000);

async function deadLetters(stream: string) {
  const entries = (await redis.xrange(stream, '-', '+')) as [string, string[]][];
  return entries.map(([, flat]) => Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]])) as Record<string, string>);
}

const settledTotal = (c: { handled: number; ignored: number; deadLettered: Record<string, number> }) => c.handled + c.ignored + Object.values(c.deadLettered).reduce((a, b) => a + b, 0);

describe('publishEvent', () => {
  it('with a msgId, stores a retried publish once within the window and resolves with the first entry id', async () => {
    const first = await publishEvent(redis, valid('A-1'), { stream: 'once', msgId: 'account.created:A-1', duplicateWindowMs: 1000 });
    const again = await publishEvent(redis, valid('A-1'), { stream: 'once', msgId: 'account.created:A-1', duplicateWindowMs: 1000 });
    expect(again).toBe(first);
    expect(await redis.xlen('once')).toBe(1);
    expect(await redis.pttl('once:msg-id:account.created:A-1')).toBeGreaterThan(0);
    await redis.del('once:msg-id:account.created:A-1'); // the window over
    expect(await publishEvent(redis, valid('A-1'), { stream: 'once', msgId: 'account.created:A-1' })).not.toBe(first);
    expect(await redis.xlen('once')).toBe(2);
  });

  it('a publish retried after its connection was killed (ioredis reconnects) stores the event once', async () => {
    const producer = connection();
    const producerId = await producer.client('ID');
    await publishEvent(producer, valid('A-2'), { stream: 'resent', msgId: 'account.created:A-2' });
    await redis.client('KILL', 'ID', String(producerId));
    await publishEvent(producer, valid('A-2'), { stream: 'resent', msgId: 'account.created:A-2' });
    expect(await redis.xlen('resent')).toBe(1);
  }, 30_000);

  it('adds a valid event as the "message" field and resolves with the entry id', async () => {
    const id = await publishEvent(redis, valid('A-1'), { stream: 'pub' });
    expect(await redis.xrange('pub', '-', '+')).toEqual([[id, ['message', JSON.stringify(valid('A-1'))]]]);
  }, 30_000);

  it('rejects an invalid event with its EventError and adds nothing', async () => {
    // Not a catalog event (the type says so): what run-time validation is there for.
    const extra = { ...valid('A-2'), payload: { ...valid('A-2').payload, nickname: 'x' } } as unknown as CatalogEvent;
    const rejected = await publishEvent(redis, extra, { stream: 'pub' }).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(EventValidationError);
    expect((rejected as EventValidationError).error).toMatchObject({ code: 'invalid_payload', issues: [{ path: '/payload/nickname', code: 'additional_property' }] });
    expect(await redis.xlen('pub')).toBe(1);
    await publishEvent(redis, extra, { stream: 'pub', mode: 'tolerant' });
    expect(await redis.xlen('pub')).toBe(2);
  }, 30_000);
});

describe('consumeEvents', () => {
  it('handles, retries and dead-letters each entry as the core decides, the dead letter and the XACK in one step', async () => {
    await redis.xgroup('CREATE', 'mix', 'workers', '$', 'MKSTREAM');
    const inputs: unknown[] = [
      valid('A-1'),
      { ...valid('x'), payload: { account_user_emails: [] } },
      '{"type": "account.created",',
      { ...valid('A-9'), type: 'account.teleported' },
      { ...valid('A-9'), version: 'v99' },
      valid('FLAKY'),
      valid('BROKEN'),
      valid('A-2'),
    ];
    const ids = [];
    for (const message of inputs) ids.push(await redis.xadd('mix', '*', 'message', typeof message === 'string' ? message : JSON.stringify(message)));
    ids.push(await redis.xadd('mix', '*', 'body', 'no message field'));

    const handled: string[] = [];
    let flaky = 0;
    const consumption = consumeEvents(
      connection(),
      (event: CatalogEvent, message: StreamMessage) => {
        const account = (event.payload as { account_number: string }).account_number;
        if (account === 'BROKEN') throw new Error('database down');
        if (account === 'FLAKY' && flaky++ === 0) throw new Error('timeout');
        handled.push(`${account}@${message.deliveries}`);
      },
      { stream: 'mix', group: 'workers', consumer: 'c1', deadLetterStream: 'mix:dead', maxDeliver: 3, claimIdleMs: 100, blockMs: 100 },
    );
    await until(() => settledTotal(consumption.counts) === 9, 'every entry settled');
    await consumption.stop();
    await expect(consumption.closed).resolves.toBeUndefined();

    expect(handled.sort()).toEqual(['A-1@1', 'A-2@1', 'FLAKY@2']);
    expect(consumption.counts).toEqual({
      received: 12,
      handled: 3,
      ignored: 0,
      retried: 3,
      deadLettered: { malformed_message: 2, invalid_payload: 1, unknown_event_type: 1, unknown_event_version: 1, handler_failed: 1 },
      // A loaded machine may hold the event loop past a third of claimIdleMs: counted, not asserted.
      stalls: expect.any(Number),
    });
    const letters = await deadLetters('mix:dead');
    expect(letters.map((l) => [l.reason, l.original_id])).toEqual([
      ['invalid_payload', ids[1]],
      ['malformed_message', ids[2]],
      ['unknown_event_type', ids[3]],
      ['unknown_event_version', ids[4]],
      ['malformed_message', ids[8]],
      ['handler_failed', ids[6]],
    ]);
    expect(letters[1]).toEqual({
      message: '{"type": "account.created",',
      reason: 'malformed_message',
      issues: expect.any(String),
      original_id: ids[2],
      deliveries: '1',
      // Every field of the original, in order; the message itself once, in `message`.
      original_fields: '[["message",null]]',
    });
    expect(JSON.parse(letters[0]!.issues!)).toEqual([{ path: '/payload/account_number', code: 'required', message: expect.any(String) }]);
    expect(letters[5]).toMatchObject({ deliveries: '3', message: JSON.stringify(valid('BROKEN')) });
    expect(JSON.parse(letters[5]!.issues!)).toEqual([{ path: '', code: 'handler_error', message: 'Error: database down' }]);
    // Nothing left pending in the group.
    expect(await redis.xpending('mix', 'workers')).toEqual([0, null, null, null]);
  }, 60_000);

  it('takes over what a dead consumer left pending, with its delivery count', async () => {
    await redis.xgroup('CREATE', 'orphans', 'workers', '$', 'MKSTREAM');
    await redis.xadd('orphans', '*', 'message', JSON.stringify(valid('A-1')));
    // A consumer that read and died before acknowledging.
    await redis.xreadgroup('GROUP', 'workers', 'dead', 'COUNT', 10, 'STREAMS', 'orphans', '>');
    const seen: StreamMessage[] = [];
    const consumption = consumeEvents(connection(), (_event, message) => void seen.push(message), {
      stream: 'orphans',
      group: 'workers',
      consumer: 'alive',
      deadLetterStream: 'orphans:dead',
      claimIdleMs: 200,
      blockMs: 100,
    });
    await until(() => consumption.counts.handled === 1, 'the orphan handled');
    await consumption.stop();
    expect(seen).toEqual([{ stream: 'orphans', id: expect.any(String), deliveries: 2 }]);
    expect(await redis.xpending('orphans', 'workers')).toEqual([0, null, null, null]);
  }, 60_000);

  it('refuses to start when the dead-letter key is not a stream (a dead letter could not be stored)', async () => {
    await redis.xgroup('CREATE', 'guarded', 'workers', '$', 'MKSTREAM');
    await redis.set('guarded:dead', 'a string');
    await redis.xadd('guarded', '*', 'message', 'not json');
    const consumption = consumeEvents(connection(), () => undefined, { stream: 'guarded', group: 'workers', consumer: 'c', deadLetterStream: 'guarded:dead', blockMs: 100 });
    await expect(consumption.closed).rejects.toThrow('redis-streams: deadLetterStream "guarded:dead" holds a string, not a stream');
    expect(consumption.counts.received).toBe(0);
    // The message is still there for a consumer that can store its dead letter.
    expect(await redis.xlen('guarded')).toBe(1);
  }, 30_000);

  it('when storing a dead letter fails while running, leaves the original pending and stops', async () => {
    await redis.xgroup('CREATE', 'swapped', 'workers', '$', 'MKSTREAM');
    await redis.xadd('swapped', '*', 'message', JSON.stringify(valid('A-1')));
    const consumption = consumeEvents(connection(), () => undefined, { stream: 'swapped', group: 'workers', consumer: 'c', deadLetterStream: 'swapped:dead', blockMs: 100, deadLetterAttempts: 2 });
    await until(() => consumption.counts.handled === 1, 'the consumer running');
    await redis.set('swapped:dead', 'not a stream any more');
    const rejected = await redis.xadd('swapped', '*', 'message', 'not json');
    const error = await consumption.closed.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConsumerFailedError);
    expect((error as Error).message).toMatch(/^redis-streams: could not store the dead letter of entry \d+-\d+ of swapped in "swapped:dead" after 2 attempts \(ReplyError: .*WRONGTYPE/);
    const entries = (await redis.xrange('swapped', '-', '+')) as [string, string[]][];
    expect(entries.map(([, fields]) => fields[1])).toEqual([JSON.stringify(valid('A-1')), 'not json']);
    const pending = (await redis.xpending('swapped', 'workers', '-', '+', 10)) as [string, string, number, number][];
    expect(pending.map(([id]) => id)).toEqual([rejected]);
  }, 30_000);

  it('refuses to start without its consumer group, naming the group and the command that creates it', async () => {
    await redis.xadd('groupless', '*', 'message', JSON.stringify(valid('A-1')));
    const consumption = consumeEvents(connection(), () => undefined, { stream: 'groupless', group: 'workers', consumer: 'c', deadLetterStream: 'groupless:dead', blockMs: 100 });
    await expect(consumption.closed).rejects.toThrow('redis-streams: stream "groupless" has no consumer group "workers"; create it once before consuming, from the start of the stream: XGROUP CREATE groupless workers 0 MKSTREAM');
  }, 30_000);

  it('dead-letters an entry without a "message" field with every field it had', async () => {
    await redis.xgroup('CREATE', 'fieldless', 'workers', '$', 'MKSTREAM');
    const id = await redis.xadd('fieldless', '*', 'payload', '{"a":1}', 'source', 'legacy');
    const consumption = consumeEvents(connection(), () => undefined, { stream: 'fieldless', group: 'workers', consumer: 'c', deadLetterStream: 'fieldless:dead', blockMs: 100 });
    await until(() => consumption.counts.deadLettered.malformed_message === 1, 'the dead letter');
    await consumption.stop();
    const [letter] = await deadLetters('fieldless:dead');
    expect(letter).toMatchObject({ message: '', reason: 'malformed_message', original_id: id });
    expect(JSON.parse(letter!.original_fields!)).toEqual([
      ['payload', '{"a":1}'],
      ['source', 'legacy'],
    ]);
  }, 30_000);

  it('a batch that outlives claimIdleMs: each rejected entry dead-lettered once, by whichever consumer owns it', async () => {
    await redis.xgroup('CREATE', 'slow', 'workers', '$', 'MKSTREAM');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await redis.xadd('slow', '*', 'message', JSON.stringify(valid(`A-${i}`))))!);
    const rejected: string[] = [];
    for (let i = 0; i < 5; i++) rejected.push((await redis.xadd('slow', '*', 'message', `not json ${i}`))!);
    const options = { stream: 'slow', group: 'workers', deadLetterStream: 'slow:dead', claimIdleMs: 300, blockMs: 100 };
    const slowHandler = () => new Promise((resolve) => setTimeout(resolve, 100));
    // The first consumer reads all 15 entries in one batch and takes about a second on the valid ones.
    const first = consumeEvents(connection(), slowHandler, { ...options, consumer: 'first' });
    await until(() => first.counts.received >= 1, 'the first batch');
    const second = consumeEvents(connection(), slowHandler, { ...options, consumer: 'second' });
    await until(async () => (await redis.xpending('slow', 'workers'))[0] === 0, 'every entry settled');
    await Promise.all([first.stop(), second.stop()]);
    const letters = await deadLetters('slow:dead');
    expect(letters.map((letter) => letter.original_id).sort()).toEqual([...rejected].sort());
  }, 60_000);

  it('keeps the entries of a slow batch from being claimed while they wait: each handled once', async () => {
    await redis.xgroup('CREATE', 'kept', 'workers', '$', 'MKSTREAM');
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) ids.push((await redis.xadd('kept', '*', 'message', JSON.stringify(valid(`K-${i}`))))!);
    const options = { stream: 'kept', group: 'workers', deadLetterStream: 'kept:dead', claimIdleMs: 300, blockMs: 100 };
    const handled: string[] = [];
    const slowHandler = async (_event: unknown, message: StreamMessage) => {
      handled.push(`${message.id}#${message.deliveries}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    };
    // One batch of 15 entries at 100 ms each: 1.5 s, five times claimIdleMs, with a second consumer looking for idle entries.
    const first = consumeEvents(connection(), slowHandler, { ...options, consumer: 'first' });
    await until(() => handled.length >= 1, 'the first batch');
    const second = consumeEvents(connection(), slowHandler, { ...options, consumer: 'second' });
    await until(async () => (await redis.xpending('kept', 'workers'))[0] === 0, 'every entry settled');
    await Promise.all([first.stop(), second.stop()]);
    expect(handled).toEqual(ids.map((id) => `${id}#1`));
    expect(second.counts.received).toBe(0);
  }, 60_000);

  it('rejects a missing option at once', () => {
    expect(() => consumeEvents(redis, () => undefined, { stream: 's', group: 'g', consumer: '', deadLetterStream: 'd' })).toThrow(/consumer/);
  });
});

describe('replayDeadLetters', () => {
  it('keeps a valid dead letter the consumers would refuse again for its size, and reports it', async () => {
    const emails = Array.from({ length: 90_000 }, (_, i) => `user-${i}@example.com`);
    const large = JSON.stringify({ ...valid('A-1'), payload: { account_number: 'A-1', account_user_emails: emails } });
    expect(large.length).toBeGreaterThan(2 * 1024 * 1024);
    await redis.xadd('big:dead', '*', 'message', large, 'reason', 'malformed_message');
    for (let replay = 0; replay < 2; replay++) {
      expect(await replayDeadLetters(redis, { deadLetterStream: 'big:dead', stream: 'big' })).toEqual({ examined: 1, moved: 0, kept: { too_large: 1 }, movedMessages: [] });
    }
    expect(await redis.xlen('big')).toBe(0);
    expect(await redis.xlen('big:dead')).toBe(1);
    // A consumer that allows more takes it back.
    expect(await replayDeadLetters(redis, { deadLetterStream: 'big:dead', stream: 'big', maxMessageBytes: 4 * 1024 * 1024 })).toMatchObject({ moved: 1 });
  }, 30_000);

  it('adds again what is valid now, keeps the rest, and says what it moved', async () => {
    await redis.xadd('rpl:dead', '*', 'message', JSON.stringify(valid('A-1')), 'reason', 'handler_failed', 'issues', '[]', 'original_id', '1-0', 'deliveries', '5');
    await redis.xadd('rpl:dead', '*', 'message', JSON.stringify({ ...valid('A-2'), version: 'v99' }), 'reason', 'unknown_event_version');
    await redis.xadd('rpl:dead', '*', 'message', 'not json', 'reason', 'malformed_message');
    expect(await replayDeadLetters(redis, { deadLetterStream: 'rpl:dead', stream: 'rpl', dryRun: true })).toMatchObject({ examined: 3, moved: 1 });
    expect(await redis.xlen('rpl')).toBe(0);

    const report = await replayDeadLetters(redis, { deadLetterStream: 'rpl:dead', stream: 'rpl' });
    expect(report).toEqual({
      examined: 3,
      moved: 1,
      kept: { unknown_event_version: 1, malformed_message: 1 },
      movedMessages: [{ deadLetterId: expect.any(String), id: expect.any(String), reason: 'handler_failed' }],
    });
    expect(await redis.xrange('rpl', '-', '+')).toEqual([[report.movedMessages[0]!.id, ['message', JSON.stringify(valid('A-1'))]]]);
    expect(await redis.xlen('rpl:dead')).toBe(2);
  }, 30_000);
});
