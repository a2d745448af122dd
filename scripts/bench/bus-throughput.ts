/**
 * Bus group of `npm run bench` (`--only bus`): end-to-end consume throughput on real brokers,
 * with validation (`consumeEvents`) against the same consumer loop without it, same broker,
 * same stored messages, same run. The loop without validation consumes as the adapter does
 * and does the adapter's work per message except the validation: on NATS, the adapter's
 * own pulls and queue (`pullMessages`, `DeliveryQueue`), the bytes decoded and `JSON.parse`d, the handler called
 * and awaited only if it returned a promise (as the adapter does), the ack held and sent
 * with the others of its burst by the adapter's own `AckBatch` (or a `nak` if the handler
 * threw), the counts; on Redis, the adapter's shape (an async decision that parses the
 * JSON and awaits the handler, then an awaited `XACK`). Rounds alternate the two, in an order
 * that flips every round, so that load on the machine hits both alike; uncounted rounds come
 * first, until the process has validated `warmupMessages` messages, so that what is timed is a
 * consumer in its steady state (as one that has been running for a while). Each round pairs
 * the two loops run back to back; the ratio reported is the median of the rounds' ratios,
 * with its quartiles to show the noise. The brokers run on loopback ports and are stopped at the end.
 */
import { AckPolicy, jetstream, jetstreamManager, type Consumer } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { emptyCounts, isThenable } from '../../runtime/bus/index.js';
import { AckBatch } from '../../runtime/nats/ack-batch.js';
import { DeliveryQueue } from '../../runtime/nats/delivery-queue.js';
import { pullMessages } from '../../runtime/nats/pull-messages.js';
import { consumeEvents as consumeNats } from '../../runtime/nats/index.js';
import { consumeEvents as consumeRedis } from '../../runtime/redis-streams/index.js';
import { startNatsServer, startRedisServer } from '../../test/bus/brokers.js';
import { log, summarize, type Summary } from './common.js';

const decoder = new TextDecoder();

/** The Redis adapter's decision without validation: parse, then the handler. */
async function decideWithoutValidation(data: string, handler: (event: unknown, message: unknown) => unknown): Promise<'handled'> {
  await handler(JSON.parse(data), undefined);
  return 'handled';
}

/** Times one consumer from its start until the handler has seen `count` messages. */
async function timeUntilHandled(count: number, start: (handler: (event: unknown, message: unknown) => unknown) => Promise<() => Promise<unknown>>): Promise<number> {
  let handled = 0;
  let done!: () => void;
  const allHandled = new Promise<void>((resolve) => (done = resolve));
  const began = performance.now();
  const stop = await start(() => {
    if (++handled === count) done();
  });
  await allHandled;
  const ms = performance.now() - began;
  await stop();
  return ms;
}

export interface BrokerResult {
  /** Uncounted rounds run first on this broker. */
  warmupRounds?: number;
  validated: Summary;
  plain: Summary;
  /** Median of the rounds' ratios (validated ÷ plain, each round's two loops back to back). */
  ratio: number;
  /** The rounds' ratios: quartiles and extremes. */
  ratios: Summary;
}

async function benchNats(texts: string[], rounds: Rounds): Promise<BrokerResult> {
  const server = await startNatsServer();
  const nc = await connect({ servers: server.url });
  try {
    const jsm = await jetstreamManager(nc);
    const js = jetstream(nc);
    await jsm.streams.add({ name: 'BENCH', subjects: ['bench.>'] });
    await jsm.streams.add({ name: 'BENCH_DEAD', subjects: ['bench-dead.>'] });
    for (let i = 0; i < texts.length; i += 500) await Promise.all(texts.slice(i, i + 500).map((text) => js.publish('bench.events', text)));
    let round = 0;
    const freshConsumer = async (): Promise<Consumer> => {
      const name = `round-${round++}`;
      await jsm.consumers.add('BENCH', { durable_name: name, ack_policy: AckPolicy.Explicit });
      return js.consumers.get('BENCH', name);
    };
    return await alternate('nats', rounds, texts.length, {
      validated: () =>
        timeUntilHandled(texts.length, async (handler) => {
          const consumption = consumeNats(await freshConsumer(), handler, { js, deadLetterSubject: 'bench-dead.events' });
          return () => consumption.stop();
        }),
      plain: () =>
        timeUntilHandled(texts.length, async (handler) => {
          const queue = new DeliveryQueue();
          const puller = pullMessages(await freshConsumer(), queue, { maxMessages: 100, nc });
          const loop = (async () => {
            const counts = emptyCounts();
            const acks = new AckBatch(counts, 100, 10);
            for (;;) {
              const msg = queue.shift();
              if (msg === undefined) {
                if (await queue.wait()) continue;
                break;
              }
              try {
                const returned = handler(JSON.parse(decoder.decode(msg.data)), msg);
                if (isThenable(returned)) {
                  acks.send();
                  await returned;
                }
                acks.hold(msg, false);
              } catch {
                msg.nak();
                counts.received++;
                counts.retried++;
              }
            }
            acks.send();
            return counts;
          })();
          return async () => {
            await puller.stop();
            await loop;
          };
        }),
    });
  } finally {
    await nc.close();
    await server.stop();
  }
}

