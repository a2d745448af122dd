/**
 * No message lost to a consumer's own settings, where only one broker has the setting (the
 * cases both share, `stop()` and a blocked event loop among them, are in
 * `broker-contract.test.ts`): a NATS consumer whose `max_deliver` would drop messages refuses
 * to start; NATS never holds more than `maxMessages` unacknowledged; a Redis dead letter keeps
 * every field of its entry, byte for byte, and replay writes the entry back as it was; a NATS
 * replay reads only what the dead-letter stream holds, however long its history.
 */
import { AckPolicy, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CatalogEvent } from '../../runtime/index.js';
import { consumeEvents as consumeNats, ConsumerFailedError, replayDeadLetters as replayNats } from '../../runtime/nats/index.js';
import { consumeEvents as consumeRedis, replayDeadLetters as replayRedis } from '../../runtime/redis-streams/index.js';
import type { RunningBroker } from '../../scripts/local-brokers.js';
import { useBothBrokers } from './both-brokers.js';
import { until } from './until.js';

const valid = (account: string): CatalogEvent => ({ type: 'account.created', version: 'v1', payload: { account_number: account, account_user_emails: [] } });
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const brokers = useBothBrokers();
let natsServer: RunningBroker;
let js: JetStreamClient;
let jsm: JetStreamManager;
const redisConnection = () => brokers.redisConnection();
beforeAll(() => void ({ nats: natsServer, js, jsm } = brokers));

/** A stream `name`, its dead-letter stream, and a durable consumer `workers` with the given settings. */
async function natsStreams(name: string, consumer: { ackWaitMs?: number; maxDeliver?: number } = {}) {
  await jsm.streams.add({ name, subjects: [`${name}.>`] });
  await jsm.streams.add({ name: `${name}_DEAD`, subjects: [`${name}-dead.>`] });
  await jsm.consumers.add(name, {
    durable_name: 'workers',
    ack_policy: AckPolicy.Explicit,
    ack_wait: (consumer.ackWaitMs ?? 30_000) * 1_000_000,
    ...(consumer.maxDeliver !== undefined && { max_deliver: consumer.maxDeliver }),
  });
  return { consumer: await js.consumers.get(name, 'workers'), deadLetterSubject: `${name}-dead.events` };
}

describe('NATS: a max_deliver that would drop messages', () => {
  it.each([3, 5])('refuses to start when the consumer has max_deliver %i and maxDeliver is 5, naming both numbers', async (serverLimit) => {
    const name = `MAXDEL${serverLimit}`;
    const { consumer, deadLetterSubject } = await natsStreams(name, { maxDeliver: serverLimit });
    await js.publish(`${name}.events`, encode(valid('A-1')));
    const handler = vi.fn();
    const consumption = consumeNats(consumer, handler, { js, deadLetterSubject, maxDeliver: 5 });
    const error = await consumption.closed.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConsumerFailedError);
    expect((error as Error).message).toContain(`has max_deliver ${serverLimit}, not above maxDeliver 5`);
    // Nothing was taken: the message waits for a consumer that can dead-letter it.
    expect(handler).not.toHaveBeenCalled();
    expect(await consumer.info()).toMatchObject({ num_pending: 1, num_ack_pending: 0 });
  }, 30_000);

  it('with max_deliver above maxDeliver, every message whose handler keeps failing ends as a dead letter: none lost', async () => {
    const { consumer, deadLetterSubject } = await natsStreams('MAXDEL6', { maxDeliver: 6 });
    for (let i = 0; i < 20; i++) await js.publish('MAXDEL6.events', encode(valid(`A-${i}`)));
    const consumption = consumeNats(
      consumer,
      () => {
        throw new Error('always');
      },
      { js, deadLetterSubject, maxDeliver: 5, backoffMs: 5 },
    );
    await until(() => consumption.counts.deadLettered.handler_failed === 20, 'twenty dead letters', 30_000);
    await consumption.stop();
    expect((await jsm.streams.info('MAXDEL6_DEAD')).state.messages).toBe(20);
    expect(await consumer.info()).toMatchObject({ num_pending: 0, num_ack_pending: 0, num_redelivered: 0 });
  }, 60_000);
});

describe('NATS: maxMessages', () => {
  it('never holds more than maxMessages unacknowledged: counted at every pull while 600 messages go through, and sampled on the server', async () => {
    const { consumer, deadLetterSubject } = await natsStreams('BOUND');
    await Promise.all(Array.from({ length: 600 }, (_, i) => js.publish('BOUND.events', encode(valid(`A-${i}`)))));
    const maxMessages = 20;
    // What the consumer holds, seen from outside: asked for and not yet delivered, or delivered and not yet settled.
    let held = 0;
    let mostHeld = 0;
    const settleOnce = (msg: JsMsg) => {
      let settled = false;
      for (const method of ['ack', 'nak', 'term', 'ackAck'] as const) {
        const original = msg[method].bind(msg) as (...args: unknown[]) => unknown;
        (msg as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
          if (!settled) held -= 1;
          settled = true;
          return original(...args);
        };
      }
    };
    const fetch = consumer.fetch.bind(consumer);
    consumer.fetch = async (options) => {
      const asked = options?.max_messages ?? 0;
      held += asked;
      mostHeld = Math.max(mostHeld, held);
      const batch = await fetch(options);
      return new Proxy(batch, {
        get(target, property) {
          if (property !== Symbol.asyncIterator) {
            const value = Reflect.get(target, property, target) as unknown;
            return typeof value === 'function' ? value.bind(target) : value;
          }
          return async function* () {
            let delivered = 0;
            try {
              for await (const msg of target) {
                delivered += 1;
                settleOnce(msg);
                yield msg;
              }
            } finally {
              // What the pull did not bring is no longer asked for.
              held -= asked - delivered;
            }
          };
        },
      });
    };
    let handled = 0;
    const consumption = consumeNats(
      consumer,
      async () => {
        await sleep(1);
        handled += 1;
      },
      { js, deadLetterSubject, maxMessages },
    );
    let mostPending = 0;
    let samples = 0;
    while (handled < 600) {
      const info = await consumer.info();
      mostPending = Math.max(mostPending, info.num_ack_pending);
      samples += 1;
    }
    await consumption.stop();
    expect(consumption.counts.handled).toBe(600);
    expect(mostHeld).toBeGreaterThan(maxMessages / 2);
    expect(mostHeld).toBeLessThanOrEqual(maxMessages);
    // The server counts an ack only once it has processed it, apart from the pull requests behind it:
    // its own count may run ahead of the consumer's by the acks in flight, at most one pull's batch.
    expect(samples).toBeGreaterThan(20);
    expect(mostPending).toBeGreaterThan(0);
    expect(mostPending).toBeLessThanOrEqual(maxMessages + Math.ceil(maxMessages / 4));
  }, 60_000);
});

