/**
 * The JetStream consumer under broker faults, against a real `nats-server`: it either keeps
 * consuming or ends with `closed` rejected by an error that says what failed; it never
 * retries a dead letter silently forever, and never drops one.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, it } from 'vitest';
import { consumeEvents, DEAD_LETTER_HEADERS, DEAD_LETTER_HEADROOM, publishEvent, replayDeadLetters } from '../../runtime/nats/index.js';
import { restartableNatsServer, startNatsServer } from '../../scripts/local-brokers.js';
import { until } from './until.js';
import type { CatalogEvent } from '../../runtime/index.js';

const MiB = 1024 * 1024;
const encode = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));
const valid = (account: string): CatalogEvent => ({ type: 'account.created', version: 'v1', payload: { account_number: account, account_user_emails: [] } });

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
}, 30_000);

async function broker(extraArgs: string[] = [], connectOptions: Parameters<typeof connect>[0] = {}) {
  const server = await startNatsServer(extraArgs);
  cleanup.push(() => server.stop());
  const nc = await connect({ servers: server.url, ...connectOptions });
  cleanup.push(() => nc.close());
  const js = jetstream(nc, { timeout: 1000 });
  const jsm = await jetstreamManager(nc);
  await jsm.streams.add({ name: 'EV', subjects: ['ev.>'] });
  await jsm.consumers.add('EV', { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: 5_000_000_000 });
  return { server, nc, js, jsm, consumer: await js.consumers.get('EV', 'workers') };
}

/** A server whose `max_payload` is set from a config file (the command line has no flag for it). */
function maxPayloadArgs(bytes: number): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'nats-conf-')), 'server.conf');
  writeFileSync(file, `max_payload: ${bytes}\n`);
  return ['-c', file];
}

/** How `closed` settled within `ms`: 'pending' if it did not. */
async function settled(closed: Promise<void>, ms: number): Promise<{ state: 'resolved' | 'rejected' | 'pending'; error?: Error }> {
  const timeout = new Promise<{ state: 'pending' }>((resolve) => setTimeout(() => resolve({ state: 'pending' }), ms));
  return Promise.race([closed.then(() => ({ state: 'resolved' as const }), (error: Error) => ({ state: 'rejected' as const, error })), timeout]);
}

/** An invalid event (no account number) of exactly `bytes` bytes, padded by a long e-mail address. */
function invalidOfSize(bytes: number): Uint8Array {
  const base = { type: 'account.created', version: 'v1', payload: { account_user_emails: ['a@example.com'] } };
  const pad = bytes - encode(base).length - 3; // a new element: ,"…"
  base.payload.account_user_emails.push('p'.repeat(pad));
  const data = encode(base);
  expect(data.length).toBe(bytes);
  return data;
}

