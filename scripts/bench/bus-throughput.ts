/**
 * Bus group of `npm run bench` (`--only bus`): consuming and publishing on real brokers
 * (loopback `nats-server` and `redis-server` started here, stopped at the end). Every measured
 * run is a process of its own (`bus-run.ts`) that loads one variant only (`VARIANTS`) and times
 * it on each broker in turn: the loop a user writes with the broker's client alone; the adapter
 * with `@opentelemetry/api` absent, installed without an SDK, or with tracing on; and the
 * adapter as it was at `BEFORE_COMMIT`. The messages are stored once per broker; every
 * consuming run reads all of them with a consumer of its own.
 *
 * Slots: each slot runs every variant once, in an order that flips every slot (the brokers'
 * order with it), so that a drift in the machine's speed falls on both sides of a comparison
 * alike. A ratio (`RATIOS`) is the median over the slots of the two runs' ratio in the same
 * slot, with its quartiles. Slots run while the group's time allows another one (`seconds`),
 * at least `minSlots` and at most `maxSlots`: a busy machine gets fewer slots rather than a
 * group that runs for ever.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { startNatsServer, startRedisServer, type RunningBroker } from '../local-brokers.js';
import { bundleBus, type BusBundles } from './bus-bundles.js';
import {
  BROKERS,
  NATS_DEAD_LETTER_STREAM,
  NATS_DEAD_LETTER_SUBJECT,
  NATS_PUBLISH_STREAM,
  NATS_STREAM,
  NATS_SUBJECT,
  RATIOS,
  REDIS_STREAM,
  VARIANTS,
  type Broker,
  type BusRunJob,
  type BusRunResult,
  type RatioDefinition,
} from './bus-variants.js';
import { log, readJson, summarize, write, type Summary } from './common.js';

export interface BusSettings {
  /** Valid message texts (the sample stream with nothing broken), stored once per broker. */
  texts: string[];
  minSlots: number;
  maxSlots: number;
  /** Time the slots may take, s: no slot starts that would end after it (by the mean slot so far), once `minSlots` have run. */
  seconds: number;
  warmupChecksPerEvent: number;
  warmupRounds: number;
  publishBatch: number;
}

export interface BusRatio extends RatioDefinition {
  /** The slots' ratios of wall time: median, quartiles and extremes. */
  ratios: Summary;
  /** The same of the processes' CPU time in the timed rounds. */
  cpuRatios: Summary;
}

export interface BrokerBusResult {
  /** Each variant's timed round, ms, over the slots. */
  runs: Record<string, Summary>;
  /** The CPU time its process used in the timed round, ms, over the slots. */
  cpuMs: Record<string, Summary>;
  /** Each variant's untimed rounds, ms, over the slots. */
  warmupRoundsMs: Record<string, Summary>;
  ratios: BusRatio[];
}

export interface BusResult {
  /** Messages stored per broker, consumed by every consuming run and published by every publishing run. */
  messages: number;
  /** Slots run. */
  slots: number;
  minSlots: number;
  maxSlots: number;
  seconds: number;
  /** Wall time of the slots, ms. */
  slotsMs: number;
  warmupChecksPerEvent: number;
  warmupRounds: number;
  publishBatch: number;
  /** Event versions among the stored messages. */
  events: number;
  /** Each variant's process, spawn to exit, ms, over the slots. */
  processMs: Record<string, Summary>;
  /** Each variant's warm-up of the checks, ms, over the slots. */
  warmupChecksMs: Record<string, Summary>;
  nats: BrokerBusResult;
  redis: BrokerBusResult;
}

