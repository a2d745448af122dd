/**
 * One measured run of the bus group, in a process of its own:
 * `node --import <opentelemetry-hook.mjs> bus-run.mjs <job.json> <result.json>`.
 *
 * The process loads one variant only (the hand-written loop, the adapter of the working tree,
 * or the adapter at `BEFORE_COMMIT`; with or without OpenTelemetry), warms up, then times one
 * round on each broker it is given, one broker after the other: consuming every stored message
 * with a consumer of its own (from its start until the handler has seen every message), or
 * publishing them all with `publishEvent`. Warm-up: the adapter's own checks called
 * `warmupChecksPerEvent` times per event version on the stored messages, once for both brokers
 * (the engine compiles an event's checks only after thousands of calls, and the rarest events
 * come a few times per round, so rounds alone would take millions of messages to get there),
 * then on each broker `warmupRounds` untimed rounds, as the timed one.
 * Each round checks what it did (every message handled once, or stored; with tracing, one
 * span and one count per message) and the run fails otherwise.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { AckPolicy, jetstream, jetstreamManager, type Consumer, type JetStreamClient } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { consumeWithNatsClient, consumeWithRedisClient, type BenchHandler, type StopConsumer } from './bus-peers.js';
import type { RegisteredTracing } from './bus-tracing.js';
import {
  NATS_DEAD_LETTER_SUBJECT,
  NATS_PUBLISH_STREAM,
  NATS_STREAM,
  REDIS_DEAD_LETTER_STREAM,
  REDIS_PUBLISH_STREAM,
  REDIS_STREAM,
  variant,
  type BrokerRun,
  type BusRunJob,
  type BusRunResult,
  type BusVariant,
} from './bus-variants.js';

/** What the run needs of an adapter bundle (the working tree's or `BEFORE_COMMIT`'s): the same names in both. */
interface Consumption {
  counts: { handled: number; received: number };
  closed: Promise<unknown>;
  stop(): Promise<unknown>;
}
interface AdapterModule {
  consumeNats(consumer: Consumer, handler: BenchHandler, options: { js: JetStreamClient; deadLetterSubject: string }): Consumption;
  publishNats(js: JetStreamClient, event: unknown): Promise<unknown>;
  consumeRedis(redis: Redis, handler: BenchHandler, options: { stream: string; group: string; consumer: string; deadLetterStream: string; blockMs: number }): Consumption;
  publishRedis(redis: Redis, event: unknown, options: { stream: string }): Promise<unknown>;
  decodeEvent(raw: Uint8Array, options: { mode: 'tolerant' }): { ok: boolean };
  validateEvent(event: unknown, options: { mode: 'strict' }): { ok: boolean };
}

/** Starts a consumer at a place with the round's counting handler; says how to stop it, and when it ends on its own. */
type StartConsumer = (place: ConsumerPlace, handler: BenchHandler) => Promise<StartedConsumer>;
interface StartedConsumer {
  stop: StopConsumer;
  /** Settles if the consumer ends without `stop()` (it failed). */
  closed?: Promise<unknown>;
}

/** The rounds on one broker, each checked: every message handled once, or stored. */
interface BrokerSide {
  /** Consumes every stored message with a consumer (NATS) or group (Redis) of its own, created before and removed after the timing. */
  consumeRound(start: StartConsumer): Promise<Timing>;
  /** Publishes every event with the adapter's `publishEvent`, `batch` at a time. */
  publishRound(adapter: AdapterModule, events: unknown[], batch: number): Promise<Timing>;
  close(): Promise<void>;
}

type ConsumerPlace = { broker: 'nats'; consumer: Consumer; js: JetStreamClient } | { broker: 'redis'; redis: Redis; group: string };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A round's wall time, and the CPU time this process used meanwhile (user and system). */
interface Timing {
  ms: number;
  cpuMs: number;
}

/** Starts timing; the function returned reads the time since. */
function stopwatch(): () => Timing {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - wall, cpuMs: (used.user + used.system) / 1000 };
  };
}

/** Longest a round may take before the run gives up: far beyond any healthy round. */
const ROUND_LIMIT_MS = 120_000;

/**
 * Times one consumer from its start until the handler has seen `count` messages, then stops
 * it and checks that no message came twice.
 */
async function timeConsumer(count: number, start: (handler: BenchHandler) => Promise<StartedConsumer>): Promise<Timing> {
  let handled = 0;
  let allHandled!: () => void;
  const done = new Promise<void>((resolve) => (allHandled = resolve));
  const elapsed = stopwatch();
  const consumer = await start(() => {
    if (++handled === count) allHandled();
  });
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`bus run: ${handled} of ${count} messages handled after ${ROUND_LIMIT_MS} ms`)), ROUND_LIMIT_MS);
  });
  // A consumer that ends on its own (it failed) ends the round with its reason.
  const ended = consumer.closed?.then(() => {
    throw new Error(`bus run: the consumer ended after ${handled} of ${count} messages`);
  });
  try {
    await Promise.race([done, limit, ...(ended ? [ended] : [])]);
  } finally {
    clearTimeout(timer);
  }
  const timing = elapsed();
  await consumer.stop();
  if (handled !== count) throw new Error(`bus run: the handler saw ${handled} messages, ${count} were stored`);
  return timing;
}

