/**
 * `@data-import/event-catalog/nats`: catalog events on NATS JetStream. Takes the caller's
 * JetStream client and consumer; never opens a connection of its own.
 */
export { publishEvent, eventSubject, DEAD_LETTER_HEADROOM } from './publish-event.js';
export type { PublishEventOptions } from './publish-event.js';
export { consumeEvents, ConsumerFailedError } from './consume-events.js';
export type { ConsumeEventsOptions } from './consume-events.js';
export { replayDeadLetters } from './replay-dead-letters.js';
export type { ReplayDeadLettersOptions, ReplayReport } from './replay-dead-letters.js';
export { DEAD_LETTER_HEADERS } from './dead-letter-headers.js';
export { decideDelivery, deliveryPolicy, DEAD_LETTER_REASONS } from '../bus/index.js';
export type { BusHandler, Consumption, DeadLetterReason, Delivery, DeliveryCounts, DeliveryDecision, DeliveryOptions, UnknownEventPolicy } from '../bus/index.js';
