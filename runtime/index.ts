/**
 * The package root: validate, decode and dispatch bus messages against the catalog.
 * Types come from the generated catalog; nothing here depends on build-time tools.
 */
export { validateEvent, isEvent, parseEvent } from './validate-event.js';
export { decodeEvent } from './decode-event.js';
export { createHandler, createExhaustiveHandler } from './create-handler.js';
export type { EventHandler, EventHandlerFn, ExhaustiveHandlerMap, HandlerMap, HandlerOptions } from './create-handler.js';
export { fromCloudEvent, toCloudEvent, validateCloudEvent } from './cloudevents.js';
export type { StructuredCloudEvent } from './cloudevents.js';
export { EventValidationError } from './result.js';
export type { EventValidationResult, EventValidator } from './event-validator.js';
export type { SelectedEventValidator } from './create-event-validator.js';
export type { StandardSchemaV1 } from './standard-schema.js';
export type { EventError, EventErrorCode, EventIssue, ValidateOptions, ValidationMode, ValidationResult } from './result.js';
export { eventCatalog } from '../generated/registry.cjs';
export type * from '../generated/types.js';
