/**
 * The transport-free consumer core shared by the broker adapters: one decision per delivered
 * message, the options that steer it and the counts it keeps. No broker client here.
 */
export { decideDelivery, decideDeliveryNow, DEAD_LETTER_REASONS, isThenable } from './decide-delivery.js';
export type { BusHandler, DeadLetterReason, Delivery, DeliveryDecision, NamedEvent } from './decide-delivery.js';
export { deliveryPolicy, positiveInteger, requiredText, retryDelayMs } from './delivery-policy.js';
export type { DeliveryOptions, DeliveryPolicy, UnknownEventPolicy } from './delivery-policy.js';
export { countDecision, emptyCounts, totalDeadLettered } from './delivery-counts.js';
export type { DeliveryCounts } from './delivery-counts.js';
export { boundIssues, MAX_DEAD_LETTER_ISSUES } from './dead-letter-issues.js';
export type { Consumption } from './consumption.js';
export { StallWatch, warningHook } from './stall-watch.js';
export type { ConsumerWarnings } from './stall-watch.js';
export { consumerTelemetry, producerTelemetry, CATALOG_ATTRIBUTES, METRICS } from './telemetry.js';
export type { CarrierReader, ConsumerTelemetry, MessageTrace, MessagingSystem, Outcome, ProducerTelemetry } from './telemetry.js';
export { ConsumerFailedError } from './consumer-failed-error.js';
export { loopPolicy, runConsumerLoop } from './consumer-loop.js';
export type { ConsumerOptions, LoopPolicy } from './consumer-loop.js';
export type { Broker, DeadLetterDecision, Delivered, Prepared } from './broker.js';
