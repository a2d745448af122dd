/**
 * Scale-out on real brokers: 20,000 messages (valid, invalid, malformed, unknown type,
 * unknown version, 1 % whose handler always fails) consumed by three processes sharing one
 * durable consumer (NATS) or one group (Redis); one is killed with SIGKILL mid-stream.
 * Afterwards every valid message was handled at least once, the only duplicates are
 * messages the killed process had in flight, every rejected message is dead-lettered exactly
 * once with the right reason, and handled + dead-lettered = published.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeliveryCounts } from '../../runtime/bus/index.js';
import { startNatsServer, startRedisServer, type RunningBroker } from '../../scripts/local-brokers.js';
import { expectedReason, idIn, kindOf, messageText } from './scale-out/traffic.js';
import { startWorkers, type Worker } from './scale-out/workers.js';

const MESSAGES = 20_000;
/** The killed process (w0) kills itself right after handling this many: in its handler, so mid-batch. */
const KILL_AFTER = 1500;
/** Most messages one consumer holds at a time (its pull batch / read count). */
const IN_FLIGHT = 50;
const DEADLINE_MS = 150_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const records = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean) : []);
/** The ids a worker logged as handled. */
const lines = (file: string) => records(file).map((line) => line.split(' ')[0]!);
/** The ids a worker handled on a second or later delivery. */
const redelivered = (file: string) => records(file).filter((line) => line.split(' ')[1] !== '1').map((line) => line.split(' ')[0]!);

/**
 * Publishes every message, lets the three workers go at once, waits for w0 to kill itself
 * mid-stream (then calls `killed`), waits until everything settled, stops the rest.
 * `settled` counts the messages handled or dead-lettered; `outstanding` what the broker still
 * holds undelivered or unacknowledged. Both are needed: the message w0 died in was logged (so
 * counts as handled) but never acknowledged, and it must come back to the others before they stop.
 */
async function runScaleOut(
  workers: Worker[],
  publish: () => Promise<void>,
  settled: () => Promise<number>,
  outstanding: () => Promise<number>,
  killed: () => Promise<void> = async () => undefined,
) {
  await publish();
  const started = Date.now();
  for (const w of workers) w.child.stdin!.write('go\n');
  const [victim, ...survivors] = workers as [Worker, ...Worker[]];
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timed out'>((resolve) => (timer = setTimeout(() => resolve('timed out'), DEADLINE_MS)));
  const outcome = await Promise.race([victim.exited.then(() => 'exited' as const), timedOut]);
  clearTimeout(timer);
  if (outcome === 'timed out') throw new Error(`w0 handled only ${lines(victim.log).length} messages in time`);
  expect(victim.child.signalCode, 'w0 killed itself').toBe('SIGKILL');
  expect(lines(victim.log)).toHaveLength(KILL_AFTER);
  const killedAt = Date.now();
  expect(await settled(), 'w0 was killed mid-stream').toBeLessThan(MESSAGES);
  await killed();
  let done = 0;
  let left = 0;
  while ((done = await settled()) < MESSAGES || (left = await outstanding()) > 0) {
    if (Date.now() - started > DEADLINE_MS) throw new Error(`only ${done} of ${MESSAGES} messages settled within ${DEADLINE_MS} ms, ${left} still outstanding at the broker`);
    await sleep(200);
  }
  for (const w of survivors) w.child.kill('SIGTERM');
  const codes = await Promise.all(survivors.map((w) => w.exited));
  expect(codes).toEqual([0, 0]);
  return { seconds: (Date.now() - started) / 1000, afterKillSeconds: (Date.now() - killedAt) / 1000 };
}

