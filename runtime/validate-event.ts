import type { CatalogEvent } from '../generated/types.js';
import { payloadRejection } from './internal/check-payload.js';
import { isPlainObject } from './internal/plain-object.js';
import { envelopeRejection, notAnObject, unknownEventRejection } from './internal/envelope.js';
import { firstSlotOf, type CompiledEventSlot } from './internal/event-slots.js';
import { valueOrThrow, type EventError, type ValidateOptions, type ValidationResult } from './internal/result.js';
import { unreadable } from './internal/unreadable.js';
import { isStrict } from './internal/validate-options.js';

/** The registry's slot of one event version, or `undefined`. */
function slotOf(type: string, version: string): CompiledEventSlot | undefined {
  let slot = firstSlotOf(type);
  while (slot !== undefined && slot.version !== version) slot = slot.next;
  return slot;
}

/**
 * The valid path, in one piece: answers only "valid", and builds nothing but the result. It
 * reads the members first and tests the prototypes after (once an object's members are read
 * the engine knows its shape, and the test costs next to nothing; the payload's is tested by
 * the event's own check). Anything else, a rejection or a read that throws, is for
 * `checkInOrder`.
 */
function acceptedEvent(message: unknown, strict: boolean): CatalogEvent | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { type, version, payload } = message as Record<string, unknown>;
  if (typeof type !== 'string' || typeof version !== 'string' || !isPlainObject(message)) return undefined;
  const slot = slotOf(type, version);
  return slot !== undefined && (strict ? slot.strict : slot.tolerant)(payload) ? (message as unknown as CatalogEvent) : undefined;
}

/**
 * The whole check, in the documented order: the message's prototype, its members, the
 * payload's prototype, then the payload. What a rejected message is told depends on this
 * order alone (a hostile getter or proxy can throw at any step), not on how the valid path reads.
 */
function checkInOrder(message: unknown, strict: boolean, payloadRejected: boolean): ValidationResult {
  if (!isPlainObject(message)) return notAnObject();
  const { type, version, payload } = message;
  if (typeof type === 'string' && typeof version === 'string' && isPlainObject(payload)) {
    const slot = slotOf(type, version);
    if (slot !== undefined) {
      const compiled = slot.module();
      // `payloadRejected`: the valid path got this far and the event's check said no; asking again would say the same.
      if (!payloadRejected && (strict ? compiled.accepts.strict : compiled.accepts.tolerant)(payload)) return { ok: true, event: message as unknown as CatalogEvent };
      return { ok: false, error: payloadRejection(compiled, type, version, payload, strict, slot.errors()) };
    }
  }
  return envelopeRejection(type, version, payload) ?? unknownEvent(type as string, version as string);
}

/** Why a well-formed envelope names no event of the catalog. */
function unknownEvent(type: string, version: string): { ok: false; error: EventError } {
  const first = firstSlotOf(type);
  if (first === undefined) return unknownEventRejection(type, version, undefined);
  const knownVersions: string[] = [];
  for (let slot: CompiledEventSlot | undefined = first; slot !== undefined; slot = slot.next) knownVersions.push(slot.version);
  return unknownEventRejection(type, version, knownVersions);
}

/**
 * Checks a message (already parsed from JSON) against the catalog: envelope, event type,
 * version, then the payload, with one precompiled validator. Never throws.
 */
export function validateEvent(message: unknown, options?: ValidateOptions): ValidationResult {
  return validateInMode(message, options !== undefined && isStrict(options));
}

/** `validateEvent` once its options are read (`decodeEvent` reads them before decoding). */
export function validateInMode(message: unknown, strict: boolean): ValidationResult {
  // Whether the valid path ran to its end: then a plain payload of a known event was refused by its check.
  let ranToEnd = false;
  try {
    const event = acceptedEvent(message, strict);
    if (event !== undefined) return { ok: true, event };
    ranToEnd = true;
  } catch {
    // A getter or proxy threw: `checkInOrder` says what the message gets.
  }
  try {
    return checkInOrder(message, strict, ranToEnd);
  } catch (thrown) {
    // Only hostile objects get here (getters or proxies that throw while being read).
    return unreadable(thrown);
  }
}

/** `validateEvent` as a type guard. */
export function isEvent(message: unknown, options?: ValidateOptions): message is CatalogEvent {
  return validateEvent(message, options).ok;
}

/** Returns the message typed as `CatalogEvent`, or throws `EventValidationError` saying why not. */
export function parseEvent(message: unknown, options?: ValidateOptions): CatalogEvent {
  return valueOrThrow(validateEvent(message, options));
}
