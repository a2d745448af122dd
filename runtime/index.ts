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
export { EventValidationError } from './internal/result.js';
export type { EventValidator } from './entries/define-event-validator.js';
export type { CreateEventValidator, SelectedEventValidator } from './entries/create-event-validator.js';
export type { StandardSchemaV1 } from './internal/standard-schema.js';
export type { EventError, EventErrorCode, EventIssue, EventValidationResult, Issue, IssueCode, ValidateOptions, ValidationMode, ValidationResult } from './internal/result.js';
export { eventCatalog } from '../generated/registry.cjs';
export type * from '../generated/types.js';
