/**
 * The adapters' traces and metrics with the OpenTelemetry SDK registered globally (in-memory
 * exporters), on real brokers: 1,000 publish → consume round trips on each, every process
 * span a child of its producer span, names and attribute keys as documented, outcomes counted
 * exactly, the `traceparent` the package writes read as is by the W3C propagator, and no span
 * name or metric attribute carrying an id or an account number.
 */
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { context, metrics, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { AsyncHooksContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEvent } from '../../runtime/index.js';
import { consumeEvents as consumeNats, publishEvent as publishNats } from '../../runtime/nats/index.js';
import { consumeEvents as consumeRedis, publishEvent as publishRedis } from '../../runtime/redis-streams/index.js';
import { startNatsServer, startRedisServer, type RunningBroker } from '../../scripts/local-brokers.js';
import { until } from './until.js';

const ROUND_TRIPS = 1000;
/** Accounts whose handler always throws: retried once, then dead-lettered (maxDeliver 2). */
const failing = (account: string) => account.endsWith('7');
const FAILING = Array.from({ length: ROUND_TRIPS }, (_, i) => `A-${i}`).filter(failing).length;
/** Published raw, around the package: rejected on arrival, with no producer span. */
const INVALID = 10;

const event = (account: string): CatalogEvent => ({ type: 'account.created', version: 'v1', payload: { account_number: account, account_user_emails: [] } });
const invalid = (i: number) => JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_user_emails: [`${i}`] } });

class TestMetricReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const spans = new InMemorySpanExporter();
let reader: TestMetricReader;

beforeEach(() => {
  const contextManager = new AsyncHooksContextManager();
  contextManager.enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  reader = new TestMetricReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});

afterEach(() => {
  spans.reset();
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
});

let natsServer: RunningBroker;
let redisServer: RunningBroker;
beforeAll(async () => {
  [natsServer, redisServer] = await Promise.all([startNatsServer(), startRedisServer()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([natsServer?.stop(), redisServer?.stop()]);
}, 60_000);

/** The span attribute keys, as documented in the README (a change here is a change to the documented telemetry). */
const SEND_KEYS = ['event_catalog.event.type', 'event_catalog.event.version', 'messaging.destination.name', 'messaging.message.id', 'messaging.operation.name', 'messaging.operation.type', 'messaging.system'];
const PROCESS_KEYS = [
  'event_catalog.event.type',
  'event_catalog.event.version',
  'event_catalog.outcome',
  'messaging.consumer.group.name',
  'messaging.destination.name',
  'messaging.message.id',
  'messaging.operation.name',
  'messaging.operation.type',
  'messaging.system',
];
const DEAD_LETTER_SEND_KEYS = ['event_catalog.dead_letter.reason', 'messaging.destination.name', 'messaging.operation.name', 'messaging.operation.type', 'messaging.system'];

const keysOf = (span: ReadableSpan) => Object.keys(span.attributes).sort();
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

async function collected() {
  const { resourceMetrics } = await reader.collect();
  const all = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => ({ scope: scope.scope.name, ...metric })));
  const points = (name: string) => (all.find((metric) => metric.descriptor.name === name)?.dataPoints ?? []) as DataPoint<number | Histogram>[];
  const sum = (name: string, where: (attributes: Record<string, unknown>) => boolean = () => true) =>
    points(name)
      .filter((point) => where(point.attributes))
      .reduce((total, point) => total + (typeof point.value === 'number' ? point.value : point.value.count), 0);
  return { all, points, sum };
}

