/**
 * The OpenTelemetry SDK of the bus group's "tracing on" runs, registered globally as an
 * application would before it starts consuming (bundled on its own and loaded only by those
 * runs, so that no other run has any of it):
 *
 * - traces: `BasicTracerProvider` with a `BatchSpanProcessor` (its defaults: batches of 512,
 *   exported as soon as a batch is full) into an `InMemorySpanExporter`. The batch processor is
 *   the one the OpenTelemetry documentation advises for production, and what the Node SDK
 *   registers; the simple processor exports every span on its own as it ends, a cost no
 *   production set-up pays.
 * - metrics: a `MeterProvider` with a `PeriodicExportingMetricReader` into an
 *   `InMemoryMetricExporter` (cumulative), at its default interval (60 s).
 * - the W3C trace-context propagator (`@opentelemetry/core`) and the
 *   `AsyncLocalStorageContextManager` (`@opentelemetry/context-async-hooks`), the Node SDK's default.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';

export interface RegisteredTracing {
  /** Exports what the processor still holds; then the spans exported since the last `reset()`, and the messages the consumed-messages counter has counted in all. */
  flush(): Promise<{ spans: number; consumedMessages: number }>;
  /** Exports what the processor still holds, then forgets every span exported (the exporter keeps them in memory). */
  reset(): Promise<void>;
}

export function registerTracing(): RegisteredTracing {
  const contextManager = new AsyncLocalStorageContextManager();
  contextManager.enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const spans = new InMemorySpanExporter();
  const processor = new BatchSpanProcessor(spans);
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [processor] }));
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE) });
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return {
    async flush() {
      await processor.forceFlush();
      const { resourceMetrics } = await reader.collect();
      let consumedMessages = 0;
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name !== 'messaging.client.consumed.messages') continue;
          for (const point of metric.dataPoints as DataPoint<number>[]) consumedMessages += point.value;
        }
      }
      return { spans: spans.getFinishedSpans().length, consumedMessages };
    },
    async reset() {
      await processor.forceFlush();
      spans.reset();
    },
  };
}
