/**
 * Traces and metrics of the REST client, when the application has OpenTelemetry
 * (`internal/telemetry.ts`), following the HTTP client semantic conventions (`SEMCONV_VERSION`).
 * Without `@opentelemetry/api`, `clientTelemetry()` gives `null` and the client skips every
 * call below.
 *
 * Each operation call is one INTERNAL span named by its operation id, holding the call's
 * outcome; each HTTP attempt below it is a CLIENT span `{METHOD} {url.template}`, whose
 * context the request carries (`traceparent`, `tracestate`), and one point of
 * `http.client.request.duration`. The parent keeps a call's attempts together in one trace
 * even when the caller has no span of its own, and its length includes the back-off waits
 * that no attempt span covers.
 *
 * Cardinality stays bounded: the path is always the OpenAPI template, never the filled path
 * nor `url.full` (both carry account numbers), and no error message is recorded (a fetch
 * error may quote the URL): `error.type` is a status code, a result code or a class name.
 */
import { cachedByMeterProvider, DURATION_BUCKETS_SECONDS, errorType, loadOpenTelemetry, tracerOf, type OpenTelemetryApi } from '../internal/telemetry.js';

/** The span and context types, through the API's own type (runtime/rest/ names no package). */
type Tracer = ReturnType<typeof tracerOf>;
type Span = ReturnType<Tracer['startSpan']>;
type Context = ReturnType<OpenTelemetryApi['context']['active']>;
type Attributes = Record<string, string | number>;

/** The package's own attributes, beside the semantic conventions'. */
const REST_ATTRIBUTES = {
  /** On both spans: the operation id (`processAccount`). */
  operationId: 'data_import.operation_id',
  /** On the operation span: the HTTP attempts made (0 for a request refused before sending). */
  attempts: 'data_import.attempts',
} as const;

const REQUEST_DURATION = 'http.client.request.duration';


const requestDurationOf = cachedByMeterProvider((meter) =>
  meter.createHistogram(REQUEST_DURATION, { unit: 's', description: 'Duration of HTTP client requests.', advice: { explicitBucketBoundaries: DURATION_BUCKETS_SECONDS } }),
);

/** The service's host and port, as `server.address` and `server.port`. */
export interface ServerAttributes {
  'server.address'?: string;
  'server.port'?: number;
}

/** From the client's base address; nothing when it does not parse (the call itself will say why). */
export function serverAttributesOf(base: string): ServerAttributes {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return {};
  }
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : undefined;
  return { 'server.address': url.hostname.replace(/^\[(.*)\]$/, '$1'), ...(port !== undefined && { 'server.port': port }) };
}

/** What the operation span needs of a call's result. */
export interface CallOutcome {
  ok: boolean;
  status: number;
  dryRun?: true;
  error?: { code: string };
}

export interface ClientTelemetry {
  /** Starts an operation call's span, a child of the active context. */
  operation(operation: { operationId: string; method: string; path: string }): OperationTrace;
}

export interface OperationTrace {
  /** Starts the next attempt's CLIENT span and writes its context into the request's headers. */
  attempt(headers: Record<string, string>): AttemptTrace;
  /** Ends the span with the call's result: failed unless `ok` (a dry run's 400 is not a failure). */
  end(outcome: CallOutcome): void;
  /** Ends the span with the call's rejection (network failure after the last attempt, abort). */
  fail(error: unknown): void;
}

export interface AttemptTrace {
  /** Runs the request inside the attempt's context (so an instrumented `fetch` nests below it). */
  run<R>(send: () => Promise<R>): Promise<R>;
  /** The response was read: ends the span and records the duration. */
  responded(status: number): void;
  /** No response, or its body could not be read. */
  failed(error: unknown, status?: number): void;
}

export async function clientTelemetry(server: ServerAttributes): Promise<ClientTelemetry | null> {
  const api = await loadOpenTelemetry();
  return api === null ? null : { operation: (operation) => beginOperation(api, server, operation) };
}

function beginOperation(api: OpenTelemetryApi, server: ServerAttributes, operation: { operationId: string; method: string; path: string }): OperationTrace {
  const tracer = tracerOf(api);
  const parent = api.context.active();
  const span = tracer.startSpan(operation.operationId, { kind: api.SpanKind.INTERNAL, attributes: { [REST_ATTRIBUTES.operationId]: operation.operationId } }, parent);
  const context = api.trace.setSpan(parent, span);
  // The attributes every attempt's span and duration point share; server.port is Required for both in the conventions.
  const requestAttributes: Attributes = { 'http.request.method': operation.method, 'url.template': operation.path, ...server };
  const spanName = `${operation.method} ${operation.path}`;
  let attempts = 0;

  const close = (failure: string | undefined): void => {
    span.setAttribute(REST_ATTRIBUTES.attempts, attempts);
    if (failure !== undefined) fail(api, span, failure);
    span.end();
  };
  return {
    attempt(headers) {
      const resendCount = attempts++;
      const spanAttributes: Attributes = { [REST_ATTRIBUTES.operationId]: operation.operationId, ...(resendCount > 0 && { 'http.request.resend_count': resendCount }) };
      return beginAttempt(api, tracer, context, { name: spanName, requestAttributes, spanAttributes }, headers);
    },
    end: (outcome) => close(outcome.error?.code ?? (outcome.ok || outcome.dryRun ? undefined : String(outcome.status))),
    fail: (error) => close(errorType(error)),
  };
}

/** An attempt's span: its name, the attributes its duration point shares, and its own. */
interface AttemptSpec {
  name: string;
  requestAttributes: Attributes;
  spanAttributes: Attributes;
}

function beginAttempt(api: OpenTelemetryApi, tracer: Tracer, parent: Context, { name, requestAttributes, spanAttributes }: AttemptSpec, headers: Record<string, string>): AttemptTrace {
  const started = performance.now();
  const span = tracer.startSpan(name, { kind: api.SpanKind.CLIENT, attributes: { ...requestAttributes, ...spanAttributes } }, parent);
  const context = api.trace.setSpan(parent, span);
  api.propagation.inject(context, headers);

  const end = (status: number | undefined, failure: string | undefined): void => {
    const outcome: Attributes = { ...(status !== undefined && { 'http.response.status_code': status }), ...(failure !== undefined && { 'error.type': failure }) };
    span.setAttributes(outcome);
    if (failure !== undefined) fail(api, span, failure);
    span.end();
    requestDurationOf(api).record((performance.now() - started) / 1000, { ...requestAttributes, ...outcome });
  };
  return {
    run: (send) => api.context.with(context, send),
    // The conventions' failure for a client: any status from 400, named by the code itself.
    responded: (status) => end(status, status >= 400 ? String(status) : undefined),
    failed: (error, status) => end(status, errorType(error)),
  };
}

/** Status ERROR, described by `error.type` alone (an error's message may quote the URL). */
function fail(api: OpenTelemetryApi, span: Span, type: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
}
