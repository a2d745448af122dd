/**
 * A real `nats-server` and `redis-server` for one test file, started before its tests and
 * stopped after them, with a NATS connection (JetStream client and manager) and Redis
 * connections made on demand, each closed at the end.
 */
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startNatsServer, startRedisServer, type RunningBroker } from '../../scripts/local-brokers.js';

export interface BothBrokers {
  readonly nats: RunningBroker;
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly redis: RunningBroker;
  /** A new Redis connection (one command retried at most once), closed after the file's tests. */
  redisConnection(): Redis;
}

/** Registers the file's `beforeAll` and `afterAll`; read the fields inside tests, once the brokers run. */
export function useBothBrokers(options: { jsTimeoutMs?: number } = {}): BothBrokers {
  const connections: Redis[] = [];
  const brokers = {
    redisConnection() {
      const c = new Redis(brokers.redis.url, { maxRetriesPerRequest: 1 });
      connections.push(c);
      return c;
    },
  } as BothBrokers & { nats: RunningBroker; nc: NatsConnection; js: JetStreamClient; jsm: JetStreamManager; redis: RunningBroker };
  beforeAll(async () => {
    [brokers.nats, brokers.redis] = await Promise.all([startNatsServer(), startRedisServer()]);
    brokers.nc = await connect({ servers: brokers.nats.url });
    brokers.js = jetstream(brokers.nc, options.jsTimeoutMs === undefined ? {} : { timeout: options.jsTimeoutMs });
    brokers.jsm = await jetstreamManager(brokers.nc);
  }, 60_000);
  afterAll(async () => {
    await brokers.nc?.close();
    await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
    await Promise.all([brokers.nats?.stop(), brokers.redis?.stop()]);
  }, 60_000);
  return brokers;
}
