/**
 * The REST client's traces and metrics with the OpenTelemetry SDK registered globally (as an
 * application does), against a real server: one INTERNAL span per operation call, one CLIENT
 * span per attempt below it, the attempt's context on the wire as `traceparent`, one
 * `http.client.request.duration` point per attempt, and no account number anywhere.
 */
import { context, createTraceState, defaultTextMapGetter, metrics, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { DataPointType, MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataImportClient, DataImportNetworkError } from '../../runtime/rest/index.js';
import { startScriptedServer, type ReceivedRequest, type ScriptedServer } from './scripted-server.js';

const SERVER = 10_000;
const SCOPE = '@data-import/event-catalog';

/** Every attribute key an attempt's CLIENT span may carry: the HTTP conventions' and the operation id. */
const ATTEMPT_SPAN_KEYS = ['data_import.operation_id', 'error.type', 'http.request.method', 'http.request.resend_count', 'http.response.status_code', 'server.address', 'server.port', 'url.template'];
/** Every attribute key an operation call's INTERNAL span may carry. */
const OPERATION_SPAN_KEYS = ['data_import.attempts', 'data_import.operation_id', 'error.type'];
/** Every attribute key of an `http.client.request.duration` point. */
const DURATION_KEYS = ['error.type', 'http.request.method', 'http.response.status_code', 'server.address', 'server.port', 'url.template'];

const PROCESS_PATH = '/v1/data-import/account-import-process/process/';
const STATUS_PATH = '/v1/data-import/account-transfer-status/{import_supplier_code}/{external_account_number}/';

/** Hands its metrics over when asked, and only then. */
class CollectingReader extends MetricReader {
  protected override onShutdown = (): Promise<void> => Promise.resolve();
  protected override onForceFlush = (): Promise<void> => Promise.resolve();
}

const spans = new InMemorySpanExporter();
let reader: CollectingReader;
let server: ScriptedServer;
const w3c = new W3CTraceContextPropagator();

beforeAll(async () => {
  server = await startScriptedServer();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  propagation.setGlobalPropagator(w3c);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
beforeEach(() => {
  // A meter provider per test, so each test sees its own points only.
  metrics.disable();
  reader = new CollectingReader();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});
afterEach(() => {
  expect(server.unanswered(), 'every scripted answer was asked for').toBe(0);
  server.reset();
  spans.reset();
});
afterAll(async () => {
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
  await server.close();
});

const client = () => createDataImportClient({ baseUrl: server.url, token: 't', retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 } });

const finished = (kind: SpanKind): ReadableSpan[] => spans.getFinishedSpans().filter((span) => span.kind === kind);
const only = <T>(items: T[]): T => {
  expect(items).toHaveLength(1);
  return items[0]!;
};

/** The `http.client.request.duration` points collected since the test began. */
async function durationPoints(): Promise<{ attributes: Attributes; count: number; sum: number }[]> {
  const { resourceMetrics } = await reader.collect();
  const scope = only(resourceMetrics.scopeMetrics.filter((s) => s.scope.name === SCOPE));
  const metric = only(scope.metrics.filter((m) => m.descriptor.name === 'http.client.request.duration')) as HistogramMetricData;
  expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
  expect(metric.descriptor.unit).toBe('s');
  return metric.dataPoints.map((point) => ({ attributes: point.attributes, count: point.value.count, sum: point.value.sum ?? Number.NaN }));
}

/** The span context a request carried, read back by the W3C propagator. */
function carried(request: ReceivedRequest): { traceId: string; spanId: string } | undefined {
  const spanContext = trace.getSpanContext(w3c.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter));
  return spanContext && { traceId: spanContext.traceId, spanId: spanContext.spanId };
}

function expectKeysWithin(span: ReadableSpan, keys: readonly string[]): void {
  expect(
    Object.keys(span.attributes).filter((key) => !keys.includes(key)),
    `${span.name}: attributes outside the golden list`,
  ).toEqual([]);
}

describe('one call with a retry', () => {
  it(
    '429 then 201 on processAccount: two CLIENT spans under one operation span, in one trace; each request carries its own span',
    async () => {
      server.answer({ status: 429, text: 'busy', headers: { 'retry-after': '0' } }, { status: 201, json: { platform_account_number: 'P-1' } });
      const result = await client().processAccount({ external_account_number: 'A-1', import_supplier_code: 'SUP', operations_team_name: 'Migrations' });
      expect(result).toEqual({ ok: true, status: 201, body: { platform_account_number: 'P-1' } });

      const operation = only(finished(SpanKind.INTERNAL));
      expect(operation.name).toBe('processAccount');
      expect(operation.instrumentationScope.name).toBe(SCOPE);
      expect(operation.attributes).toEqual({ 'data_import.operation_id': 'processAccount', 'data_import.attempts': 2 });
      expect(operation.status.code).toBe(SpanStatusCode.UNSET);
      expect(operation.parentSpanContext, 'no caller span: the operation span is the root').toBeUndefined();

      const attempts = finished(SpanKind.CLIENT);
      expect(attempts.map((span) => span.name)).toEqual([`POST ${PROCESS_PATH}`, `POST ${PROCESS_PATH}`]);
      const shared = { 'http.request.method': 'POST', 'url.template': PROCESS_PATH, 'server.address': '127.0.0.1', 'server.port': server.port, 'data_import.operation_id': 'processAccount' };
      expect(attempts[0]!.attributes).toEqual({ ...shared, 'http.response.status_code': 429, 'error.type': '429' });
      expect(attempts[0]!.status).toEqual({ code: SpanStatusCode.ERROR, message: '429' });
      expect(attempts[1]!.attributes).toEqual({ ...shared, 'http.request.resend_count': 1, 'http.response.status_code': 201 });
      expect(attempts[1]!.status.code).toBe(SpanStatusCode.UNSET);
      for (const span of attempts) {
        expectKeysWithin(span, ATTEMPT_SPAN_KEYS);
        expect(span.spanContext().traceId).toBe(operation.spanContext().traceId);
        expect(span.parentSpanContext?.spanId).toBe(operation.spanContext().spanId);
      }
      expectKeysWithin(operation, OPERATION_SPAN_KEYS);

      // What the server received is each attempt's own span context, as the W3C propagator reads it.
      expect(server.received.map(carried)).toEqual(attempts.map((span) => ({ traceId: span.spanContext().traceId, spanId: span.spanContext().spanId })));
      expect(server.received[0]!.headers.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

      const points = await durationPoints();
      const base = { 'http.request.method': 'POST', 'url.template': PROCESS_PATH, 'server.address': '127.0.0.1', 'server.port': server.port };
      expect(points.map((p) => [p.attributes, p.count])).toEqual([
        [{ ...base, 'http.response.status_code': 429, 'error.type': '429' }, 1],
        [{ ...base, 'http.response.status_code': 201 }, 1],
      ]);
      for (const point of points) {
        expect(Object.keys(point.attributes).filter((key) => !DURATION_KEYS.includes(key))).toEqual([]);
        expect(point.sum).toBeGreaterThan(0);
        expect(point.sum).toBeLessThan(SERVER / 1000);
      }
    },
    SERVER,
  );

  it(
    'inside the caller’s span, the operation span is its child: the attempts are in the caller’s trace',
    async () => {
      server.answer({ status: 429, text: 'busy', headers: { 'retry-after': '0' } }, { status: 201, json: { platform_account_number: 'P-1' } });
      const tracer = trace.getTracer('the application');
      const caller = await tracer.startActiveSpan('migrate one account', async (span) => {
        await client().processAccount({ external_account_number: 'A-1', import_supplier_code: 'SUP', operations_team_name: 'Migrations' });
        span.end();
        return span.spanContext();
      });
      const operation = only(finished(SpanKind.INTERNAL).filter((span) => span.name === 'processAccount'));
      expect(operation.parentSpanContext?.spanId).toBe(caller.spanId);
      expect(finished(SpanKind.CLIENT).map((span) => span.spanContext().traceId)).toEqual([caller.traceId, caller.traceId]);
      expect(server.received.map((request) => carried(request)?.traceId)).toEqual([caller.traceId, caller.traceId]);
    },
    SERVER,
  );
});

describe('a trace that came from elsewhere', () => {
  it(
    'continues it: the attempts join the remote trace and pass its tracestate on',
    async () => {
      server.answer({ status: 201, json: { platform_account_number: 'P-1' } });
      const remote = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1, isRemote: true, traceState: createTraceState('vendor=opaque') };
      await context.with(trace.setSpanContext(ROOT_CONTEXT, remote), () =>
        client().processAccount({ external_account_number: 'A-1', import_supplier_code: 'SUP', operations_team_name: 'Migrations' }),
      );
      const attempt = only(finished(SpanKind.CLIENT));
      expect(only(finished(SpanKind.INTERNAL)).parentSpanContext?.spanId).toBe(remote.spanId);
      expect(server.received[0]!.headers.traceparent).toBe(`00-${remote.traceId}-${attempt.spanContext().spanId}-01`);
      expect(server.received[0]!.headers.tracestate).toBe('vendor=opaque');
    },
    SERVER,
  );
});

describe('no account number in a span name or any attribute', () => {
  const ACCOUNT = '90000000417';

  it(
    'a GET whose path carries it, retried after a dropped connection: the template, never the filled path',
    async () => {
      server.answer({ status: 0, drop: true }, { status: 200, json: { status: 'COMPLETED', platform_account_number: `P-${ACCOUNT}` } });
      expect(await client().getAccountTransferStatus({ import_supplier_code: 'SUP', external_account_number: ACCOUNT })).toMatchObject({ ok: true, status: 200 });
      // The number was on the wire: the checks below could find it.
      expect(server.received.map((request) => request.url)).toEqual([`/v1/data-import/account-transfer-status/SUP/${ACCOUNT}/`, `/v1/data-import/account-transfer-status/SUP/${ACCOUNT}/`]);

      const attempts = finished(SpanKind.CLIENT);
      const shared = { 'http.request.method': 'GET', 'url.template': STATUS_PATH, 'server.address': '127.0.0.1', 'server.port': server.port, 'data_import.operation_id': 'getAccountTransferStatus' };
      expect(attempts.map((span) => [span.name, span.attributes, span.status.code])).toEqual([
        [`GET ${STATUS_PATH}`, { ...shared, 'error.type': 'TypeError' }, SpanStatusCode.ERROR],
        [`GET ${STATUS_PATH}`, { ...shared, 'http.request.resend_count': 1, 'http.response.status_code': 200 }, SpanStatusCode.UNSET],
      ]);
      const points = await durationPoints();
      expect(points.map((p) => p.attributes)).toEqual([
        { 'http.request.method': 'GET', 'url.template': STATUS_PATH, 'server.address': '127.0.0.1', 'server.port': server.port, 'error.type': 'TypeError' },
        { 'http.request.method': 'GET', 'url.template': STATUS_PATH, 'server.address': '127.0.0.1', 'server.port': server.port, 'http.response.status_code': 200 },
      ]);

      const written = [
        ...spans
          .getFinishedSpans()
          .flatMap((span) => [
            span.name,
            span.status.message ?? '',
            ...Object.values(span.attributes).map(String),
            ...span.events.flatMap((e) => [e.name, ...Object.values(e.attributes ?? {}).map(String)]),
          ]),
        ...points.flatMap((p) => Object.values(p.attributes).map(String)),
      ];
      expect(written.length).toBeGreaterThan(20);
      expect(written.filter((text) => text.includes(ACCOUNT))).toEqual([]);
    },
    SERVER,
  );

  it(
    'a POST whose body and answer carry it',
    async () => {
      server.answer({ status: 201, json: { platform_account_number: `P-${ACCOUNT}` } });
      await client().processAccount({ external_account_number: ACCOUNT, import_supplier_code: 'SUP', operations_team_name: 'Migrations' });
      expect(server.received[0]!.body).toContain(ACCOUNT);
      const written = spans.getFinishedSpans().flatMap((span) => [span.name, ...Object.values(span.attributes).map(String)]);
      expect(written.filter((text) => text.includes(ACCOUNT))).toEqual([]);
      expect((await durationPoints()).flatMap((p) => Object.values(p.attributes).map(String)).filter((text) => text.includes(ACCOUNT))).toEqual([]);
    },
    SERVER,
  );
});

describe('the operation span says how the call ended', () => {
  const notes = { import_supplier: 'SUP', external_account_number: 'A-1', notes: [{ body: 'Called.' }] };

  it(
    'a response that breaks the contract: the attempt is a good HTTP exchange, the operation failed with invalid_response',
    async () => {
      server.answer({ status: 201, json: [{ status: 'WEIRD' }] });
      expect(await client().createNotes(notes)).toMatchObject({ ok: false, error: { code: 'invalid_response' } });
      const attempt = only(finished(SpanKind.CLIENT));
      expect(attempt.attributes['http.response.status_code']).toBe(201);
      expect(attempt.status.code).toBe(SpanStatusCode.UNSET);
      const operation = only(finished(SpanKind.INTERNAL));
      expect(operation.attributes).toEqual({ 'data_import.operation_id': 'createNotes', 'data_import.attempts': 1, 'error.type': 'invalid_response' });
      expect(operation.status).toEqual({ code: SpanStatusCode.ERROR, message: 'invalid_response' });
    },
    SERVER,
  );

  it(
    'a request refused before sending: an operation span with no attempt, failed with invalid_request',
    async () => {
      expect(await client().createNotes({ ...notes, notes: [{ body: 'x', created_at: 'yesterday' }] })).toMatchObject({ status: 0, error: { code: 'invalid_request' } });
      expect(server.received).toEqual([]);
      expect(finished(SpanKind.CLIENT)).toEqual([]);
      expect(only(finished(SpanKind.INTERNAL)).attributes).toEqual({ 'data_import.operation_id': 'createNotes', 'data_import.attempts': 0, 'error.type': 'invalid_request' });
    },
    SERVER,
  );

  it(
    'a documented failure (404) fails both spans with the status; a dry run’s 400 fails the exchange, not the call',
    async () => {
      server.answer({ status: 404, text: 'Not Found' }, { status: 400, text: 'Account would successfully import. Rolled back due to Dry Run.' });
      await client().createNotes(notes);
      await client().processAccount({ external_account_number: 'A-1', import_supplier_code: 'SUP', operations_team_name: 'Migrations', dry_run: true });
      expect(finished(SpanKind.CLIENT).map((span) => [span.attributes['http.response.status_code'], span.attributes['error.type'], span.status.code])).toEqual([
        [404, '404', SpanStatusCode.ERROR],
        [400, '400', SpanStatusCode.ERROR],
      ]);
      expect(finished(SpanKind.INTERNAL).map((span) => [span.name, span.attributes['error.type'], span.status.code])).toEqual([
        ['createNotes', '404', SpanStatusCode.ERROR],
        ['processAccount', undefined, SpanStatusCode.UNSET],
      ]);
    },
    SERVER,
  );

  it(
    'a POST that could not be sent: the attempt failed with the error’s class, the call with DataImportNetworkError',
    async () => {
      server.answer({ status: 0, drop: true });
      await expect(client().createNotes(notes)).rejects.toThrow(DataImportNetworkError);
      expect(only(finished(SpanKind.CLIENT)).attributes['error.type']).toBe('TypeError');
      const operation = only(finished(SpanKind.INTERNAL));
      expect(operation.attributes).toEqual({ 'data_import.operation_id': 'createNotes', 'data_import.attempts': 1, 'error.type': 'DataImportNetworkError' });
      expect(operation.status.code).toBe(SpanStatusCode.ERROR);
      expect((await durationPoints()).map((p) => p.attributes['error.type'])).toEqual(['TypeError']);
    },
    SERVER,
  );
});
