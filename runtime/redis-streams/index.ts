/**
 * `@data-import/event-catalog/redis-streams`: catalog events on Redis Streams consumer groups.
 * Takes the caller's ioredis connection; never opens one of its own.
 */
export { publishEvent, MESSAGE_FIELD } from './publish-event.js';
export type { PublishEventOptions } from './publish-event.js';
export { consumeEvents, ConsumerFailedError } from './consume-events.js';
export type { ConsumeEventsOptions, StreamMessage } from './consume-events.js';
export { replayDeadLetters } from './replay-dead-letters.js';
export type { ReplayDeadLettersOptions, ReplayReport } from './replay-dead-letters.js';
export { decideDelivery, deliveryPolicy, DEAD_LETTER_REASONS } from '../bus/index.js';
export { DEAD_LETTER_FIELDS } from './dead-letter-fields.js';
export type { BusHandler, Consumption, DeadLetterReason, Delivery, DeliveryCounts, DeliveryDecision, DeliveryOptions, UnknownEventPolicy } from '../bus/index.js';
