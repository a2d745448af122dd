/**
 * A real cluster: three JetStream nodes on loopback, the events stream, the dead-letter
 * stream and the durable consumer each with three replicas; three consumer processes given
 * all three URLs. The stream leader is SIGKILLed mid-stream and stays down. Every valid
 * message is still handled (at least once), every rejected one dead-lettered exactly once
 * with its reason, and handled + dead-lettered = published.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, expect, it } from 'vitest';
import type { DeliveryCounts } from '../../runtime/bus/index.js';
import { startNatsCluster } from './nats-cluster.js';
import { expectedReason, idIn, kindOf, messageText } from './scale-out/traffic.js';
import { startWorkers } from './scale-out/workers.js';

const MESSAGES = 3000;
/** The leader dies once this many messages are handled. */
const KILL_AFTER = 1000;
const DEADLINE_MS = 60_000;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Retries a request that a node going down or a leader election may time out. */
async function retried<T>(request: () => Promise<T>, what: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt >= 10) throw new Error(`${what} failed 10 times: ${String(error)}`);
      await sleep(500);
    }
  }
}
const handledIds = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => line.split(' ')[0]!) : []);

it('three nodes, replicas 3, the stream leader SIGKILLed mid-stream: nothing lost, each rejected message dead-lettered once', async () => {
  const cluster = await startNatsCluster();
  cleanups.push(() => cluster.stop());
  const dir = mkdtempSync(join(tmpdir(), 'nats-cluster-run-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const nc = await connect({ servers: cluster.servers, maxReconnectAttempts: -1 });
  cleanups.push(() => nc.close());
  const jsm = await jetstreamManager(nc, { timeout: 3000 });
  const js = jetstream(nc, { timeout: 10_000 });
  await jsm.streams.add({ name: 'SCALE', subjects: ['scale.>'], num_replicas: 3 });
  await jsm.streams.add({ name: 'DEAD', subjects: ['dead.>'], num_replicas: 3 });
  await jsm.consumers.add('SCALE', { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: 10_000_000_000, max_ack_pending: 1000, num_replicas: 3 });

  const encoder = new TextEncoder();
  for (let i = 0; i < MESSAGES; i += 250) {
    await Promise.all(Array.from({ length: Math.min(250, MESSAGES - i) }, (_, k) => js.publish('scale.events', encoder.encode(messageText(i + k)))));
  }

  const workers = await startWorkers('nats', cluster.urls, dir, cleanups);
  const started = Date.now();
  for (const w of workers) w.child.stdin!.write('go\n');
  const handled = () => new Set(workers.flatMap((w) => handledIds(w.log))).size;
  while (handled() < KILL_AFTER) {
    if (Date.now() - started > DEADLINE_MS) throw new Error(`only ${handled()} handled before the kill`);
    await sleep(20);
  }
  const leader = (await retried(() => jsm.streams.info('SCALE'), 'stream info')).cluster?.leader;
  expect(leader).toMatch(/^n[123]$/);
  await cluster.kill(leader!);
  const handledAtKill = handled();
  expect(handledAtKill, 'the leader died mid-stream').toBeLessThan(MESSAGES * 0.95);

  const deadCount = async () => (await jsm.streams.info('DEAD').catch(() => null))?.state.messages ?? 0;
  let settled = 0;
  while ((settled = handled() + (await deadCount())) < MESSAGES) {
    if (Date.now() - started > DEADLINE_MS) throw new Error(`only ${settled} of ${MESSAGES} settled within ${DEADLINE_MS} ms after the start`);
    await sleep(200);
  }
  expect((await retried(() => jsm.streams.info('SCALE'), 'stream info')).cluster?.leader).not.toBe(leader);
  for (const w of workers) w.child.kill('SIGTERM');
  expect(await Promise.all(workers.map((w) => w.exited)), 'every worker kept consuming and stopped cleanly').toEqual([0, 0, 0]);

  const handledSet = new Set(workers.flatMap((w) => handledIds(w.log)));
  const indices = Array.from({ length: MESSAGES }, (_, i) => i);
  expect(indices.filter((i) => kindOf(i) === 'valid' && !handledSet.has(`M-${i}`)), 'every valid message handled').toEqual([]);
  expect([...handledSet].filter((id) => kindOf(Number(id.slice(2))) !== 'valid'), 'nothing else handled').toEqual([]);

  const letters = new Map<string, string[]>();
  const info = await retried(() => jsm.streams.info('DEAD'), 'dead-letter stream info');
  for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
    const stored = await retried(() => jsm.streams.getMessage('DEAD', { seq }), 'dead letter');
    const id = idIn(new TextDecoder().decode(stored!.data));
    letters.set(id, [...(letters.get(id) ?? []), stored!.header.get('Catalog-Reason')]);
  }
  const rejected = indices.filter((i) => kindOf(i) !== 'valid');
  const wrong = rejected.filter((i) => JSON.stringify(letters.get(`M-${i}`)) !== JSON.stringify([expectedReason[kindOf(i)]]));
  expect(wrong.slice(0, 5).map((i) => [`M-${i}`, letters.get(`M-${i}`)]), 'every rejected message dead-lettered exactly once, with its reason').toEqual([]);
  expect(info.state.messages).toBe(rejected.length);
  expect(handledSet.size + info.state.messages, 'handled + dead-lettered = published').toBe(MESSAGES);
  for (const w of workers) {
    const counts = JSON.parse(readFileSync(w.summary, 'utf8')) as DeliveryCounts;
    const deadLettered = Object.values(counts.deadLettered).reduce((a, b) => a + b, 0);
    expect(counts.handled + counts.ignored + counts.retried + deadLettered, `${w.name}'s counts add up`).toBe(counts.received);
  }
  await sleep(0);
  console.log(`nats cluster: ${MESSAGES} messages in ${((Date.now() - started) / 1000).toFixed(1)} s, leader ${leader} killed after ${handledAtKill} handled`);
}, 120_000);
