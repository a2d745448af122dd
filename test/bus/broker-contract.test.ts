/**
 * The contract every broker adapter keeps, run against both real brokers (`describe.each`):
 * publishing validates first; each delivered message is handled, retried or dead-lettered as
 * the core decides, counted exactly, and nothing is left unsettled; a slow handler that awaits
 * keeps what it holds from being delivered again; one that blocks the event loop is noticed;
 * `stop()` hands back what waits at once; a consumer whose dead letters cannot be stored
 * refuses to start, or stops loudly, the original kept; replay moves back what is valid now.
 * What only one broker has is tested beside it (nats*.test.ts, redis*.test.ts, consumer-settings.test.ts).
 */
import { AckPolicy, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BusHandler, Consumption, UnknownEventPolicy } from '../../runtime/bus/index.js';
import { EventValidationError, type CatalogEvent } from '../../runtime/index.js';
import * as nats from '../../runtime/nats/index.js';
import * as streams from '../../runtime/redis-streams/index.js';
import { useBothBrokers } from './both-brokers.js';
import { until } from './until.js';

const valid = (account: string): CatalogEvent => ({ type: 'account.created', version: 'v1', payload: { account_number: account, account_user_emails: [] } });
const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const accountOf = (event: CatalogEvent) => (event.payload as { account_number: string }).account_number;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const blockEventLoop = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const settledTotal = (c: Consumption['counts']) => c.handled + c.ignored + Object.values(c.deadLettered).reduce((a, b) => a + b, 0);

/** What a test sets on a consumer, whatever the broker (each lane maps it to the broker's options). */
interface LaneOptions {
  maxDeliver?: number;
  unknown?: UnknownEventPolicy;
  onWarning?: (message: string) => void;
  deadLetterAttempts?: number;
}

interface DeadLetter {
  data: string;
  reason: string;
  issues: { path: string; code: string; message: string }[];
  deliveries: number;
}

/** One stream (subject or key), its dead-letter store and its consumer, on one broker. */
interface Lane {
  /** Adds a message as raw text, around the package. */
  add(message: string): Promise<void>;
  publish(event: CatalogEvent, options?: { msgId?: string; mode?: 'tolerant' | 'strict' }): Promise<unknown>;
  /** The messages stored, in order. */
  stored(): Promise<string[]>;
  /** The handler's second argument gives the delivery number. */
  consume(handler: BusHandler<unknown>, options?: LaneOptions): Promise<Consumption>;
  deliveryOf(message: unknown): number;
  deadLetters(): Promise<DeadLetter[]>;
  /** Messages the broker still holds for the consumer: not yet delivered, or delivered and not acknowledged. */
  unsettled(): Promise<number>;
  /** From now on, a dead letter cannot be stored. */
  breakDeadLetters(): Promise<void>;
  replay(options?: { maxMessageBytes?: number; dryRun?: boolean }): Promise<{ examined: number; moved: number; kept: Record<string, number> }>;
}

interface BrokerUnderTest {
  name: string;
  /** A fresh lane; `redeliveryMs` is the broker's redelivery time (NATS `ack_wait`, Redis `claimIdleMs`). */
  lane(name: string, redeliveryMs?: number): Promise<Lane>;
  /** A lane whose dead letters cannot be stored from the start. */
  laneWithoutDeadLetters(name: string): Promise<Lane>;
  /** How the refusal to start without a dead-letter store names the lane `nodead`'s store. */
  refusal: RegExp;
}

const brokers = useBothBrokers({ jsTimeoutMs: 2000 });
let js: JetStreamClient;
let jsm: JetStreamManager;
const redisConnection = () => brokers.redisConnection();
beforeAll(() => void ({ js, jsm } = brokers));

const NATS: BrokerUnderTest = {
  name: 'NATS JetStream',
  async lane(name, redeliveryMs = 30_000) {
    return natsLane(name, redeliveryMs, true);
  },
  laneWithoutDeadLetters: (name) => natsLane(name, 30_000, false),
  refusal: /^nats: no stream captures the dead-letter subject "nodead-dead\.events"; create one before consuming/,
};

