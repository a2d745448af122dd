/**
 * Traces and metrics of the broker adapters, when the application has OpenTelemetry
 * (`internal/telemetry.ts`): messaging semantic conventions (`SEMCONV_VERSION`) plus what
 * only this package knows, the event's type and version, the verdict and the dead-letter
 * reason. Without `@opentelemetry/api`, `producerTelemetry()` and `consumerTelemetry()` give
 * `null` and the adapters skip every call below.
 *
 * Cardinality stays bounded: span names and metric attributes carry destinations, groups,
 * catalog types and versions, codes and outcomes, never a message id or a payload value; a
 * type or version the catalog does not know is left out of metrics (it comes from the message).
 */
import type { Attributes, Context, Counter, Histogram, Link, Span, SpanOptions } from '@opentelemetry/api';
import { eventCatalog, type EventErrorCode } from '../index.js';
import { describeError } from '../internal/describe-error.js';
import { cachedByMeterProvider, DURATION_BUCKETS_SECONDS, errorType, loadOpenTelemetry, telemetryEnabled, tracerOf, type OpenTelemetryApi } from '../internal/telemetry.js';
import type { BusHandler, DeadLetterReason, DeliveryDecision, NamedEvent } from './decide-delivery.js';

export type MessagingSystem = 'nats' | 'redis';

/** The package's own attributes, beside the semantic conventions'. */
export const CATALOG_ATTRIBUTES = {
  eventType: 'event_catalog.event.type',
  eventVersion: 'event_catalog.event.version',
  /** `handled`, `retried`, `dead_lettered`, or `ignored` (an unknown event acknowledged under `unknown: 'ack'`). */
  outcome: 'event_catalog.outcome',
  deadLetterReason: 'event_catalog.dead_letter.reason',
  /** On `event_catalog.validation.failures`: the `EventError` code. */
  errorCode: 'event_catalog.error.code',
} as const;

export type Outcome = 'handled' | 'retried' | 'dead_lettered' | 'ignored';

/** The metric names, as the semantic conventions and this package define them. */
export const METRICS = {
  sent: 'messaging.client.sent.messages',
  consumed: 'messaging.client.consumed.messages',
  processDuration: 'messaging.process.duration',
  validationFailures: 'event_catalog.validation.failures',
} as const;


interface Instruments {
  sent: Counter;
  consumed: Counter;
  processDuration: Histogram;
  validationFailures: Counter;
}

const instrumentsOf = cachedByMeterProvider(
  (meter): Instruments => ({
    sent: meter.createCounter(METRICS.sent, { unit: '{message}', description: 'Messages the producer attempted to send to the broker.' }),
    consumed: meter.createCounter(METRICS.consumed, { unit: '{message}', description: 'Messages delivered to the consumer.' }),
    processDuration: meter.createHistogram(METRICS.processDuration, {
      unit: 's',
      description: 'Time from a message taken from the broker to its settling (validation, handler, acknowledgement or dead letter).',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS_SECONDS },
    }),
    validationFailures: meter.createCounter(METRICS.validationFailures, { unit: '{message}', description: 'Messages rejected by the catalog, by event type, version and error code.' }),
  }),
);

const knownVersions = new Map<string, Set<string>>();
for (const { type, version } of eventCatalog) {
  const versions = knownVersions.get(type) ?? new Set<string>();
  versions.add(version);
  knownVersions.set(type, versions);
}

/** The type and version as metric attributes, each only when the catalog knows it (so the set of values stays the catalog's). */
function eventAttributes(type: unknown, version: unknown): Attributes {
  if (typeof type !== 'string') return {};
  const versions = knownVersions.get(type);
  if (versions === undefined) return {};
  return typeof version === 'string' && versions.has(version) ? { [CATALOG_ATTRIBUTES.eventType]: type, [CATALOG_ATTRIBUTES.eventVersion]: version } : { [CATALOG_ATTRIBUTES.eventType]: type };
}

/** Reads one propagation field (a header, a stream entry field) of a delivered message. */
export type CarrierReader = (name: string) => string | undefined;

