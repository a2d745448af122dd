/**
 * The JetStream adapter against a real `nats-server` (Debian's 2.9): publish validates
 * first; consume acks, naks with back-off, dead-letters with the reason in headers before
 * acknowledging; replay moves back what is valid now.
 */
import { Socket } from 'node:net';
import { AckPolicy, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager, type JsMsg } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventValidationError, type CatalogEvent } from '../../runtime/index.js';
import { consumeEvents, DEAD_LETTER_HEADERS, publishEvent, replayDeadLetters } from '../../runtime/nats/index.js';
import { startNatsServer, type RunningBroker } from './brokers.js';
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

  it('de-duplicates on msgId', async () => {
    const first = await publishEvent(js, valid('A-2'), { msgId: 'A-2' });
    const again = await publishEvent(js, valid('A-2'), { msgId: 'A-2' });
    expect([first.duplicate, again.duplicate, again.seq]).toEqual([false, true, first.seq]);
  }, 30_000);

  it('rejects an invalid event with its EventError and publishes nothing', async () => {
    const before = (await jsm.streams.info('PUB')).state.messages;
    // Not a catalog event (the type says so): what run-time validation is there for.
    const extra = { ...valid('A-3'), payload: { ...valid('A-3').payload, nickname: 'x' } } as unknown as CatalogEvent;
    const rejected = await publishEvent(js, extra).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(EventValidationError);
    expect((rejected as EventValidationError).error).toMatchObject({ code: 'invalid_payload', issues: [{ path: '/payload/nickname', code: 'additional_property' }] });
    await expect(publishEvent(js, { type: 'nope', version: 'v1', payload: {} } as unknown as CatalogEvent)).rejects.toMatchObject({ error: { code: 'unknown_event_type' } });
    // Tolerant on request, and to a subject of the caller's choosing.
    await expect(publishEvent(js, extra, { mode: 'tolerant', subject: 'events.custom' })).resolves.toMatchObject({ duplicate: false });
    expect((await jsm.streams.info('PUB')).state.messages).toBe(before + 1);
  }, 30_000);
});