async function natsLane(name: string, redeliveryMs: number, withDeadLetters: boolean): Promise<Lane> {
  const subject = `${name}.events`;
  const dead = `${name}_DEAD`;
  await jsm.streams.add({ name, subjects: [`${name}.>`] });
  if (withDeadLetters) await jsm.streams.add({ name: dead, subjects: [`${name}-dead.>`] });
  await jsm.consumers.add(name, { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: redeliveryMs * 1_000_000 });
  const decoder = new TextDecoder();
  const messagesOf = async (stream: string) => {
    const info = await jsm.streams.info(stream);
    const all = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const stored = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (stored) all.push(stored);
    }
    return all;
  };
  return {
    add: async (message) => void (await js.publish(subject, message)),
    publish: (event, options = {}) => nats.publishEvent(js, event, { subject, ...options }),
    stored: async () => (await messagesOf(name)).map((m) => decoder.decode(m.data)),
    consume: async (handler, options = {}) =>
      nats.consumeEvents(await js.consumers.get(name, 'workers'), handler as BusHandler<JsMsg>, { js, deadLetterSubject: `${name}-dead.events`, backoffMs: 20, ...options }),
    deliveryOf: (message) => (message as JsMsg).info.deliveryCount,
    deadLetters: async () =>
      (await messagesOf(dead)).map((m) => ({
        data: decoder.decode(m.data),
        reason: m.header.get(nats.DEAD_LETTER_HEADERS.reason),
        issues: JSON.parse(m.header.get(nats.DEAD_LETTER_HEADERS.issues) || '[]') as DeadLetter['issues'],
        deliveries: Number(m.header.get(nats.DEAD_LETTER_HEADERS.deliveries)),
      })),
    unsettled: async () => {
      const info = await jsm.consumers.info(name, 'workers');
      return info.num_pending + info.num_ack_pending;
    },
    breakDeadLetters: async () => void (await jsm.streams.delete(dead)),
    replay: (options = {}) => nats.replayDeadLetters(jsm, { stream: dead, ...options }),
  };
}

const REDIS: BrokerUnderTest = {
  name: 'Redis Streams',
  lane: (name, redeliveryMs = 30_000) => redisLane(name, redeliveryMs, true),
  laneWithoutDeadLetters: (name) => redisLane(name, 30_000, false),
  refusal: /^redis-streams: deadLetterStream "nodead:dead" holds a string, not a stream/,
};

async function redisLane(name: string, redeliveryMs: number, withDeadLetters: boolean): Promise<Lane> {
  const redis = redisConnection();
  const dead = `${name}:dead`;
  await redis.xgroup('CREATE', name, 'workers', '0', 'MKSTREAM');
  // A key that is not a stream: no dead letter can be stored there.
  if (!withDeadLetters) await redis.set(dead, 'not a stream');
  let consumers = 0;
  const entriesOf = async (stream: string) => ((await redis.xrange(stream, '-', '+')) as [string, string[]][]).map(([, flat]) => Object.fromEntries(Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]])) as Record<string, string>);
  return {
    add: async (message) => void (await redis.xadd(name, '*', 'message', message)),
    publish: (event, options = {}) => streams.publishEvent(redis, event, { stream: name, ...options }),
    stored: async () => (await entriesOf(name)).map((fields) => fields.message!),
    consume: async (handler, options = {}) =>
      streams.consumeEvents(redisConnection(), handler as BusHandler<streams.StreamMessage>, {
        stream: name, group: 'workers', consumer: `c${++consumers}`, deadLetterStream: dead, claimIdleMs: redeliveryMs, blockMs: 100, ...options,
      }),
    deliveryOf: (message) => (message as streams.StreamMessage).deliveries,
    deadLetters: async () =>
      (await entriesOf(dead)).map((fields) => ({ data: fields.message!, reason: fields.reason!, issues: JSON.parse(fields.issues!) as DeadLetter['issues'], deliveries: Number(fields.deliveries) })),
    unsettled: async () => {
      const [pending] = (await redis.xpending(name, 'workers')) as [number];
      const group = ((await redis.call('XINFO', 'GROUPS', name)) as unknown[][]).find((fields) => fields[fields.indexOf('name') + 1] === 'workers')!;
      return pending + Number(group[group.indexOf('lag') + 1]);
    },
    breakDeadLetters: async () => void (await redis.set(dead, 'not a stream any more')),
    replay: (options = {}) => streams.replayDeadLetters(redis, { deadLetterStream: dead, stream: name, ...options }),
  };
}