async function benchRedis(texts: string[], rounds: Rounds): Promise<BrokerResult> {
  const server = await startRedisServer();
  const admin = new Redis(server.url);
  const reader = new Redis(server.url);
  try {
    for (let i = 0; i < texts.length; i += 1000) {
      const pipeline = admin.pipeline();
      for (const text of texts.slice(i, i + 1000)) pipeline.xadd('bench', '*', 'message', text);
      await pipeline.exec();
    }
    let round = 0;
    const freshGroup = async (): Promise<string> => {
      const group = `round-${round++}`;
      await admin.xgroup('CREATE', 'bench', group, '0');
      return group;
    };
    return await alternate('redis', rounds, texts.length, {
      validated: () =>
        timeUntilHandled(texts.length, async (handler) => {
          const consumption = consumeRedis(reader, handler, { stream: 'bench', group: await freshGroup(), consumer: 'c', deadLetterStream: 'bench:dead', blockMs: 100 });
          return () => consumption.stop();
        }),
      plain: () =>
        timeUntilHandled(texts.length, async (handler) => {
          const group = await freshGroup();
          let stopping = false;
          const loop = (async () => {
            while (!stopping) {
              const reply = (await reader.xreadgroup('GROUP', group, 'c', 'COUNT', 100, 'BLOCK', 100, 'STREAMS', 'bench', '>')) as [string, [string, string[]][]][] | null;
              for (const [id, fields] of reply?.[0]?.[1] ?? []) {
                await decideWithoutValidation(fields[1]!, handler);
                await reader.xack('bench', group, id);
              }
            }
          })();
          return async () => {
            stopping = true;
            await loop;
          };
        }),
    });
  } finally {
    reader.disconnect();
    admin.disconnect();
    await server.stop();
  }
}

interface Rounds {
  /** Uncounted rounds run until the process has validated this many messages (and at least one round per broker). */
  warmupMessages: number;
  counted: number;
}

/** Messages validated in this process so far, over both brokers: the engine's compiled state carries over. */
let validatedSoFar = 0;

/**
 * Runs the counted rounds of both consumers after the uncounted ones: the validators load
 * on first use of each event, and the engine compiles an event's checks only after
 * thousands of calls, while the rarest events come a few times a round; so a consumer
 * reaches its steady state only after a few million messages (measured here: after 600,000, 167 of the 228
 * events' checks still ran as baseline code; after 2,100,000, 46). The order flips every
 * round, so that neither always runs right after the other.
 */
async function alternate(broker: string, { warmupMessages, counted }: Rounds, messages: number, run: { validated: () => Promise<number>; plain: () => Promise<number> }): Promise<BrokerResult & { warmupRounds: number }> {
  const validated: number[] = [];
  const plain: number[] = [];
  let warmupRounds = 0;
  for (let r = 0; r < counted; ) {
    const warming = warmupRounds === 0 || validatedSoFar < warmupMessages;
    let v: number;
    let p: number;
    if ((warmupRounds + r) % 2 === 0) {
      p = await run.plain();
      v = await run.validated();
    } else {
      v = await run.validated();
      p = await run.plain();
    }
    validatedSoFar += messages;
    if (warming) {
      warmupRounds++;
      continue;
    }
    validated.push(v);
    plain.push(p);
    r++;
    log(`${broker} round ${r}/${counted}: validated ${v.toFixed(0)} ms, plain ${p.toFixed(0)} ms`);
  }
  log(`${broker}: ${warmupRounds} uncounted rounds first`);
  return { ...result(validated, plain), warmupRounds };
}

function result(validated: number[], plain: number[]): BrokerResult {
  const ratios = summarize(validated.map((v, i) => v / plain[i]!));
  return { validated: summarize(validated), plain: summarize(plain), ratio: ratios.median, ratios };
}

export interface BusResult {
  /** Valid messages stored once per broker and consumed in every round. */
  messages: number;
  rounds: number;
  /** Messages the process validated before the first counted round of each broker. */
  warmupMessages: number;
  nats: BrokerResult;
  redis: BrokerResult;
}

/** The bus group as the harness hands it to the bench worker: the messages are prepared there. */
export interface BusJob {
  group: 'bus';
  /** Valid message texts (the sample stream with nothing broken). */
  texts: string[];
  rounds: number;
  warmupMessages: number;
}

/**
 * Runs in the bench worker, a plain `node` process: the adapters and the loop without
 * validation are compiled alike (bundled by esbuild), so neither carries a loader's additions.
 */
export async function measureBus(job: BusJob): Promise<BusResult> {
  const { texts } = job;
  const rounds: Rounds = { warmupMessages: job.warmupMessages, counted: job.rounds };
  log(`${texts.length} valid messages of every catalog event; uncounted rounds until ${rounds.warmupMessages} validated, then ${rounds.counted} counted alternating rounds per broker`);
  const nats = await benchNats(texts, rounds);
  const redis = await benchRedis(texts, rounds);
  return { messages: texts.length, rounds: rounds.counted, warmupMessages: rounds.warmupMessages, nats, redis };
}