/** The two brokers, the messages stored on each, and where the run processes find them. */
async function prepareBrokers(texts: string[]): Promise<{ urls: Record<Broker, string>; stop(): Promise<void> }> {
  const servers: RunningBroker[] = [];
  try {
    servers.push(await startNatsServer(), await startRedisServer());
    const [natsServer, redisServer] = servers as [RunningBroker, RunningBroker];
    const nc = await connect({ servers: natsServer.url });
    try {
      const jsm = await jetstreamManager(nc);
      const js = jetstream(nc);
      await jsm.streams.add({ name: NATS_STREAM, subjects: [NATS_SUBJECT] });
      await jsm.streams.add({ name: NATS_DEAD_LETTER_STREAM, subjects: [NATS_DEAD_LETTER_SUBJECT] });
      // publishEvent's default subjects, events.<type>.<version>.
      await jsm.streams.add({ name: NATS_PUBLISH_STREAM, subjects: ['events.>'] });
      for (let i = 0; i < texts.length; i += 500) await Promise.all(texts.slice(i, i + 500).map((text) => js.publish(NATS_SUBJECT, text)));
      const stored = (await jsm.streams.info(NATS_STREAM)).state.messages;
      if (stored !== texts.length) throw new Error(`bus: NATS stored ${stored} of ${texts.length} messages`);
    } finally {
      await nc.close();
    }
    const redis = new Redis(redisServer.url);
    try {
      for (let i = 0; i < texts.length; i += 1000) {
        const pipeline = redis.pipeline();
        for (const text of texts.slice(i, i + 1000)) pipeline.xadd(REDIS_STREAM, '*', 'message', text);
        await pipeline.exec();
      }
      const stored = await redis.xlen(REDIS_STREAM);
      if (stored !== texts.length) throw new Error(`bus: Redis stored ${stored} of ${texts.length} entries`);
    } finally {
      redis.disconnect();
    }
    return {
      urls: { nats: natsServer.url, redis: redisServer.url },
      stop: async () => {
        await Promise.all(servers.map((s) => s.stop()));
      },
    };
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    throw error;
  }
}