async function natsSide(url: string, runId: string, count: number): Promise<BrokerSide> {
  const nc = await connect({ servers: url });
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc);
  let round = 0;
  return {
    async consumeRound(start) {
      const name = `${runId}-${round++}`;
      await jsm.consumers.add(NATS_STREAM, { durable_name: name, ack_policy: AckPolicy.Explicit });
      const consumer = await js.consumers.get(NATS_STREAM, name);
      const timing = await timeConsumer(count, (handler) => start({ broker: 'nats', consumer, js }, handler));
      // The server takes acks in on its own time: a moment after the last one was sent, none may remain.
      let info = await jsm.consumers.info(NATS_STREAM, name);
      for (const deadline = Date.now() + 5000; info.num_ack_pending + info.num_pending > 0 && Date.now() < deadline; info = await jsm.consumers.info(NATS_STREAM, name)) await sleep(20);
      if (info.num_ack_pending !== 0 || info.num_pending !== 0) throw new Error(`bus run: consumer ${name} left ${info.num_ack_pending} unacknowledged and ${info.num_pending} unread`);
      await jsm.consumers.delete(NATS_STREAM, name);
      return timing;
    },
    async publishRound(adapter, events, batch) {
      const timing = await timePublish(events, (event) => adapter.publishNats(js, event), batch);
      const stored = (await jsm.streams.info(NATS_PUBLISH_STREAM)).state.messages;
      if (stored !== events.length) throw new Error(`bus run: ${stored} messages stored of ${events.length} published`);
      await jsm.streams.purge(NATS_PUBLISH_STREAM);
      return timing;
    },
    async close() {
      await nc.close();
    },
  };
}

async function redisSide(url: string, runId: string, count: number): Promise<BrokerSide> {
  // Reads block their connection: the consumer gets one of its own.
  const admin = new Redis(url);
  const reader = new Redis(url);
  let round = 0;
  return {
    async consumeRound(start) {
      const group = `${runId}-${round++}`;
      await admin.xgroup('CREATE', REDIS_STREAM, group, '0');
      const timing = await timeConsumer(count, (handler) => start({ broker: 'redis', redis: reader, group }, handler));
      const [pending] = (await admin.xpending(REDIS_STREAM, group)) as [number];
      if (pending !== 0) throw new Error(`bus run: group ${group} left ${pending} entries pending`);
      await admin.xgroup('DESTROY', REDIS_STREAM, group);
      return timing;
    },
    async publishRound(adapter, events, batch) {
      const timing = await timePublish(events, (event) => adapter.publishRedis(admin, event, { stream: REDIS_PUBLISH_STREAM }), batch);
      const stored = await admin.xlen(REDIS_PUBLISH_STREAM);
      if (stored !== events.length) throw new Error(`bus run: ${stored} entries stored of ${events.length} published`);
      await admin.del(REDIS_PUBLISH_STREAM);
      return timing;
    },
    async close() {
      reader.disconnect();
      admin.disconnect();
    },
  };
}

/** Publishes every event, `batch` at a time, each batch awaited before the next. */
async function timePublish(events: unknown[], publish: (event: unknown) => Promise<unknown>, batch: number): Promise<Timing> {
  const elapsed = stopwatch();
  for (let i = 0; i < events.length; i += batch) await Promise.all(events.slice(i, i + batch).map(publish));
  return elapsed();
}

/** How the variant starts a consumer: the hand-written loop, or the adapter's `consumeEvents`. */
function starter(v: BusVariant, adapter: AdapterModule | null, runId: string, messages: number): StartConsumer {
  return async (place, handler) => {
    if (adapter === null) {
      return place.broker === 'nats'
        ? { stop: await consumeWithNatsClient(place.consumer, handler) }
        : { stop: consumeWithRedisClient(place.redis, handler, { stream: REDIS_STREAM, group: place.group, consumer: runId }) };
    }
    const consumption =
      place.broker === 'nats'
        ? adapter.consumeNats(place.consumer, handler, { js: place.js, deadLetterSubject: NATS_DEAD_LETTER_SUBJECT })
        : adapter.consumeRedis(place.redis, handler, { stream: REDIS_STREAM, group: place.group, consumer: runId, deadLetterStream: REDIS_DEAD_LETTER_STREAM, blockMs: 100 });
    return {
      closed: consumption.closed,
      async stop() {
        await consumption.stop();
        const { received, handled } = consumption.counts;
        if (handled !== messages || received !== messages) throw new Error(`bus run (${v.id}): the adapter counts ${handled} handled of ${received} received, ${messages} were stored`);
      },
    };
  };
}

// One options object per mode, as the adapters pass them.
const TOLERANT = { mode: 'tolerant' } as const;
const STRICT = { mode: 'strict' } as const;