/** The assertions of the scale-out, on the workers' logs and the dead letters (id → reason, one entry per dead letter). */
function checkOutcome(workers: Worker[], deadLetters: [string, string][], heldByKilled?: Set<string>) {
  const handledBy = new Map<string, string[]>();
  for (const w of workers) for (const id of lines(w.log)) handledBy.set(id, [...(handledBy.get(id) ?? []), w.name]);

  const validIds = Array.from({ length: MESSAGES }, (_, i) => i)
    .filter((i) => kindOf(i) === 'valid')
    .map((i) => `M-${i}`);
  const notHandled = validIds.filter((id) => !handledBy.has(id));
  expect(notHandled, 'every valid message handled at least once').toEqual([]);
  expect([...handledBy.keys()].filter((id) => kindOf(Number(id.slice(2))) !== 'valid'), 'nothing else handled').toEqual([]);

  const duplicates = [...handledBy].filter(([, by]) => by.length > 1);
  expect(
    duplicates.filter(([, by]) => by.length !== 2 || !by.includes('w0')),
    'the only duplicates are messages the killed process had in flight',
  ).toEqual([]);
  expect(duplicates.length).toBeLessThanOrEqual(IN_FLIGHT);
  // Valid messages come back only from the killed process.
  const takenOver = workers.slice(1).flatMap((w) => redelivered(w.log));
  expect(takenOver, 'the message the killed process died in was delivered again to the others').toContain(lines(workers[0]!.log).at(-1));
  if (heldByKilled) {
    // Redis tells exactly which entries the killed consumer held.
    expect(takenOver.filter((id) => !heldByKilled.has(id)), 'only what the killed process held was delivered again').toEqual([]);
    expect(takenOver.length).toBe([...heldByKilled].filter((id) => kindOf(Number(id.slice(2))) === 'valid').length);
  } else {
    // The killed one held at least the message it died in, and at most its buffer: two batches.
    expect(takenOver.length, 'messages the killed process held were delivered again to the others').toBeGreaterThan(0);
    expect(takenOver.length).toBeLessThanOrEqual(2 * IN_FLIGHT);
  }

  const rejected = Array.from({ length: MESSAGES }, (_, i) => i).filter((i) => kindOf(i) !== 'valid');
  const lettersById = new Map<string, string[]>();
  for (const [id, reason] of deadLetters) lettersById.set(id, [...(lettersById.get(id) ?? []), reason]);
  const wrong = rejected.filter((i) => JSON.stringify(lettersById.get(`M-${i}`)) !== JSON.stringify([expectedReason[kindOf(i)]]));
  expect(wrong.slice(0, 5).map((i) => [`M-${i}`, lettersById.get(`M-${i}`)]), 'every rejected message dead-lettered exactly once, with its reason').toEqual([]);
  expect(deadLetters.length).toBe(rejected.length);
  expect(handledBy.size + deadLetters.length, 'handled + dead-lettered = published').toBe(MESSAGES);

  for (const w of workers.slice(1)) {
    const counts = JSON.parse(readFileSync(w.summary, 'utf8')) as DeliveryCounts;
    const deadLettered = Object.values(counts.deadLettered).reduce((a, b) => a + b, 0);
    expect(counts.handled + counts.ignored + counts.retried + deadLettered, `${w.name}'s counts add up`).toBe(counts.received);
  }
  return { duplicates: duplicates.length, takenOver: takenOver.length };
}

let broker: RunningBroker | undefined;
const useBroker = async (start: () => Promise<RunningBroker>) => {
  broker = await start();
  const running = broker;
  cleanups.unshift(() => running.stop());
  return running;
};