/** What both brokers must show after the same traffic. */
async function expectTelemetry(system: 'nats' | 'redis', destination: string, deadLetterDestination: string) {
  const finished = spans.getFinishedSpans();
  const sends = finished.filter((span) => span.kind === SpanKind.PRODUCER && span.name === `send ${destination}`);
  const processes = finished.filter((span) => span.kind === SpanKind.CONSUMER);
  const deadLetterSends = finished.filter((span) => span.kind === SpanKind.PRODUCER && span.name === `send ${deadLetterDestination}`);
  expect(finished.every((span) => span.instrumentationScope.name === '@data-import/event-catalog')).toBe(true);

  expect(sends).toHaveLength(ROUND_TRIPS);
  expect(new Set(sends.map(keysOf).map(String))).toEqual(new Set([String(SEND_KEYS)]));
  expect(sends[0]!.attributes).toMatchObject({ 'messaging.system': system, 'messaging.operation.type': 'send', 'event_catalog.event.type': 'account.created', 'event_catalog.event.version': 'v1' });

  // Every delivery has its span: 1,000, the failing ones twice, and the invalid ones.
  expect(processes).toHaveLength(ROUND_TRIPS + FAILING + INVALID);
  expect(processes.every((span) => span.name === `process ${destination}`)).toBe(true);
  const byId = new Map(sends.map((span) => [span.spanContext().spanId, span]));
  const traced = processes.filter((span) => parentOf(span) !== undefined);
  expect(traced).toHaveLength(ROUND_TRIPS + FAILING);
  for (const span of traced) {
    const producer = byId.get(parentOf(span)!);
    expect(producer, 'a process span is a child of its producer span').toBeDefined();
    expect(span.spanContext().traceId).toBe(producer!.spanContext().traceId);
  }
  const failedKeys = [...PROCESS_KEYS, 'error.type'].sort();
  for (const span of processes) {
    const outcome = span.attributes['event_catalog.outcome'];
    if (outcome === 'handled') expect(keysOf(span)).toEqual(PROCESS_KEYS);
    else if (outcome === 'retried') expect(keysOf(span)).toEqual(failedKeys);
    // A message rejected on arrival names its type and version as far as it could be read; the producer gave it no message id.
    else if (parentOf(span) !== undefined) expect(keysOf(span)).toEqual([...failedKeys, 'event_catalog.dead_letter.reason'].sort());
  }

  const outcomes = (outcome: string) => processes.filter((span) => span.attributes['event_catalog.outcome'] === outcome);
  expect(outcomes('handled')).toHaveLength(ROUND_TRIPS - FAILING);
  expect(outcomes('retried')).toHaveLength(FAILING);
  expect(outcomes('dead_lettered')).toHaveLength(FAILING + INVALID);
  expect(outcomes('retried').every((span) => span.status.code === 2 && span.attributes['error.type'] === 'Error')).toBe(true);
  expect(outcomes('dead_lettered').every((span) => span.status.code === 2)).toBe(true);
  expect(outcomes('dead_lettered').filter((span) => span.attributes['event_catalog.dead_letter.reason'] === 'handler_failed')).toHaveLength(FAILING);
  expect(outcomes('dead_lettered').filter((span) => span.attributes['event_catalog.dead_letter.reason'] === 'invalid_payload')).toHaveLength(INVALID);

  // Each dead letter's publish: a child of its process span, linked to the original's producer.
  expect(deadLetterSends).toHaveLength(FAILING + INVALID);
  const processById = new Map(processes.map((span) => [span.spanContext().spanId, span]));
  for (const span of deadLetterSends) {
    expect(keysOf(span)).toEqual(DEAD_LETTER_SEND_KEYS);
    const processSpan = processById.get(parentOf(span)!);
    expect(processSpan?.attributes['event_catalog.outcome']).toBe('dead_lettered');
    if (parentOf(processSpan!) !== undefined) expect(span.links.map((link) => link.context.spanId)).toEqual([parentOf(processSpan!)]);
    else expect(span.links).toEqual([]);
  }

  const { all, sum } = await collected();
  expect(sum('messaging.client.sent.messages', (a) => a['messaging.destination.name'] === destination)).toBe(ROUND_TRIPS);
  expect(sum('messaging.client.sent.messages', (a) => a['messaging.destination.name'] === deadLetterDestination)).toBe(FAILING + INVALID);
  expect(sum('messaging.client.consumed.messages')).toBe(ROUND_TRIPS + FAILING + INVALID);
  expect(sum('messaging.process.duration')).toBe(ROUND_TRIPS + FAILING + INVALID);
  expect(sum('messaging.process.duration', (a) => a['event_catalog.outcome'] === 'retried')).toBe(FAILING);
  expect(sum('event_catalog.validation.failures')).toBe(INVALID);
  expect(sum('event_catalog.validation.failures', (a) => a['event_catalog.event.type'] === 'account.created' && a['event_catalog.event.version'] === 'v1' && a['event_catalog.error.code'] === 'invalid_payload')).toBe(INVALID);
  expect(all.find((metric) => metric.descriptor.name === 'messaging.process.duration')?.descriptor.unit).toBe('s');

  // Bounded cardinality: no span name and no metric attribute carries an account number or an id.
  const metricValues = all.flatMap((metric) => metric.dataPoints.flatMap((point) => Object.values(point.attributes).map(String)));
  for (const text of [...finished.map((span) => span.name), ...metricValues]) expect(text).not.toMatch(/A-\d|\d+-\d+|:\d+$/);
}

