/**
 * OpenTelemetry, when the application has it. `@opentelemetry/api` is an optional peer
 * dependency: it is loaded on first use, and when it is not installed nothing is loaded,
 * nothing is warned and every instrumented path costs one `null` check. With it installed,
 * spans and metrics go to whatever tracer and meter providers the application registered
 * globally (none registered: the API's no-op ones).
 *
 * The names follow the OpenTelemetry semantic conventions, pinned to one version
 * (`SEMCONV_VERSION`): messaging for the broker adapters, HTTP for the REST client.
 */
import type * as OpenTelemetry from '@opentelemetry/api';

export type OpenTelemetryApi = typeof OpenTelemetry;

/** The tracer's and the meter's name. */
export const INSTRUMENTATION_SCOPE = '@data-import/event-catalog';
/** The semantic conventions the names and attributes follow. */
export const SEMCONV_VERSION = '1.28.0';
const SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

// Written by the package build; absent when the sources run as they are (tests).
declare const __EVENT_CATALOG_VERSION__: string | undefined;
const VERSION = typeof __EVENT_CATALOG_VERSION__ === 'string' ? __EVENT_CATALOG_VERSION__ : undefined;

/**
 * Held in a variable so that a bundler does not try to resolve it: an application bundled
 * without `@opentelemetry/api` still builds, and simply has no telemetry.
 */
const API_MODULE = '@opentelemetry/api';

let loading: Promise<OpenTelemetryApi | null> | undefined;
let loaded: OpenTelemetryApi | null | undefined;

/** The API, or `null` when the application does not have it; loaded once. Never rejects. */
export function loadOpenTelemetry(): Promise<OpenTelemetryApi | null> {
  loading ??= (import(API_MODULE) as Promise<Partial<OpenTelemetryApi> & { default?: OpenTelemetryApi }>).then(
    (module) => (loaded = module.trace !== undefined ? (module as OpenTelemetryApi) : (module.default ?? null)),
    () => (loaded = null),
  );
  return loading;
}

/** The API if `loadOpenTelemetry()` has found it already: for code that must not wait. */
export const openTelemetryNow = (): OpenTelemetryApi | null => loaded ?? null;

/** The package's tracer: the API's proxy, so a provider registered later is still used. */
export const tracerOf = (api: OpenTelemetryApi): OpenTelemetry.Tracer => api.trace.getTracerProvider().getTracer(INSTRUMENTATION_SCOPE, VERSION, { schemaUrl: SCHEMA_URL });

/**
 * Instruments made for the meter provider registered now, made again when another is
 * registered (the metrics API hands out no proxy: a meter taken before the application
 * registers its provider would stay a no-op for ever).
 */
export function cachedByMeterProvider<T>(make: (meter: OpenTelemetry.Meter) => T): (api: OpenTelemetryApi) => T {
  let provider: OpenTelemetry.MeterProvider | undefined;
  let made: T | undefined;
  return (api) => {
    const current = api.metrics.getMeterProvider();
    if (current !== provider || made === undefined) {
      provider = current;
      made = make(current.getMeter(INSTRUMENTATION_SCOPE, VERSION, { schemaUrl: SCHEMA_URL }));
    }
    return made;
  };
}

/** The API's own no-op tracer provider: what the global one delegates to until an SDK registers. */
let noopTracerProvider: OpenTelemetry.TracerProvider | undefined;

/**
 * Whether anything would receive a span or a measurement: a tracer provider or a meter
 * provider registered globally. Without either, the API answers every call with a no-op, and
 * making those calls per message still costs (a span object, a context, attribute objects):
 * instrumented paths ask this first. Asked each time, so a provider registered later is used.
 */
export function telemetryEnabled(api: OpenTelemetryApi): boolean {
  noopTracerProvider ??= new api.ProxyTracerProvider().getDelegate();
  const tracerProvider = api.trace.getTracerProvider();
  if ((tracerProvider instanceof api.ProxyTracerProvider ? tracerProvider.getDelegate() : tracerProvider) !== noopTracerProvider) return true;
  return api.metrics.getMeterProvider().getMeter(INSTRUMENTATION_SCOPE) !== api.createNoopMeter();
}

/** The semantic conventions' bucket advice for a duration histogram, in seconds (`messaging.process.duration`, `http.client.request.duration`). */
export const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** What an error is, for `error.type`: its class name (a bounded set), never its message. */
export const errorType = (error: unknown): string => (error instanceof Error ? error.name || 'Error' : '_OTHER');
