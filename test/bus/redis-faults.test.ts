/**
 * The Redis Streams consumer across a real `redis-server` SIGKILLed and started again with its
 * append-only file: it keeps consuming (ioredis reconnects and sends again what was in
 * flight), nothing is lost, and `closed` stays pending until `stop()`.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { consumeEvents, publishEvent } from '../../runtime/redis-streams/index.js';
import { restartableRedisServer } from '../../scripts/local-brokers.js';
import { until } from './until.js';
import type { CatalogEvent } from '../../runtime/index.js';

const valid = (account: string): CatalogEvent => ({ type: 'account.created', version: 'v1', payload: { account_number: account, account_user_emails: [] } });

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
}, 30_000);

describe('consumeEvents under broker faults', () => {
  it('keeps consuming across a redis-server SIGKILLed and started again: nothing lost', async () => {
    const server = await restartableRedisServer();
    cleanup.push(() => server.remove());
    const url = server.url;
    const connection = () => {
      const redis = new Redis(url, { retryStrategy: (times) => Math.min(times * 50, 500) });
      redis.on('error', () => undefined); // each reconnect attempt while the server is down
      cleanup.push(async () => redis.disconnect());
      return redis;
    };
    const producer = connection();
    await until(async () => (await producer.ping().catch(() => '')) === 'PONG', 'the server');
    await producer.xgroup('CREATE', 'events', 'workers', '0', 'MKSTREAM');
    const handled = new Set<string>();
    const consumption = consumeEvents(connection(), (event) => void handled.add((event.payload as { account_number: string }).account_number), {
      stream: 'events',
      group: 'workers',
      consumer: 'one',
      deadLetterStream: 'events:dead',
      claimIdleMs: 2000,
      blockMs: 200,
    });
    for (let i = 0; i < 50; i++) await publishEvent(producer, valid(`A-${i}`), { stream: 'events' });
    await until(() => handled.size === 50, 'the first 50');
    await server.kill();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    server.restart();
    for (let i = 50; i < 100; i++) await publishEvent(producer, valid(`A-${i}`), { stream: 'events', msgId: `A-${i}` });
    await until(() => handled.size === 100, 'every message, after the restart', 40_000);
    let state = 'pending';
    consumption.closed.then(
      () => (state = 'resolved'),
      () => (state = 'rejected'),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(state).toBe('pending');
    await consumption.stop();
    await expect(consumption.closed).resolves.toBeUndefined();
    expect((await producer.xpending('events', 'workers'))[0]).toBe(0);
  }, 90_000);
});