describe.each([NATS, REDIS])('$name', (broker) => {
  describe('publishEvent', () => {
    it('publishes a valid event as its JSON, and refuses an invalid one with its EventError, adding nothing', async () => {
      const lane = await broker.lane('pub');
      await lane.publish(valid('A-1'));
      // Not a catalog event (the type says so): what run-time validation is there for.
      const extra = { ...valid('A-2'), payload: { ...valid('A-2').payload, nickname: 'x' } } as unknown as CatalogEvent;
      const rejected = await lane.publish(extra).catch((error: unknown) => error);
      expect(rejected).toBeInstanceOf(EventValidationError);
      expect((rejected as EventValidationError).error).toMatchObject({ code: 'invalid_payload', issues: [{ path: '/payload/nickname', code: 'additional_property' }] });
      await expect(lane.publish({ type: 'nope', version: 'v1', payload: {} } as unknown as CatalogEvent)).rejects.toMatchObject({ error: { code: 'unknown_event_type' } });
      expect(await lane.stored()).toEqual([JSON.stringify(valid('A-1'))]);
      // Strict by default; tolerant on request.
      await lane.publish(extra, { mode: 'tolerant' });
      expect(await lane.stored()).toEqual([JSON.stringify(valid('A-1')), JSON.stringify(extra)]);
    }, 30_000);

    it('stores a publish retried with the same msgId once', async () => {
      const lane = await broker.lane('once');
      await lane.publish(valid('A-1'), { msgId: 'account.created:A-1' });
      await lane.publish(valid('A-1'), { msgId: 'account.created:A-1' });
      await lane.publish(valid('A-2'), { msgId: 'account.created:A-2' });
      expect(await lane.stored()).toEqual([JSON.stringify(valid('A-1')), JSON.stringify(valid('A-2'))]);
    }, 30_000);
  });

  describe('consumeEvents', () => {
    // A handler that returns a plain value is settled without an await; one that returns a promise, once it settles.
    it.each([
      ['returns a plain value', 'mix', (work: () => void) => work()],
      ['returns a promise', 'mixasync', async (work: () => void) => {
        await sleep(1);
        work();
      }],
    ])('handles, retries and dead-letters each message as the core decides, counted exactly, nothing left unsettled (a handler that %s)', async (_kind, name, run) => {
      const lane = await broker.lane(name, 300);
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
      for (const message of inputs) await lane.add(text(message));
      const handled: string[] = [];
      let flaky = 0;
      const consumption = await lane.consume(
        (event, message) =>
          run(() => {
            const account = accountOf(event);
            if (account === 'BROKEN') throw new Error('database down');
            if (account === 'FLAKY' && flaky++ === 0) throw new Error('timeout');
            handled.push(`${account}@${lane.deliveryOf(message)}`);
          }),
        { maxDeliver: 3 },
      );
      await until(() => settledTotal(consumption.counts) === 8, 'every message settled');
      await consumption.stop();
      await expect(consumption.closed).resolves.toBeUndefined();

      expect(handled.sort()).toEqual(['A-1@1', 'A-2@1', 'FLAKY@2']);
      expect(consumption.counts).toEqual({
        received: 11,
        handled: 3,
        ignored: 0,
        retried: 3,
        deadLettered: { malformed_message: 1, invalid_payload: 1, unknown_event_type: 1, unknown_event_version: 1, handler_failed: 1 },
        // A loaded machine may hold the event loop past a third of the redelivery time: counted, not asserted.
        stalls: expect.any(Number),
      });
      const letters = await lane.deadLetters();
      expect(letters.map((l) => [l.reason, l.deliveries])).toEqual([
        ['invalid_payload', 1],
        ['malformed_message', 1],
        ['unknown_event_type', 1],
        ['unknown_event_version', 1],
        ['handler_failed', 3],
      ]);
      // The original bytes, and the reason's issues.
      expect(letters[1]!.data).toBe('{"type": "account.created",');
      expect(letters[0]!.issues).toEqual([{ path: '/payload/account_number', code: 'required', message: expect.any(String) }]);
      expect(letters[4]!.issues).toEqual([{ path: '', code: 'handler_error', message: 'Error: database down' }]);
      expect(letters[4]!.data).toBe(JSON.stringify(valid('BROKEN')));
      expect(await lane.unsettled()).toBe(0);
    }, 60_000);

    it("unknown: 'ack' acknowledges unknown events without a dead letter", async () => {
      const lane = await broker.lane('unknown');
      await lane.add(text({ ...valid('A'), version: 'v99' }));
      const consumption = await lane.consume(() => undefined, { unknown: 'ack' });
      await until(() => consumption.counts.received === 1, 'one message');
      await consumption.stop();
      expect(consumption.counts).toMatchObject({ received: 1, ignored: 1 });
      expect(await lane.deadLetters()).toEqual([]);
      expect(await lane.unsettled()).toBe(0);
    }, 30_000);

    it('keeps what a slow handler holds from being delivered again: 120 messages of 25 ms behind a 1 s redelivery time, each handled once', async () => {
      const lane = await broker.lane('slow', 1000);
      for (let i = 0; i < 120; i++) await lane.add(text(valid(`Q-${i}`)));
      const handled: string[] = [];
      const consumption = await lane.consume(async (event, message) => {
        handled.push(`${accountOf(event)}#${lane.deliveryOf(message)}`);
        await sleep(25);
      });
      await until(() => consumption.counts.handled === 120, 'every message handled', 30_000);
      // Long enough for a redelivery to arrive, had the broker given up on a held message.
      await sleep(1500);
      await consumption.stop();
      expect(handled).toEqual(Array.from({ length: 120 }, (_, i) => `Q-${i}#1`));
      expect(consumption.counts).toMatchObject({ received: 120, handled: 120, retried: 0 });
      expect(await lane.unsettled()).toBe(0);
    }, 60_000);

    it('keeps one handler that outlasts the redelivery time alive: its message delivered once', async () => {
      const lane = await broker.lane('long', 1000);
      await lane.add(text(valid('SLOW')));
      const deliveries: number[] = [];
      const consumption = await lane.consume(async (_event, message) => {
        deliveries.push(lane.deliveryOf(message));
        await sleep(2500);
      });
      await until(() => consumption.counts.handled === 1, 'the slow message handled');
      await sleep(1500);
      await consumption.stop();
      expect(deliveries).toEqual([1]);
      expect(await lane.unsettled()).toBe(0);
    }, 60_000);

    it('stop() hands back what waits behind a slow handler at once, finishes the handler, and resolves within its time plus 2 s', async () => {
      // A 30 s redelivery time: anything not handed back would wait that long for the next consumer.
      const HANDLER_MS = 1500;
      const lane = await broker.lane('stopped');
      for (let i = 0; i < 30; i++) await lane.add(text(valid(`A-${i}`)));
      const first: string[] = [];
      const slow = await lane.consume(async (event) => {
        first.push(accountOf(event));
        await sleep(HANDLER_MS);
      });
      await until(() => first.length === 1, 'the first handler running');
      // Give the consumer time to take in the rest behind it.
      await sleep(200);
      const began = performance.now();
      await slow.stop();
      expect(performance.now() - began).toBeLessThan(HANDLER_MS + 2000);
      expect(slow.counts).toMatchObject({ received: 1, handled: 1 });

      const second: string[] = [];
      const handedBackAt = performance.now();
      const next = await lane.consume((event) => void second.push(accountOf(event)));
      await until(() => second.length === 29, 'the other 29 at the next consumer', 10_000);
      expect(performance.now() - handedBackAt).toBeLessThan(5000);
      await next.stop();
      expect([...first, ...second].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `A-${i}`).sort());
      expect(await lane.unsettled()).toBe(0);
    }, 60_000);

    it('a handler that blocks the event loop past the redelivery time is noticed, said once through onWarning, and counted', async () => {
      const lane = await broker.lane('blocked', 600);
      const onWarning = vi.fn();
      const consumption = await lane.consume(() => blockEventLoop(900), { onWarning });
      for (const round of [1, 2]) {
        await lane.add(text(valid(`A-${round}`)));
        await until(() => consumption.counts.stalls >= round, `stall ${round}`, 30_000);
      }
      await consumption.stop();
      expect(onWarning).toHaveBeenCalledTimes(1);
      expect(onWarning.mock.calls[0]![0]).toMatch(/^event-catalog consumer: the event loop was blocked for about \d+ ms.* \(600 ms\) may be delivered again/);
    }, 60_000);

    it('refuses to start when its dead letters could not be stored: closed rejects with a ConsumerFailedError, nothing taken', async () => {
      const lane = await broker.laneWithoutDeadLetters('nodead');
      await lane.add(text(valid('A-1')));
      const handler = vi.fn();
      const consumption = await lane.consume(handler);
      const error = await consumption.closed.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConsumerFailedError);
      expect((error as Error).message).toMatch(broker.refusal);
      expect(handler).not.toHaveBeenCalled();
      expect(await lane.unsettled()).toBe(1);
    }, 30_000);

    it('stops, closed rejected, after a bounded number of attempts when a dead letter cannot be stored mid-run; the original is kept', async () => {
      const lane = await broker.lane('broken');
      const consumption = await lane.consume(() => undefined, { deadLetterAttempts: 2 });
      await lane.add(text(valid('A-1')));
      await until(() => consumption.counts.handled === 1, 'the consumer running');
      await lane.breakDeadLetters();
      await lane.add('not json');
      const error = await consumption.closed.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConsumerFailedError);
      expect((error as Error).message).toMatch(/could not store the dead letter of .* after 2 attempts .*the original is left unacknowledged/);
      expect(await lane.unsettled()).toBe(1);
      expect(await lane.stored()).toEqual([JSON.stringify(valid('A-1')), 'not json']);
    }, 60_000);
  });

  describe('replayDeadLetters', () => {
    it('moves back what is valid now, keeps the rest by reason (too large for the consumers too), and a second replay moves nothing', async () => {
      const lane = await broker.lane('replay', 300);
      const big = valid(`B-${'x'.repeat(2000)}`);
      for (const message of [valid('A-1'), { ...valid('A-2'), version: 'v99' }, 'not json', big]) await lane.add(text(message));
      // Every message the handler accepts fails once (maxDeliver 1): dead-lettered with the rest.
      const failing = await lane.consume(() => {
        throw new Error('handler bug');
      }, { maxDeliver: 1 });
      await until(() => settledTotal(failing.counts) === 4, 'four dead letters');
      await failing.stop();

      // A dry run says what would move, and moves nothing.
      expect(await lane.replay({ maxMessageBytes: 1024, dryRun: true })).toMatchObject({ examined: 4, moved: 1, kept: { unknown_event_version: 1, malformed_message: 1, too_large: 1 } });
      expect(await lane.deadLetters()).toHaveLength(4);
      expect(await lane.replay({ maxMessageBytes: 1024 })).toMatchObject({ examined: 4, moved: 1, kept: { unknown_event_version: 1, malformed_message: 1, too_large: 1 } });
      expect(await lane.replay({ maxMessageBytes: 1024 })).toMatchObject({ examined: 3, moved: 0 });
      expect((await lane.deadLetters()).map((l) => l.reason)).toEqual(['unknown_event_version', 'malformed_message', 'handler_failed']);
      // Back where consumers read it, after the originals.
      expect((await lane.stored()).slice(4)).toEqual([JSON.stringify(valid('A-1'))]);
    }, 60_000);
  });

  it('rejects a bad option at once, naming it, before any broker call', async () => {
    const lane = await broker.lane('options');
    const consume = (options: Record<string, unknown>) => lane.consume(() => undefined, options as LaneOptions);
    await expect(consume({ maxDeliver: 0 })).rejects.toThrow(/maxDeliver must be a positive integer/);
    await expect(consume({ deadLetterAttempts: 1.5 })).rejects.toThrow(/deadLetterAttempts must be a positive integer/);
    await expect(consume({ onWarning: 'log' })).rejects.toThrow(/onWarning must be a function/);
  }, 30_000);
});

const ConsumerFailedError = nats.ConsumerFailedError;