/** Runs one process to its end, timed from spawn to exit; rejects with its output when it fails. */
function runProcess(bundles: BusBundles, job: BusRunJob, hide: boolean): Promise<BusRunResult & { processMs: number }> {
  const jobFile = join(bundles.dir, `${job.runId}.job.json`);
  const resultFile = join(bundles.dir, `${job.runId}.result.json`);
  write(jobFile, JSON.stringify(job));
  return new Promise((resolve, reject) => {
    const spawned = performance.now();
    const child = spawn(process.execPath, ['--import', bundles.hook, bundles.run, jobFile, resultFile], {
      cwd: bundles.dir,
      env: { ...process.env, BENCH_HIDE_OPENTELEMETRY: hide ? '1' : '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ ...readJson<BusRunResult>(resultFile), processMs: performance.now() - spawned });
      else reject(new Error(`bus run ${job.runId} (${job.variant}) exited with ${code ?? signal}\n${output}`));
    });
  });
}

export async function measureBus(work: string, settings: BusSettings): Promise<BusResult> {
  const { texts, minSlots, maxSlots, seconds } = settings;
  const bundles = await bundleBus(work);
  const textsFile = join(bundles.dir, 'texts.json');
  write(textsFile, JSON.stringify(texts));
  const events = new Set(
    texts.map((text) => {
      const { type, version } = JSON.parse(text) as { type: string; version: string };
      return `${type}@${version}`;
    }),
  ).size;
  log(
    `bus: ${texts.length} valid messages of ${events} event versions per broker; ${minSlots}–${maxSlots} slots (as many as fit in ${seconds} s) of ${VARIANTS.length} variants × ${BROKERS.length} brokers, ` +
      `each run a process on both brokers (${settings.warmupChecksPerEvent} checks per event, then per broker ${settings.warmupRounds} untimed rounds and one timed)`,
  );
  const brokers = await prepareBrokers(texts);
  const times: Record<Broker, Record<string, number[]>> = { nats: {}, redis: {} };
  const cpuTimes: Record<Broker, Record<string, number[]>> = { nats: {}, redis: {} };
  const warmupRounds: Record<Broker, Record<string, number[]>> = { nats: {}, redis: {} };
  const processes: Record<string, number[]> = {};
  const warmupChecks: Record<string, number[]> = {};
  const began = performance.now();
  let slots = 0;
  const anotherFits = () => {
    const elapsed = performance.now() - began;
    return slots < minSlots || (slots < maxSlots && elapsed + elapsed / slots <= seconds * 1000);
  };
  try {
    for (; anotherFits(); slots++) {
      const slot = slots;
      const flip = slot % 2 === 1;
      const order = flip ? [...VARIANTS].reverse() : VARIANTS;
      const brokerOrder = flip ? [...BROKERS].reverse() : BROKERS;
      const line: string[] = [];
      for (const v of order) {
        const job: BusRunJob = {
          brokers: brokerOrder.map((broker) => ({ broker, url: brokers.urls[broker] })),
          variant: v.id,
          runId: `s${slot}-${v.id}`,
          ...(v.code === 'current' && { adapterModule: bundles.current }),
          ...(v.code === 'before' && { adapterModule: bundles.before }),
          ...(v.openTelemetry === 'sdk' && { tracingModule: bundles.tracing }),
          textsFile,
          warmupChecksPerEvent: settings.warmupChecksPerEvent,
          warmupRounds: settings.warmupRounds,
          publishBatch: settings.publishBatch,
        };
        const result = await runProcess(bundles, job, v.openTelemetry === 'hidden');
        for (const broker of brokerOrder) {
          const run = result.brokers[broker];
          if (run === undefined) throw new Error(`bus run ${job.runId}: no result on ${broker}`);
          (times[broker][v.id] ??= []).push(run.ms);
          (cpuTimes[broker][v.id] ??= []).push(run.cpuMs);
          (warmupRounds[broker][v.id] ??= []).push(run.warmupRoundsMs);
        }
        (processes[v.id] ??= []).push(result.processMs);
        (warmupChecks[v.id] ??= []).push(result.warmupChecksMs);
        line.push(`${v.id} ${brokerOrder.map((broker) => `${broker} ${result.brokers[broker]!.ms.toFixed(0)}`).join(' ')} (process ${(result.processMs / 1000).toFixed(1)} s)`);
      }
      log(`bus slot ${slot + 1}: ${line.join(', ')} ms`);
    }
  } finally {
    await brokers.stop();
  }
  const slotsMs = performance.now() - began;
  const pairedRatios = (samples: Record<string, number[]>, { first, second }: RatioDefinition): Summary => summarize(samples[first]!.map((ms, slot) => ms / samples[second]![slot]!));
  const brokerResult = (broker: Broker): BrokerBusResult => ({
    runs: Object.fromEntries(Object.entries(times[broker]).map(([id, ms]) => [id, summarize(ms)])),
    cpuMs: Object.fromEntries(Object.entries(cpuTimes[broker]).map(([id, ms]) => [id, summarize(ms)])),
    warmupRoundsMs: Object.fromEntries(Object.entries(warmupRounds[broker]).map(([id, ms]) => [id, summarize(ms)])),
    ratios: RATIOS.map((r) => ({ ...r, ratios: pairedRatios(times[broker], r), cpuRatios: pairedRatios(cpuTimes[broker], r) })),
  });
  return {
    messages: texts.length,
    slots,
    minSlots,
    maxSlots,
    seconds,
    slotsMs,
    warmupChecksPerEvent: settings.warmupChecksPerEvent,
    warmupRounds: settings.warmupRounds,
    publishBatch: settings.publishBatch,
    events,
    processMs: Object.fromEntries(Object.entries(processes).map(([id, ms]) => [id, summarize(ms)])),
    warmupChecksMs: Object.fromEntries(Object.entries(warmupChecks).map(([id, ms]) => [id, summarize(ms)])),
    nats: brokerResult('nats'),
    redis: brokerResult('redis'),
  };
}
