/**
 * The emulator's events on real brokers, published through the package's own publishers and
 * read back with its own `consumeEvents`: exactly one event per outcome, in order, every one
 * valid (none dead-lettered). At start it refuses a broker it cannot publish to, saying why.
 */
import { AckPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../runtime/emulator/index.js';
import type { CatalogEvent } from '../../runtime/index.js';
import { consumeEvents as consumeNats } from '../../runtime/nats/index.js';
import { consumeEvents as consumeRedis } from '../../runtime/redis-streams/index.js';
import { startNatsServer, startRedisServer, type RunningBroker } from '../../scripts/local-brokers.js';
import { until } from '../bus/until.js';
import { call, paths } from './http.js';

const account = (external: string) => ({ import_supplier: 'SUP', external_account_number: external });
const processBody = (external: string, dryRun = false) => ({ import_supplier_code: 'SUP', external_account_number: external, operations_team_name: 'T', ...(dryRun && { dry_run: true }) });

/** Calls that take every outcome the catalog maps, and stage twice (no event): nine events. */
async function scenario(emulator: Emulator): Promise<void> {
  const steps: [string, unknown][] = [
    [paths.stageAccount, account('A')],
    [paths.stageAccount, account('B')],
    [paths.stageAccount, account('A')],
    [paths.processAccount, processBody('A')],
    [paths.processAccount, processBody('B', true)],
    [paths.processAccount, processBody('C', true)],
    [paths.processAccount, processBody('C')],
    [paths.createNotes, { ...account('A'), notes: [{ body: 'Hello.' }] }],
    [paths.createNotes, { ...account('B'), notes: [{ body: 'Too early.' }] }],
    [paths.createTransactions, { ...account('A'), transactions: [{ transaction_id: 't', amount: 1 }] }],
    [paths.createHistoricalStatements, { ...account('A'), statements: [{ bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31', statement_id: 's', issued_date: '2024-02-01', number: '1', gross_amount: 1 }] }],
    [paths.createPaymentInstruction, { ...account('A'), vendor: 'V', reference: 'R', type: 'CARD' }],
  ];
  for (const [path, body] of steps) expect((await call(emulator.url, 'POST', path, { body })).status).toBeLessThan(500);
}

const EXPECTED_TYPES = [
  'data_import.import_process.complete',
  'data_import.import_process.dry_run_complete',
  'data_import.import_process.dry_run_error',
  'data_import.import_process.error',
  'data_import.import_process.post_import.completed',
  'data_import.import_process.post_import.error',
  'data_import.import_process.post_import.completed',
  'data_import.import_process.post_import.completed',
  'data_import.import_process.post_import.completed',
];

describe('on NATS JetStream', () => {
  let server: RunningBroker;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  beforeAll(async () => {
    server = await startNatsServer();
    nc = await connect({ servers: server.url });
    jsm = await jetstreamManager(nc);
  }, 60_000);
  afterAll(async () => {
    await nc?.close();
    await server?.stop();
  }, 60_000);

  it(
    'refuses to start when no stream captures its subjects, saying what to create',
    async () => {
      await expect(startEmulator({ port: 0, nats: server.url })).rejects.toThrow(/^nats: no stream captures "events\.data_import\.import_process\.complete\.v1", .*: create one before starting the emulator, e\.g\. nats stream add EVENTS --subjects 'events\.>'/);
    },
    30_000,
  );

  it(
    'publishes one event per outcome on events.<type>.<version>, consumed and validated by consumeEvents',
    async () => {
      await jsm.streams.add({ name: 'EVENTS', subjects: ['events.>'] });
      await jsm.streams.add({ name: 'EVENTS_DEAD', subjects: ['dead.events'] });
      await jsm.consumers.add('EVENTS', { durable_name: 'emulated', ack_policy: AckPolicy.Explicit });
      const emulator = await startEmulator({ port: 0, nats: server.url });
      const received: { event: CatalogEvent; subject: string }[] = [];
      const js = jetstream(nc);
      const consumption = consumeNats(await js.consumers.get('EVENTS', 'emulated'), (event, message) => void received.push({ event, subject: message.subject }), { js, deadLetterSubject: 'dead.events', maxDeliver: 3 });
      try {
        await scenario(emulator);
        await until(() => received.length >= EXPECTED_TYPES.length, 'every event consumed');
        // Nothing more arrives: exactly one per outcome.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(received.map((r) => r.event)).toEqual(emulator.events().map((e) => e.event));
        expect(received.map((r) => r.event.type)).toEqual(EXPECTED_TYPES);
        expect(received.map((r) => r.subject)).toEqual(EXPECTED_TYPES.map((type) => `events.${type}.v1`));
        expect([consumption.counts.received, consumption.counts.handled, Object.values(consumption.counts.deadLettered).reduce((sum, n) => sum + n, 0)]).toEqual([9, 9, 0]);
        expect((await jsm.streams.info('EVENTS_DEAD')).state.messages).toBe(0);
      } finally {
        await consumption.stop();
        await emulator.close();
      }
    },
    60_000,
  );
});

describe('on Redis Streams', () => {
  let server: RunningBroker;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    redis = new Redis(server.url);
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  }, 60_000);

  it(
    'refuses a stream key that holds something else',
    async () => {
      await redis.set('not-a-stream', 'x');
      await expect(startEmulator({ port: 0, redis: server.url, stream: 'not-a-stream' })).rejects.toThrow('redis: the key "not-a-stream" holds a string, not a stream');
    },
    30_000,
  );

  it(
    'adds one event per outcome to the stream, consumed and validated by consumeEvents',
    async () => {
      await redis.xgroup('CREATE', 'events', 'emulated', '0', 'MKSTREAM');
      const emulator = await startEmulator({ port: 0, redis: server.url, stream: 'events' });
      const received: CatalogEvent[] = [];
      const reader = new Redis(server.url);
      const consumption = consumeRedis(reader, (event) => void received.push(event), { stream: 'events', group: 'emulated', consumer: 'c1', deadLetterStream: 'events:dead', blockMs: 100 });
      try {
        await scenario(emulator);
        await until(() => received.length >= EXPECTED_TYPES.length, 'every event consumed');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(received).toEqual(emulator.events().map((e) => e.event));
        expect(received.map((e) => e.type)).toEqual(EXPECTED_TYPES);
        expect([consumption.counts.received, consumption.counts.handled, Object.values(consumption.counts.deadLettered).reduce((sum, n) => sum + n, 0)]).toEqual([9, 9, 0]);
        expect(await redis.xlen('events:dead')).toBe(0);
      } finally {
        await consumption.stop();
        reader.disconnect();
        await emulator.close();
      }
    },
    60_000,
  );
});