const carrierGetter = {
  keys: (): string[] => ['traceparent', 'tracestate'],
  get: (carrier: CarrierReader, key: string): string | undefined => carrier(key),
};

/** What a publish is sent to. */
export interface SendTarget {
  system: MessagingSystem;
  /** The subject (NATS) or stream key (Redis). */
  destination: string;
}

/** Publishing, traced: one per adapter call, `null` without OpenTelemetry. */
export interface ProducerTelemetry {
  /**
   * Runs `send` in a PRODUCER span `send <destination>`, handing it the fields to add to the
   * message (`traceparent`, `tracestate`: whatever the global propagator writes), and counts
   * the message sent (with `error.type` when the send failed).
   */
  send<R>(target: SendTarget, event: { type: string; version: string }, msgId: string | undefined, send: (carrier: Record<string, string>) => Promise<R>): Promise<R>;
}

export async function producerTelemetry(): Promise<ProducerTelemetry | null> {
  const api = await loadOpenTelemetry();
  return api === null ? null : { send: (target, event, msgId, send) => (telemetryEnabled(api) ? tracedSend(api, target, event, msgId, send, api.context.active(), []) : send({})) };
}

function messagingAttributes(system: MessagingSystem, destination: string, operation: 'send' | 'process', group?: string): Attributes {
  const attributes: Attributes = {
    'messaging.system': system,
    'messaging.destination.name': destination,
    'messaging.operation.name': operation,
    'messaging.operation.type': operation,
  };
  if (group !== undefined) attributes['messaging.consumer.group.name'] = group;
  return attributes;
}

async function tracedSend<R>(
  api: OpenTelemetryApi,
  target: SendTarget,
  event: { type: string; version: string },
  msgId: string | undefined,
  send: (carrier: Record<string, string>) => Promise<R>,
  parent: Context,
  links: Link[],
  extra: Attributes = {},
): Promise<R> {
  const metricAttributes = messagingAttributes(target.system, target.destination, 'send');
  const options: SpanOptions = {
    kind: api.SpanKind.PRODUCER,
    attributes: { ...metricAttributes, ...eventAttributes(event.type, event.version), ...extra, ...(msgId !== undefined && { 'messaging.message.id': msgId }) },
    links,
  };
  const span = tracerOf(api).startSpan(`send ${target.destination}`, options, parent);
  const context = api.trace.setSpan(parent, span);
  const carrier: Record<string, string> = {};
  api.propagation.inject(context, carrier);
  const { sent } = instrumentsOf(api);
  try {
    const result = await api.context.with(context, send, undefined, carrier);
    sent.add(1, metricAttributes);
    return result;
  } catch (error) {
    const type = errorType(error);
    span.recordException(error instanceof Error ? error : describeError(error));
    span.setStatus({ code: api.SpanStatusCode.ERROR, message: type });
    span.setAttribute('error.type', type);
    sent.add(1, { ...metricAttributes, 'error.type': type });
    throw error;
  } finally {
    span.end();
  }
}

/** Where a consumer reads from. */
export interface ConsumeTarget {
  system: MessagingSystem;
  /** The consumer group (Redis) or durable consumer (NATS). */
  group: string;
}

/** Consuming, traced: one per consumer, `null` without OpenTelemetry. */
export interface ConsumerTelemetry {
  /**
   * Called when a message is taken from the broker: starts its CONSUMER span `process <destination>`,
   * child of the producer's context; `null` while no provider is registered (nothing would receive it).
   */
  begin(destination: string, messageId: string | undefined, carrier: CarrierReader): MessageTrace | null;
}

/** One message's span, from delivery to settling. */
export interface MessageTrace {
  /** The handler, run inside the process span (so that its own spans are children). */
  wrap<M>(handler: BusHandler<M>): BusHandler<M>;
  /**
   * Publishes the dead letter in a PRODUCER span `send <destination>`, a child of the process
   * span linked to the original's producer context; `send` gets the fields to propagate.
   */
  deadLetter<R>(destination: string, reason: DeadLetterReason, send: (carrier: Record<string, string>) => Promise<R>): Promise<R>;
  /** Ends the span with the decision that settled the message, and records its metrics. */
  end(decision: DeliveryDecision): void;
}

