/**
 * What only the JetStream adapter has, against a real `nats-server` (Debian's 2.9): the default
 * subject, a subject no stream captures, dead-letter headers whatever the message holds, acks
 * sent in bursts, the subjects replay publishes to. The contract both adapters keep is
 * `broker-contract.test.ts`.
 */
import { Socket } from 'node:net';
import { AckPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CatalogEvent } from '../../runtime/index.js';
import { consumeEvents, DEAD_LETTER_HEADERS, publishEvent, replayDeadLetters } from '../../runtime/nats/index.js';
import { startNatsServer, type RunningBroker } from '../../scripts/local-brokers.js';
import { until } from './until.js';

const valid = (account: string): CatalogEvent => ({ type: 'account.created', version: 'v1', payload: { account_number: account, account_user_emails: [] } });
const encode = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value));

let server: RunningBroker;
let nc: NatsConnection;
let js: JetStreamClient;
let jsm: JetStreamManager;

beforeAll(async () => {
  server = await startNatsServer();
  nc = await connect({ servers: server.url });
  js = jetstream(nc);
  jsm = await jetstreamManager(nc);
}, 60_000);

afterAll(async () => {
  await nc?.close();
  await server?.stop();
}, 60_000);

async function freshStreams(name: string, ackWaitMs = 5000) {
  await jsm.streams.add({ name, subjects: [`${name}.>`] });
  await jsm.streams.add({ name: `${name}_DEAD`, subjects: [`${name}-dead.>`] });
  await jsm.consumers.add(name, { durable_name: 'workers', ack_policy: AckPolicy.Explicit, ack_wait: ackWaitMs * 1_000_000 });
  return { consumer: await js.consumers.get(name, 'workers'), deadLetterSubject: `${name}-dead.events` };
}

async function deadLetters(stream: string) {
  const info = await jsm.streams.info(stream);
  const letters = [];
  for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
    const stored = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
    if (stored) letters.push({ data: new TextDecoder().decode(stored.data), headers: Object.fromEntries(Object.values(DEAD_LETTER_HEADERS).map((h) => [h, stored.header.get(h)]).filter(([, value]) => value !== '')) });
  }
  return letters;
}

describe('publishEvent', () => {
  it('publishes a valid event on events.<type>.<version> and resolves with the acknowledgement', async () => {
    await jsm.streams.add({ name: 'PUB', subjects: ['events.>'] });
    const ack = await publishEvent(js, valid('A-1'));
    expect(ack).toMatchObject({ stream: 'PUB', seq: 1, duplicate: false });
    const stored = await jsm.streams.getMessage('PUB', { seq: 1 });
    expect(stored?.subject).toBe('events.account.created.v1');
    expect(JSON.parse(new TextDecoder().decode(stored!.data))).toEqual(valid('A-1'));
  }, 30_000);

  it('names the subject no stream captures, rather than blaming JetStream', async () => {
    await expect(publishEvent(js, valid('A-0'), { subject: 'uncaptured.x' })).rejects.toThrow(/no stream captures the subject "uncaptured\.x"/);
  }, 30_000);
});

describe('consumeEvents', () => {
  it('keeps headers intact whatever text the message puts into its issues (newlines, non-ASCII, very long)', async () => {
    const { consumer, deadLetterSubject } = await freshStreams('ODD');
    const oddType = `évènement\r\nCatalog-Reason: forged ${'x'.repeat(5000)}`;
    await js.publish('ODD.events', encode({ ...valid('A'), type: oddType }));
    const consumption = consumeEvents(consumer, () => undefined, { js, deadLetterSubject });
    await until(() => consumption.counts.received === 1, 'one message');
    await consumption.stop();
    const [letter] = await deadLetters('ODD_DEAD');
    expect(letter!.headers['Catalog-Reason']).toBe('unknown_event_type');
    const issues = JSON.parse(letter!.headers['Catalog-Issues']!) as { message: string }[];
    expect(issues).toEqual([{ path: '/type', code: 'unknown_event_type', message: expect.stringMatching(/^no event type "évènement\\r\\nCatalog-Reason: forged x+…/) }]);
    expect(letter!.headers['Catalog-Issues']!.length).toBeLessThan(1000);
  }, 60_000);
  it('sends the acks of a burst of messages together: far fewer socket writes than messages, every one acknowledged', async () => {
    const { consumer, deadLetterSubject } = await freshStreams('BURST');
    const burst = 200;
    await Promise.all(Array.from({ length: burst }, (_, i) => js.publish('BURST.events', encode(valid(`B-${i}`)))));
    const writes = vi.spyOn(Socket.prototype, 'write');
    try {
      const consumption = consumeEvents(consumer, () => undefined, { js, deadLetterSubject });
      await until(() => consumption.counts.handled === burst, 'every message handled and acknowledged');
      expect(writes.mock.calls.length).toBeLessThan(burst / 2);
      await consumption.stop();
      expect(consumption.counts).toMatchObject({ received: burst, handled: burst });
    } finally {
      writes.mockRestore();
    }
    await until(async () => (await consumer.info()).num_ack_pending === 0, 'the acks');
    expect(await consumer.info()).toMatchObject({ num_pending: 0, num_redelivered: 0 });
  }, 60_000);

  it('rejects a missing deadLetterSubject at once', async () => {
    const { consumer } = await freshStreams('BAD');
    expect(() => consumeEvents(consumer, () => undefined, { js, deadLetterSubject: '' })).toThrow(/deadLetterSubject/);
  }, 30_000);
});

describe('replayDeadLetters', () => {
  it('publishes again what is valid now, keeps the rest, and says what it moved', async () => {
    const { deadLetterSubject } = await freshStreams('RPL');
    const h = (await import('@nats-io/transport-node')).headers;
    const letter = async (data: unknown, reason: string) => {
      const headers = h();
      headers.set('Catalog-Reason', reason);
      headers.set('Catalog-Subject', 'RPL.events');
      await js.publish(deadLetterSubject, encode(data), { headers });
    };
    await letter(valid('A-1'), 'handler_failed');
    await letter({ ...valid('A-2'), version: 'v99' }, 'unknown_event_version');
    await letter('not json', 'malformed_message');

    const dry = await replayDeadLetters(jsm, { stream: 'RPL_DEAD', dryRun: true });
    expect(dry).toMatchObject({ examined: 3, moved: 1 });
    expect((await jsm.streams.info('RPL')).state.messages).toBe(0);

    const report = await replayDeadLetters(jsm, { stream: 'RPL_DEAD' });
    expect(report).toEqual({
      examined: 3,
      moved: 1,
      kept: { unknown_event_version: 1, malformed_message: 1 },
      movedMessages: [{ deadLetterSeq: 1, subject: 'RPL.events', reason: 'handler_failed' }],
    });
    const republished = await jsm.streams.getMessage('RPL', { seq: 1 });
    expect(JSON.parse(new TextDecoder().decode(republished!.data))).toEqual(valid('A-1'));
    expect((await jsm.streams.info('RPL_DEAD')).state.messages).toBe(2);
    // A second replay finds nothing more to move.
    expect(await replayDeadLetters(jsm, { stream: 'RPL_DEAD' })).toMatchObject({ examined: 2, moved: 0 });
  }, 60_000);
});