describe('consumeEvents under broker faults', () => {
  it('keeps consuming across a broker SIGKILLed and started again: nothing lost', async () => {
    const server = await restartableNatsServer();
    cleanup.push(() => server.remove());
    const url = server.url;
    const nc = await (async () => {
      for (let i = 0; ; i++) {
        try {
          return await connect({ servers: url, maxReconnectAttempts: -1, reconnectTimeWait: 100 });
        } catch (error) {
          if (i > 100) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    })();
    cleanup.push(() => nc.close());
    const js = jetstream(nc, { timeout: 2000 });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'EV', subjects: ['ev.>'] });
    await jsm.streams.add({ name: 'EV_DEAD', subjects: ['dead.>'] });
    await jsm.consumers.add('EV', { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: 3_000_000_000 });
    const handled = new Set<string>();
    const consumption = consumeEvents(await js.consumers.get('EV', 'workers'), (event) => void handled.add((event.payload as { account_number: string }).account_number), { js, deadLetterSubject: 'dead.ev' });
    for (let i = 0; i < 50; i++) await js.publish('ev.x', encode(valid(`A-${i}`)));
    await until(() => handled.size === 50, 'the first 50');
    await server.kill();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    server.restart();
    for (let i = 50; i < 100; i++) {
      for (let attempt = 0; ; attempt++) {
        try {
          await js.publish('ev.x', encode(valid(`A-${i}`)));
          break;
        } catch (error) {
          if (attempt > 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    }
    await until(() => handled.size === 100, 'every message, after the restart', 40_000);
    expect((await settled(consumption.closed, 10)).state).toBe('pending');
    await consumption.stop();
    await expect(consumption.closed).resolves.toBeUndefined();
  }, 90_000);
  it('rejects closed, naming the cause, when its consumer is deleted while it runs', async () => {
    const { js, jsm, consumer } = await broker();
    await jsm.streams.add({ name: 'EV_DEAD', subjects: ['dead.>'] });
    const consumption = consumeEvents(consumer, () => undefined, { js, deadLetterSubject: 'dead.ev' });
    await js.publish('ev.x', encode(valid('A-1')));
    await until(() => consumption.counts.handled === 1, 'one message handled');
    await jsm.consumers.delete('EV', 'workers');
    const outcome = await settled(consumption.closed, 30_000);
    expect(outcome.state).toBe('rejected');
    expect(outcome.error!.message).toMatch(/stopped receiving messages without stop\(\) \(the consumer was deleted/);
  }, 60_000);

  it('rejects closed when the broker stays down past the reconnect budget', async () => {
    const { js, jsm, server, consumer } = await broker([], { maxReconnectAttempts: 2, reconnectTimeWait: 100 });
    await jsm.streams.add({ name: 'EV_DEAD', subjects: ['dead.>'] });
    const consumption = consumeEvents(consumer, () => undefined, { js, deadLetterSubject: 'dead.ev' });
    await js.publish('ev.x', encode(valid('A-1')));
    await until(() => consumption.counts.handled === 1, 'one message handled');
    await server.stop();
    const outcome = await settled(consumption.closed, 30_000);
    expect(outcome.state).toBe('rejected');
    expect(outcome.error!.message).toMatch(/stopped receiving messages without stop\(\).*connection closed/);
  }, 60_000);

  it('dead-letters an invalid message of 1 MiB − 1 byte with its bytes intact, shrinking the issues header to fit max_payload', async () => {
    const { js, jsm, consumer } = await broker(maxPayloadArgs(MiB + 200));
    await jsm.streams.add({ name: 'EV_DEAD', subjects: ['dead.>'] });
    const data = invalidOfSize(MiB - 1);
    await js.publish('ev.x', data);
    const consumption = consumeEvents(consumer, () => undefined, { js, deadLetterSubject: 'dead.ev', backoffMs: 20 });
    await until(() => consumption.counts.deadLettered.invalid_payload === 1, 'the dead letter', 30_000);
    await consumption.stop();
    await expect(consumption.closed).resolves.toBeUndefined();
    const stored = await jsm.streams.getMessage('EV_DEAD', { seq: 1 });
    expect(stored!.data).toEqual(data);
    expect(stored!.header.get(DEAD_LETTER_HEADERS.reason)).toBe('invalid_payload');
    // Its one issue (129 bytes of header) does not fit in the 200 bytes over 1 MiB; the other headers do.
    expect(stored!.header.get(DEAD_LETTER_HEADERS.issues)).toBe('[]');
    expect(stored!.header.get(DEAD_LETTER_HEADERS.streamSeq)).toBe('1');
    expect(consumption.counts.retried).toBe(0);
  }, 60_000);

  it('publishEvent refuses an event too large to be dead-lettered whole, and publishes one that fits', async () => {
    const { js, jsm } = await broker(maxPayloadArgs(64 * 1024));
    await jsm.streams.add({ name: 'EVENTS', subjects: ['events.>'] });
    const sized = (bytes: number) => {
      const event = { type: 'account.created', version: 'v1', payload: { account_number: '', account_user_emails: [] as string[] } } satisfies CatalogEvent;
      event.payload.account_number = 'A'.repeat(bytes - JSON.stringify(event).length);
      expect(JSON.stringify(event).length).toBe(bytes);
      return event;
    };
    await expect(publishEvent(js, sized(64 * 1024 - DEAD_LETTER_HEADROOM + 1))).rejects.toThrow(/within 1024 bytes of the server's max_payload of 65536: a consumer could not dead-letter it whole/);
    expect((await jsm.streams.info('EVENTS')).state.messages).toBe(0);
    await expect(publishEvent(js, sized(64 * 1024 - DEAD_LETTER_HEADROOM))).resolves.toMatchObject({ stream: 'EVENTS' });
  }, 60_000);

  it('dead-letters by reference, and goes on, a message too large to travel whole with its headers; replay leaves it (too_large)', async () => {
    const { js, jsm, consumer } = await broker(maxPayloadArgs(MiB));
    await jsm.streams.add({ name: 'EV_DEAD', subjects: ['dead.>'] });
    const data = invalidOfSize(MiB - 1);
    await js.publish('ev.x', data);
    await js.publish('ev.x', encode(valid('A-after')));
    const handled: string[] = [];
    const consumption = consumeEvents(consumer, (event) => void handled.push((event.payload as { account_number: string }).account_number), { js, deadLetterSubject: 'dead.ev', backoffMs: 20 });
    await until(() => consumption.counts.handled === 1, 'the message behind it handled', 30_000);
    await consumption.stop();
    await expect(consumption.closed).resolves.toBeUndefined();
    expect(handled).toEqual(['A-after']);
    expect(consumption.counts).toMatchObject({ received: 2, handled: 1, retried: 0, deadLettered: { invalid_payload: 1 } });
    const stored = await jsm.streams.getMessage('EV_DEAD', { seq: 1 });
    expect(stored!.data).toEqual(data.subarray(0, 1024));
    expect(Object.fromEntries(Object.values(DEAD_LETTER_HEADERS).map((h) => [h, stored!.header.get(h)]))).toEqual({
      'Catalog-Reason': 'invalid_payload',
      'Catalog-Issues': expect.stringContaining('/payload/account_number'),
      'Catalog-Subject': 'ev.x',
      'Catalog-Stream': 'EV',
      'Catalog-Stream-Seq': '1',
      'Catalog-Deliveries': '1',
      'Catalog-By-Reference': 'true',
      'Catalog-Original-Size': String(MiB - 1),
      'Catalog-Original-Sha256': createHash('sha256').update(data).digest('hex'),
    });
    // The original stays in its stream, where the reference points, and is not delivered again.
    expect((await jsm.streams.getMessage('EV', { seq: 1 }))!.data).toEqual(data);
    expect(await consumer.info()).toMatchObject({ num_pending: 0, num_ack_pending: 0 });
    expect(await replayDeadLetters(jsm, { stream: 'EV_DEAD', maxMessageBytes: 2 * MiB })).toMatchObject({ examined: 1, moved: 0, kept: { too_large: 1 } });
    expect((await jsm.streams.info('EV_DEAD')).state.messages).toBe(1);
  }, 60_000);
});
