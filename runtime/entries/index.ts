/**
 * The code every event entry shares, built once as `dist/entries.js|.cjs`: the
 * validator object around one event's generated module, and `createEventValidator`, which
 * `<package>/create-event-validator` re-exports. One copy in the package, so a program that
 * uses both gets one `EventValidationError` class.
 */
export { defineEventValidator } from './define-event-validator.js';
export { createEventValidator } from './create-event-validator.js';
