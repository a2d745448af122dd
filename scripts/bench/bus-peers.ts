/**
 * The loops a user writes without the package, with the broker's client alone: the peers the
 * adapters are measured against in the bus group. Each parses the message, calls the handler
 * and acknowledges it, and nothing more (no validation, no dead letters, no retries).
 *
 * - NATS: nats.js's own `consumer.consume({ max_messages: 100 })` and its iterator, `msg.json()`
 *   (`JSON.parse` of the message's text), the handler, `msg.ack()`.
 * - Redis: `XREADGROUP GROUP <group> <consumer> COUNT 100 BLOCK 100 STREAMS <stream> >`,
 *   `JSON.parse` of each entry's `message` field, the handler, then one `XACK` with every id of
 *   the batch, awaited, and again.
 */
import type { Consumer } from '@nats-io/jetstream';
import type { Redis } from 'ioredis';

/** The handler the bench gives every consumer: it counts. */
export type BenchHandler = (event: unknown, message: unknown) => unknown;

/** Stops a consumer started by the bench; resolves once its loop has ended. */
export type StopConsumer = () => Promise<void>;

export async function consumeWithNatsClient(consumer: Consumer, handler: BenchHandler): Promise<StopConsumer> {
  const messages = await consumer.consume({ max_messages: 100 });
  const loop = (async () => {
    for await (const msg of messages) {
      handler(msg.json(), msg);
      msg.ack();
    }
  })();
  return async () => {
    await messages.close();
    await loop;
  };
}

type ReadGroupReply = [stream: string, entries: [id: string, fields: string[]][]][] | null;

export function consumeWithRedisClient(redis: Redis, handler: BenchHandler, where: { stream: string; group: string; consumer: string }): StopConsumer {
  const { stream, group, consumer } = where;
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const reply = (await redis.xreadgroup('GROUP', group, consumer, 'COUNT', 100, 'BLOCK', 100, 'STREAMS', stream, '>')) as ReadGroupReply;
      const entries = reply?.[0]?.[1] ?? [];
      if (entries.length === 0) continue;
      const ids: string[] = [];
      for (const [id, fields] of entries) {
        handler(JSON.parse(fields[fields.indexOf('message') + 1]!), id);
        ids.push(id);
      }
      await redis.xack(stream, group, ...ids);
    }
  })();
  return async () => {
    stopping = true;
    await loop;
  };
}