/**
 * The adapter's own checks, `perEvent` calls per event version, round-robin over the events,
 * each event's stored messages in turn: bytes through `decodeEvent` as a consumer gets them,
 * or parsed events through `validateEvent` in strict mode as `publishEvent` checks them.
 */
function warmChecks(adapter: AdapterModule, v: BusVariant, texts: string[], perEvent: number): void {
  const byEvent = new Map<string, string[]>();
  for (const text of texts) {
    const { type, version } = JSON.parse(text) as { type: string; version: string };
    const same = byEvent.get(`${type}@${version}`);
    if (same === undefined) byEvent.set(`${type}@${version}`, [text]);
    else same.push(text);
  }
  const checkOf =
    v.operation === 'consume'
      ? (text: string) => {
          const bytes = Buffer.from(text);
          return () => adapter.decodeEvent(bytes, TOLERANT);
        }
      : (text: string) => {
          const event = JSON.parse(text) as unknown;
          return () => adapter.validateEvent(event, STRICT);
        };
  const checks = [...byEvent.values()].map((same) => same.map(checkOf));
  for (let i = 0; i < perEvent; i++) {
    for (const same of checks) {
      if (!same[i % same.length]!().ok) throw new Error(`bus run: a stored message does not pass the adapter's ${v.operation === 'consume' ? 'decodeEvent' : 'strict validateEvent'}`);
    }
  }
}

/** The process has what its variant says of OpenTelemetry, and nothing else. */
async function checkOpenTelemetry(v: BusVariant): Promise<void> {
  const found = await import('@opentelemetry/api').then(
    () => true,
    () => false,
  );
  if (found !== (v.openTelemetry !== 'hidden')) throw new Error(`bus run (${v.id}): @opentelemetry/api is ${found ? 'resolvable' : 'not resolvable'}, the variant wants it ${v.openTelemetry}`);
}

async function main(): Promise<void> {
  const [jobFile, resultFile] = process.argv.slice(2);
  if (!jobFile || !resultFile) throw new Error('usage: bus-run <job.json> <result.json>');
  const job = JSON.parse(readFileSync(jobFile, 'utf8')) as BusRunJob;
  const v = variant(job.variant);
  const texts = JSON.parse(readFileSync(job.textsFile, 'utf8')) as string[];

  let tracing: RegisteredTracing | null = null;
  if (v.openTelemetry === 'sdk') {
    if (job.tracingModule === undefined) throw new Error('bus run: tracing on needs the tracing module');
    const module = (await import(pathToFileURL(job.tracingModule).href)) as typeof import('./bus-tracing.js');
    tracing = module.registerTracing();
  }
  if (v.code !== 'peer') await checkOpenTelemetry(v);
  let adapter: AdapterModule | null = null;
  if (v.code !== 'peer') {
    if (job.adapterModule === undefined) throw new Error(`bus run (${v.id}): no adapter module`);
    adapter = (await import(pathToFileURL(job.adapterModule).href)) as AdapterModule;
  }

  const checksStarted = performance.now();
  if (adapter !== null) warmChecks(adapter, v, texts, job.warmupChecksPerEvent);
  const result: BusRunResult = { variant: v.id, messages: texts.length, warmupChecksMs: performance.now() - checksStarted, brokers: {} };
  const events = v.operation === 'publish' ? texts.map((text) => JSON.parse(text) as unknown) : [];
  /** Rounds consumed in this process so far: the consumed-messages counter counts them all. */
  let consumedRounds = 0;
  for (const { broker, url } of job.brokers) {
    const side = broker === 'nats' ? await natsSide(url, job.runId, texts.length) : await redisSide(url, job.runId, texts.length);
    try {
      let round: () => Promise<Timing>;
      if (v.operation === 'consume') {
        const start = starter(v, adapter, job.runId, texts.length);
        round = () => side.consumeRound(start);
      } else {
        if (adapter === null) throw new Error('bus run: publishing needs an adapter');
        const publisher = adapter;
        round = () => side.publishRound(publisher, events, job.publishBatch);
      }
      const roundsStarted = performance.now();
      for (let i = 0; i < job.warmupRounds; i++) await round();
      const warmupRoundsMs = performance.now() - roundsStarted;
      await tracing?.reset();
      const { ms, cpuMs } = await round();
      consumedRounds += job.warmupRounds + 1;
      const run: BrokerRun = { ms, cpuMs, warmupRoundsMs };
      if (tracing !== null) {
        const exported = await tracing.flush();
        const counted = texts.length * consumedRounds;
        if (exported.spans !== texts.length || exported.consumedMessages !== counted) {
          throw new Error(`bus run (${broker}): tracing on exported ${exported.spans} spans in the timed round (${texts.length} messages) and counted ${exported.consumedMessages} consumed in all (${counted} expected)`);
        }
        run.spans = exported.spans;
      }
      result.brokers[broker] = run;
    } finally {
      await side.close();
    }
  }
  writeFileSync(resultFile, JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
