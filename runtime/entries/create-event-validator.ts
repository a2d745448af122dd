import type { CatalogEvent } from '../../generated/types.js';
import { isPlainObject } from '../internal/plain-object.js';
import { envelopeRejection, notAnObject, unknownEventRejection } from '../internal/envelope.js';
import type { EventValidationResult, EventValidator } from './define-event-validator.js';
import { valueOrThrow, type EventError, type ValidateOptions } from '../internal/result.js';
import { unreadable } from '../internal/unreadable.js';
import { isStrict } from '../internal/validate-options.js';

/** A validator of every event some per-event validators name: what `createEventValidator` returns. */
export interface SelectedEventValidator<E extends CatalogEvent> {
  /** The event versions it knows, in the order given. */
  readonly events: readonly { readonly type: E['type']; readonly version: E['version'] }[];
  /** `validateEvent` over these events only: any other type or version is `unknown_event_type` / `unknown_event_version`. Never throws for a message. */
  validateEvent(message: unknown, options?: ValidateOptions): EventValidationResult<E>;
  isEvent(message: unknown, options?: ValidateOptions): message is E;
  /** Returns the message typed, or throws `EventValidationError`. */
  parseEvent(message: unknown, options?: ValidateOptions): E;
}

/** The event type of a list of per-event validators. */
type EventOfValidators<V extends readonly EventValidator<CatalogEvent>[]> = V[number] extends EventValidator<infer E> ? E : never;

/**
 * `validateEvent` for the events a program names, built from their per-event entries
 * (`<package>/events/<type>/<version>`): a bundle carries those events' validators and this
 * small dispatcher, not the whole catalog. A message of a named event gets exactly the result
 * its event's validator gives; any other is `unknown_event_type` or `unknown_event_version`,
 * as the root says of events the catalog lacks (`knownVersions` lists the named versions).
 * Naming one type and version twice is a programming error: it throws a `TypeError`.
 */
export function createEventValidator<const V extends readonly EventValidator<CatalogEvent>[]>(validators: V): SelectedEventValidator<EventOfValidators<V>> {
  type E = EventOfValidators<V>;
  const byType = new Map<string, Map<string, EventValidator<CatalogEvent>>>();
  for (const validator of validators) {
    const versions = byType.get(validator.type) ?? new Map<string, EventValidator<CatalogEvent>>();
    if (versions.has(validator.version)) throw new TypeError(`createEventValidator: ${validator.type} ${validator.version} is named twice`);
    byType.set(validator.type, versions.set(validator.version, validator));
  }

  const validateEvent = (message: unknown, options?: ValidateOptions): EventValidationResult<E> => {
    // Options that do not exist throw whatever the message, as at the root.
    isStrict(options);
    let validator: EventValidator<CatalogEvent> | undefined;
    try {
      if (!isPlainObject(message)) return notAnObject();
      const { type, version, payload } = message;
      const malformed = envelopeRejection(type, version, payload);
      if (malformed) return malformed;
      validator = byType.get(type as string)?.get(version as string);
      if (validator === undefined) return unknownEvent(byType, type as string, version as string);
    } catch (thrown) {
      return unreadable(thrown);
    }
    return validator.validate(message, options) as EventValidationResult<E>;
  };

  return {
    events: validators.map(({ type, version }) => ({ type, version })),
    validateEvent,
    isEvent: (message, options): message is E => validateEvent(message, options).ok,
    parseEvent: (message, options) => valueOrThrow(validateEvent(message, options)),
  };
}

/** `createEventValidator`'s type: the package's `create-event-validator` entry is declared by it, so its signature is written once. */
export type CreateEventValidator = typeof createEventValidator;

/** Why a well-formed envelope names none of the events: the root's words, about these events. */
function unknownEvent(byType: ReadonlyMap<string, ReadonlyMap<string, unknown>>, type: string, version: string): { ok: false; error: EventError } {
  const versions = byType.get(type);
  return unknownEventRejection(type, version, versions === undefined ? undefined : [...versions.keys()], true);
}