export async function consumerTelemetry(target: ConsumeTarget): Promise<ConsumerTelemetry | null> {
  const api = await loadOpenTelemetry();
  if (api === null) return null;
  return { begin: (destination, messageId, carrier) => (telemetryEnabled(api) ? beginMessage(api, target, destination, messageId, carrier) : null) };
}

const OUTCOMES: Record<DeliveryDecision['action'], Outcome> = { handled: 'handled', ignored: 'ignored', retry: 'retried', dead_letter: 'dead_lettered' };

function beginMessage(api: OpenTelemetryApi, target: ConsumeTarget, destination: string, messageId: string | undefined, carrier: CarrierReader): MessageTrace {
  const started = performance.now();
  const metricAttributes = messagingAttributes(target.system, destination, 'process', target.group);
  const producer = api.propagation.extract(api.ROOT_CONTEXT, carrier, carrierGetter);
  const producerSpan = api.trace.getSpanContext(producer);
  const span: Span = tracerOf(api).startSpan(
    `process ${destination}`,
    { kind: api.SpanKind.CONSUMER, attributes: { ...metricAttributes, ...(messageId !== undefined && { 'messaging.message.id': messageId }) } },
    producer,
  );
  const context = api.trace.setSpan(producer, span);
  const { consumed, processDuration, validationFailures } = instrumentsOf(api);
  consumed.add(1, metricAttributes);
  return {
    wrap: (handler) => (event, message) => api.context.with(context, handler, undefined, event, message),
    deadLetter: (deadLetterDestination, reason, send) =>
      tracedSend(api, { system: target.system, destination: deadLetterDestination }, { type: '', version: '' }, undefined, send, context, producerSpan ? [{ context: producerSpan }] : [], {
        [CATALOG_ATTRIBUTES.deadLetterReason]: reason,
      }),
    end(decision) {
      const outcome = OUTCOMES[decision.action];
      const named = decision.action === 'handled' ? decision.event : decision.named;
      const known = eventAttributes(named.type, named.version);
      span.setAttributes({ ...spanEventAttributes(named), [CATALOG_ATTRIBUTES.outcome]: outcome });
      const failed = decision.action === 'retry' || decision.action === 'dead_letter';
      if (decision.action === 'dead_letter') span.setAttribute(CATALOG_ATTRIBUTES.deadLetterReason, decision.reason);
      if (decision.action !== 'handled' && isValidationFailure(decision.reason)) {
        validationFailures.add(1, { ...known, [CATALOG_ATTRIBUTES.errorCode]: decision.reason, 'messaging.system': target.system });
      }
      if (decision.action === 'retry' && decision.error !== undefined) span.recordException(decision.error instanceof Error ? decision.error : describeError(decision.error));
      if (failed) {
        const type = decision.action === 'dead_letter' ? decision.reason : errorType(decision.error);
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: decision.action === 'dead_letter' ? decision.message : type });
        span.setAttribute('error.type', type);
      }
      span.end();
      processDuration.record((performance.now() - started) / 1000, {
        ...metricAttributes,
        ...known,
        [CATALOG_ATTRIBUTES.outcome]: outcome,
        ...(failed && { 'error.type': decision.action === 'dead_letter' ? decision.reason : errorType(decision.error) }),
      });
    },
  };
}

/** On a span (one message's own record), the type and version as the message gave them. */
function spanEventAttributes(named: NamedEvent): Attributes {
  const attributes: Attributes = {};
  if (typeof named.type === 'string') attributes[CATALOG_ATTRIBUTES.eventType] = named.type;
  if (typeof named.version === 'string') attributes[CATALOG_ATTRIBUTES.eventVersion] = named.version;
  return attributes;
}

const VALIDATION_CODES: ReadonlySet<DeadLetterReason> = new Set<EventErrorCode>(['malformed_message', 'invalid_payload', 'unknown_event_type', 'unknown_event_version']);
const isValidationFailure = (reason: DeadLetterReason): boolean => VALIDATION_CODES.has(reason);