describe('consumeEvents', () => {
  // A handler that returns a plain value is settled without an await; one that returns a promise, once it settles.
  it.each([
    ['returns a plain value', 'MIX', (work: () => void) => work()],
    ['returns a promise', 'MIXASYNC', async (work: () => void) => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      work();
    }],
  ])('handles, retries and dead-letters each message as the core decides, with the reason in headers (a handler that %s)', async (_kind, name, run) => {
    const { consumer, deadLetterSubject } = await freshStreams(name);
    const inputs: [string, unknown][] = [
      ['ok-1', valid('A-1')],
      ['invalid', { ...valid('x'), payload: { account_user_emails: [] } }],
      ['malformed', '{"type": "account.created",'],
      ['unknown type', { ...valid('A-9'), type: 'account.teleported' }],
      ['unknown version', { ...valid('A-9'), version: 'v99' }],
      ['fails once', valid('FLAKY')],
      ['always fails', valid('BROKEN')],
      ['ok-2', valid('A-2')],
    ];
    for (const [, message] of inputs) await js.publish(`${name}.events`, encode(message));

    const handled: string[] = [];
    let flaky = 0;
    const consumption = consumeEvents(
      consumer,
      (event: CatalogEvent, msg: JsMsg) =>
        run(() => {
          const account = (event.payload as { account_number: string }).account_number;
          if (account === 'BROKEN') throw new Error('database down');
          if (account === 'FLAKY' && flaky++ === 0) throw new Error('timeout');
          handled.push(`${account}@${msg.info.deliveryCount}`);
        }),
      { js, deadLetterSubject, maxDeliver: 3, backoffMs: 20 },
    );
    await until(() => consumption.counts.handled + Object.values(consumption.counts.deadLettered).reduce((a, b) => a + b) === 8, 'every message settled');
    await consumption.stop();
    await expect(consumption.closed).resolves.toBeUndefined();

    expect(handled.sort()).toEqual(['A-1@1', 'A-2@1', 'FLAKY@2']);
    expect(consumption.counts).toEqual({
      received: 11,
      handled: 3,
      ignored: 0,
      retried: 3,
      deadLettered: { malformed_message: 1, invalid_payload: 1, unknown_event_type: 1, unknown_event_version: 1, handler_failed: 1 },
      stalls: expect.any(Number),
    });
    const letters = await deadLetters(`${name}_DEAD`);
    expect(letters.map((l) => l.headers['Catalog-Reason'])).toEqual(['invalid_payload', 'malformed_message', 'unknown_event_type', 'unknown_event_version', 'handler_failed']);
    expect(letters[1]!.data).toBe('{"type": "account.created",');
    expect(letters[0]!.headers).toEqual({
      'Catalog-Reason': 'invalid_payload',
      'Catalog-Issues': expect.any(String),
      'Catalog-Subject': `${name}.events`,
      'Catalog-Stream': name,
      'Catalog-Stream-Seq': '2',
      'Catalog-Deliveries': '1',
    });
    expect(JSON.parse(letters[0]!.headers['Catalog-Issues']!)).toEqual([{ path: '/payload/account_number', code: 'required', message: expect.any(String) }]);
    expect(letters[4]!.headers).toMatchObject({ 'Catalog-Stream-Seq': '7', 'Catalog-Deliveries': '3' });
    expect(JSON.parse(letters[4]!.headers['Catalog-Issues']!)).toEqual([{ path: '', code: 'handler_error', message: 'Error: database down' }]);
    // Every original is acknowledged: nothing is left for the consumer.
    expect(await consumer.info()).toMatchObject({ num_pending: 0, num_ack_pending: 0 });
  }, 60_000);

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

  it("unknown: 'ack' acknowledges unknown events without a dead letter", async () => {
    const { consumer, deadLetterSubject } = await freshStreams('UNK');
    await js.publish('UNK.events', encode({ ...valid('A'), version: 'v99' }));
    const consumption = consumeEvents(consumer, () => undefined, { js, deadLetterSubject, unknown: 'ack' });
    await until(() => consumption.counts.received === 1, 'one message');
    await consumption.stop();
    expect(consumption.counts).toMatchObject({ received: 1, ignored: 1 });
    expect((await jsm.streams.info('UNK_DEAD')).state.messages).toBe(0);
  }, 60_000);

  it('stop() lets the message in flight finish and acknowledges it', async () => {
    const { consumer, deadLetterSubject } = await freshStreams('STOP');
    await js.publish('STOP.events', encode(valid('SLOW')));
    let release!: () => void;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finished = false;
    const consumption = consumeEvents(
      consumer,
      async () => {
        release();
        await new Promise((resolve) => setTimeout(resolve, 300));
        finished = true;
      },
      { js, deadLetterSubject },
    );
    await started;
    await consumption.stop();
    expect(finished).toBe(true);
    expect(consumption.counts).toMatchObject({ received: 1, handled: 1 });
    await until(async () => (await consumer.info()).num_ack_pending === 0, 'the ack');
  }, 60_000);

  it('reports a handler that outlasts ack_wait in progress, so that its message is not delivered again', async () => {
    const { consumer, deadLetterSubject } = await freshStreams('LONG', 1000);
    await js.publish('LONG.events', encode(valid('SLOW')));
    const deliveries: number[] = [];
    const consumption = consumeEvents(
      consumer,
      async (_event, msg: JsMsg) => {
        deliveries.push(msg.info.deliveryCount);
        await new Promise((resolve) => setTimeout(resolve, 2500));
      },
      { js, deadLetterSubject },
    );
    await until(() => consumption.counts.handled === 1, 'the slow message handled');
    // Long enough for a redelivery to arrive, had the server given up on the first delivery.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await consumption.stop();
    expect(deliveries).toEqual([1]);
    expect(consumption.counts).toMatchObject({ received: 1, handled: 1, retried: 0 });
    expect(await consumer.info()).toMatchObject({ num_redelivered: 0, num_ack_pending: 0 });
  }, 60_000);

  it('keeps the messages waiting behind a slow handler from expiring: each handled once, none delivered again', async () => {
    // 120 messages of 25 ms each: 3 s of work behind a 1 s ack_wait. nats.js pulls them all ahead of the handler.
    const { consumer, deadLetterSubject } = await freshStreams('QUEUED', 1000);
    for (let i = 0; i < 120; i++) await js.publish('QUEUED.events', encode(valid(`Q-${i}`)));
    const handled: string[] = [];
    const consumption = consumeEvents(
      consumer,
      async (event: CatalogEvent, msg: JsMsg) => {
        handled.push(`${(event.payload as { account_number: string }).account_number}#${msg.info.deliveryCount}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      },
      { js, deadLetterSubject },
    );
    await until(() => consumption.counts.handled === 120, 'every message handled', 30_000);
    // Long enough for a redelivery to arrive, had the server given up on a waiting message.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await consumption.stop();
    expect(handled).toEqual(Array.from({ length: 120 }, (_, i) => `Q-${i}#1`));
    expect(consumption.counts).toMatchObject({ received: 120, handled: 120, retried: 0 });
    expect(await consumer.info()).toMatchObject({ num_redelivered: 0, num_ack_pending: 0 });
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