describe('NATS JetStream', () => {
  it(`traces and measures ${ROUND_TRIPS} publish → consume round trips`, async () => {
    const nc = await connect({ servers: natsServer.url });
    try {
      const js = jetstream(nc);
      const jsm = await jetstreamManager(nc);
      await jsm.streams.add({ name: 'TRACED', subjects: ['events.>'] });
      await jsm.streams.add({ name: 'TRACED_DEAD', subjects: ['dead.events'] });
      await jsm.consumers.add('TRACED', { durable_name: 'accounts', ack_policy: AckPolicy.Explicit });
      for (let i = 0; i < ROUND_TRIPS; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => publishNats(js, event(`A-${i + j}`), { msgId: `A-${i + j}` })));
      for (let i = 0; i < INVALID; i++) await js.publish('events.account.created.v1', invalid(i));

      // The W3C propagator reads the header the package wrote, as it is, to the producer span.
      const stored = await jsm.streams.getMessage('TRACED', { seq: 1 });
      const extracted = trace.getSpanContext(new W3CTraceContextPropagator().extract(ROOT_CONTEXT, { traceparent: stored!.header.get('traceparent') }, { get: (c, k) => c[k as 'traceparent'], keys: (c) => Object.keys(c) }));
      const firstSend = spans.getFinishedSpans().find((span) => span.name === 'send events.account.created.v1')!;
      expect(extracted).toMatchObject({ traceId: firstSend.spanContext().traceId, spanId: firstSend.spanContext().spanId, isRemote: true });

      const consumption = consumeNats(await js.consumers.get('TRACED', 'accounts'), (e) => {
        if (failing((e.payload as { account_number: string }).account_number)) throw new Error('handler bug');
      }, { js, deadLetterSubject: 'dead.events', maxDeliver: 2, backoffMs: 1 });
      const settledCount = () => consumption.counts.handled + consumption.counts.deadLettered.handler_failed + consumption.counts.deadLettered.invalid_payload;
      await until(() => settledCount() === ROUND_TRIPS + INVALID, 'every message settled', 60_000);
      await consumption.stop();
      await expectTelemetry('nats', 'events.account.created.v1', 'dead.events');
    } finally {
      await nc.close();
    }
  }, 120_000);
});

describe('Redis Streams', () => {
  it(`traces and measures ${ROUND_TRIPS} publish → consume round trips`, async () => {
    const redis = new Redis(redisServer.url);
    const reader = new Redis(redisServer.url);
    try {
      await redis.xgroup('CREATE', 'traced', 'accounts', '0', 'MKSTREAM');
      for (let i = 0; i < ROUND_TRIPS; i += 100) await Promise.all(Array.from({ length: 100 }, (_, j) => publishRedis(redis, event(`A-${i + j}`), { stream: 'traced', msgId: `A-${i + j}` })));
      for (let i = 0; i < INVALID; i++) await redis.xadd('traced', '*', 'message', invalid(i));

      const [fields] = ((await redis.xrange('traced', '-', '+', 'COUNT', 1)) as [string, string[]][]).map(([, flat]) => flat);
      const traceparent = fields![fields!.indexOf('traceparent') + 1];
      const extracted = trace.getSpanContext(new W3CTraceContextPropagator().extract(ROOT_CONTEXT, { traceparent }, { get: (c, k) => c[k as 'traceparent'], keys: (c) => Object.keys(c) }));
      const firstSend = spans.getFinishedSpans().find((span) => span.name === 'send traced')!;
      expect(extracted).toMatchObject({ traceId: firstSend.spanContext().traceId, spanId: firstSend.spanContext().spanId });

      const consumption = consumeRedis(reader, (e) => {
        if (failing((e.payload as { account_number: string }).account_number)) throw new Error('handler bug');
      }, { stream: 'traced', group: 'accounts', consumer: 'c', deadLetterStream: 'traced:dead', maxDeliver: 2, claimIdleMs: 200, blockMs: 50 });
      const settledCount = () => consumption.counts.handled + consumption.counts.deadLettered.handler_failed + consumption.counts.deadLettered.invalid_payload;
      await until(() => settledCount() === ROUND_TRIPS + INVALID, 'every entry settled', 60_000);
      await consumption.stop();
      await expectTelemetry('redis', 'traced', 'traced:dead');
    } finally {
      reader.disconnect();
      redis.disconnect();
    }
  }, 120_000);
});

describe('with no provider registered when the consumer starts', () => {
  it('makes no span until one is registered, and then traces the next messages without a restart', async () => {
    trace.disable();
    metrics.disable();
    const redis = new Redis(redisServer.url);
    const reader = new Redis(redisServer.url);
    try {
      await redis.xgroup('CREATE', 'late', 'accounts', '0', 'MKSTREAM');
      const consumption = consumeRedis(reader, () => undefined, { stream: 'late', group: 'accounts', consumer: 'c', deadLetterStream: 'late:dead', blockMs: 50 });
      await publishRedis(redis, event('A-1'), { stream: 'late' });
      await until(() => consumption.counts.handled === 1, 'the first message');
      expect(spans.getFinishedSpans()).toEqual([]);

      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
      await publishRedis(redis, event('A-2'), { stream: 'late' });
      await until(() => consumption.counts.handled === 2, 'the second message');
      await consumption.stop();
      expect(spans.getFinishedSpans().map((span) => span.name).sort()).toEqual(['process late', 'send late']);
    } finally {
      reader.disconnect();
      redis.disconnect();
    }
  }, 60_000);
});
