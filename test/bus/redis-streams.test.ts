/**
 * What only the Redis Streams adapter has, against a real `redis-server` (Debian's 7.0): the
 * `message` field and its duplicate window, a dead consumer's entries taken over, the group
 * required, an entry without a message, a batch outliving `claimIdleMs` with two consumers.
 * The contract both adapters keep is `broker-contract.test.ts`.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogEvent } from '../../runtime/index.js';
import { consumeEvents, publishEvent, type StreamMessage } from '../../runtime/redis-streams/index.js';
import { startRedisServer, type RunningBroker } from '../../scripts/local-brokers.js';
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
});

describe('consumeEvents', () => {
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

  it('rejects a missing option at once', () => {
    expect(() => consumeEvents(redis, () => undefined, { stream: 's', group: 'g', consumer: '', deadLetterStream: 'd' })).toThrow(/consumer/);
  });
});