describe('scale-out across three processes, one killed mid-stream', () => {
  it('NATS JetStream: one durable consumer', async () => {
    const server = await useBroker(startNatsServer);
    const dir = mkdtempSync(join(tmpdir(), 'scale-nats-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const nc = await connect({ servers: server.url });
    cleanups.push(() => nc.close());
    const jsm = await jetstreamManager(nc);
    const js = jetstream(nc);
    await jsm.streams.add({ name: 'SCALE', subjects: ['scale.>'] });
    await jsm.streams.add({ name: 'DEAD', subjects: ['dead.>'] });
    // A message the killed process held comes back after ack_wait: long enough that a busy
    // machine never makes a live consumer miss it.
    await jsm.consumers.add('SCALE', { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: 10_000_000_000, max_ack_pending: 1000 });

    const workers = await startWorkers('nats', server.url, dir, cleanups, KILL_AFTER);
    const encoder = new TextEncoder();
    const timing = await runScaleOut(
      workers,
      async () => {
        for (let i = 0; i < MESSAGES; i += 500) {
          await Promise.all(Array.from({ length: Math.min(500, MESSAGES - i) }, (_, k) => js.publish('scale.events', encoder.encode(messageText(i + k)))));
        }
      },
      async () => {
        const handled = new Set(workers.flatMap((w) => lines(w.log))).size;
        return handled + (await jsm.streams.info('DEAD')).state.messages;
      },
      async () => {
        const info = await jsm.consumers.info('SCALE', 'workers');
        return info.num_pending + info.num_ack_pending;
      },
    );

    const deadLetters: [string, string][] = [];
    const info = await jsm.streams.info('DEAD');
    for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
      const stored = await jsm.streams.getMessage('DEAD', { seq });
      deadLetters.push([idIn(new TextDecoder().decode(stored!.data)), stored!.header.get('Catalog-Reason')]);
    }
    const { duplicates, takenOver } = checkOutcome(workers, deadLetters);
    expect(await jsm.consumers.info('SCALE', 'workers')).toMatchObject({ num_pending: 0, num_ack_pending: 0 });
    console.log(`nats scale-out: ${MESSAGES} messages in ${timing.seconds.toFixed(1)} s (${timing.afterKillSeconds.toFixed(1)} s after the kill), ${takenOver} taken over from the killed process, ${duplicates} of them handled twice`);
  }, 240_000);

  it('Redis Streams: one consumer group', async () => {
    const server = await useBroker(startRedisServer);
    const dir = mkdtempSync(join(tmpdir(), 'scale-redis-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const redis = new Redis(server.url);
    cleanups.push(() => redis.quit());
    await redis.xgroup('CREATE', 'scale', 'workers', '$', 'MKSTREAM');

    const workers = await startWorkers('redis', server.url, dir, cleanups, KILL_AFTER);
    const heldByKilled = new Set<string>();
    const timing = await runScaleOut(
      workers,
      async () => {
        for (let i = 0; i < MESSAGES; i += 1000) {
          const pipeline = redis.pipeline();
          for (let k = i; k < Math.min(i + 1000, MESSAGES); k++) pipeline.xadd('scale', '*', 'message', messageText(k));
          await pipeline.exec();
        }
      },
      async () => new Set(workers.flatMap((w) => lines(w.log))).size + (await redis.xlen('scale:dead')),
      async () => ((await redis.xpending('scale', 'workers')) as [number])[0],
      async () => {
        const pending = (await redis.xpending('scale', 'workers', '-', '+', 10 * IN_FLIGHT, 'w0')) as [string][];
        const ids = new Map((await Promise.all(pending.map(([id]) => redis.xrange('scale', id, id)))).map((entry, i) => [pending[i]![0], (entry[0]![1] as string[])[1]!]));
        for (const text of ids.values()) heldByKilled.add(idIn(text));
      },
    );

    const entries = (await redis.xrange('scale:dead', '-', '+')) as [string, string[]][];
    const deadLetters = entries.map(([, flat]): [string, string] => [idIn(flat[flat.indexOf('message') + 1]!), flat[flat.indexOf('reason') + 1]!]);
    const { duplicates, takenOver } = checkOutcome(workers, deadLetters, heldByKilled);
    expect(await redis.xpending('scale', 'workers')).toEqual([0, null, null, null]);
    console.log(`redis scale-out: ${MESSAGES} messages in ${timing.seconds.toFixed(1)} s (${timing.afterKillSeconds.toFixed(1)} s after the kill), ${takenOver} taken over from the killed process, ${duplicates} of them handled twice`);
  }, 240_000);
});