describe('Redis: a dead letter keeps its entry byte for byte', () => {
  it('keeps every field (other names, bytes that are not UTF-8, a name repeated) and replay writes the entry back as it was', async () => {
    const redis = redisConnection();
    await redis.xgroup('CREATE', 'kept-fields', 'workers', '0', 'MKSTREAM');
    const notUtf8 = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    const original: Buffer[] = [
      Buffer.from('trace_id'), Buffer.from('4bf92f3577b34da6'),
      Buffer.from('message'), Buffer.from(JSON.stringify(valid('A-1'))),
      Buffer.from('source'), Buffer.from('legacy'),
      Buffer.from([0xc3, 0x28]), notUtf8,
      Buffer.from('source'), Buffer.from('again'),
    ];
    await redis.xadd('kept-fields', '*', ...original);
    // The handler fails once, on its only delivery: dead-lettered as handler_failed.
    const consumption = consumeRedis(redisConnection(), () => {
      throw new Error('handler bug');
    }, { stream: 'kept-fields', group: 'workers', consumer: 'c', deadLetterStream: 'kept-fields:dead', maxDeliver: 1, blockMs: 100 });
    await until(() => consumption.counts.deadLettered.handler_failed === 1, 'the dead letter');
    await consumption.stop();

    const [letter] = ((await redis.callBuffer('XRANGE', 'kept-fields:dead', '-', '+')) as [Buffer, Buffer[]][]).map(([, fields]) => fields);
    const field = (name: string): Buffer => letter![letter!.findIndex((value: Buffer, i: number) => i % 2 === 0 && value.toString() === name) + 1]!;
    expect(field('message')).toEqual(original[3]);
    expect(JSON.parse(field('original_fields').toString())).toEqual([
      ['trace_id', '4bf92f3577b34da6'],
      ['message', null],
      ['source', 'legacy'],
      [{ base64: Buffer.from([0xc3, 0x28]).toString('base64') }, { base64: notUtf8.toString('base64') }],
      ['source', 'again'],
    ]);

    // After the fix, replay writes the entry back to the stream: every field, in order, byte for byte.
    expect(await replayRedis(redis, { deadLetterStream: 'kept-fields:dead', stream: 'replayed' })).toMatchObject({ moved: 1 });
    const restored = ((await redis.callBuffer('XRANGE', 'replayed', '-', '+')) as [Buffer, Buffer[]][]).map(([, fields]) => fields);
    expect(restored).toEqual([original]);
  }, 30_000);
});

describe('NATS: replay reads what the dead-letter stream holds, not its history', () => {
  it('examines 3 dead letters left among 2,000 sequences with one read, no per-sequence lookups', async () => {
    await jsm.streams.add({ name: 'LONG_DEAD', subjects: ['long-dead.>'] });
    const h = (await import('@nats-io/transport-node')).headers;
    const letter = () => {
      const headers = h();
      headers.set('Catalog-Reason', 'handler_failed');
      headers.set('Catalog-Subject', 'long.events');
      return { headers };
    };
    for (let i = 0; i < 2000; i += 200) await Promise.all(Array.from({ length: 200 }, (_, j) => js.publish('long-dead.events', encode(valid(`A-${i + j}`)), letter())));
    const keep = new Set([700, 1300, 1999]);
    for (let seq = 1; seq <= 2000; seq += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => seq + j).filter((s) => !keep.has(s)).map((s) => jsm.streams.deleteMessage('LONG_DEAD', s, false)));
    }
    expect((await jsm.streams.info('LONG_DEAD')).state).toMatchObject({ messages: 3, last_seq: 2000 });

    // Every JetStream API request the replay makes, seen on the wire.
    const watcher = await connect({ servers: natsServer.url });
    const requests: string[] = [];
    const sub = watcher.subscribe('$JS.API.>', { callback: (_error, msg) => void requests.push(msg.subject) });
    await watcher.flush();
    const report = await replayNats(jsm, { stream: 'LONG_DEAD', dryRun: true });
    await watcher.flush();
    sub.unsubscribe();
    await watcher.close();

    expect(report).toMatchObject({ examined: 3, moved: 3 });
    expect(requests.filter((subject) => subject.startsWith('$JS.API.STREAM.MSG.GET'))).toEqual([]);
    expect(requests.filter((subject) => subject.startsWith('$JS.API.CONSUMER.MSG.NEXT')).length).toBeLessThanOrEqual(2);
    expect(requests.length).toBeLessThan(10);
  }, 60_000);
});
