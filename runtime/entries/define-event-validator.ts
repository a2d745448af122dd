import type { CatalogEvent } from '../../generated/types.js';
import type { CompiledEventModule } from '../contract/compiled-validator.js';
import { checkPayload } from '../internal/check-payload.js';
import { isPlainObject } from '../internal/plain-object.js';
import { clip } from '../internal/echo.js';
import { envelopeRejection, notAnObject } from '../internal/envelope.js';
import { pointerTokens } from '../contract/json-pointer.js';
import type { EventValidationResult, ValidateOptions } from '../internal/result.js';
import { rejection, valueOrThrow } from '../internal/result.js';
import type { StandardSchemaV1 } from '../internal/standard-schema.js';
import { unreadable } from '../internal/unreadable.js';
import { isStrict } from '../internal/validate-options.js';

// The result family lives with the root's (one type for the root, the entries and createEventValidator).
export type { EventValidationResult } from '../internal/result.js';

/**
 * The validator of one event version, importable on its own
 * (`<package>/events/<type>/<version>`) so a bundle carries only that event's code.
 * Implements Standard Schema v1 over the whole message (envelope and payload).
 */
export interface EventValidator<E extends CatalogEvent> extends StandardSchemaV1<unknown, E> {
  readonly type: E['type'];
  readonly version: E['version'];
  /** Whether the catalog shows only some of the payload's fields (unlisted ones always accepted). */
  readonly open: boolean;
  /** `$id` of the message schema, `generated/schemas/events/<type>/<version>/message.schema.json`. */
  readonly schemaId: string;
  /** Checks a whole message: it must be this event type and version. Never throws for a message (only for options that do not exist). */
  validate(message: unknown, options?: ValidateOptions): EventValidationResult<E>;
  /** Checks a payload alone; issue paths start at `/payload`. Never throws for a payload (only for options that do not exist). */
  validatePayload(payload: unknown, options?: ValidateOptions): EventValidationResult<E['payload']>;
  is(message: unknown, options?: ValidateOptions): message is E;
  /** Returns the message typed, or throws `EventValidationError`. */
  parse(message: unknown, options?: ValidateOptions): E;
}

/** Builds the validator object around one event's compiled validators (called by generated code). */
export function defineEventValidator<E extends CatalogEvent>(
  type: E['type'],
  version: E['version'],
  open: boolean,
  schemaId: string,
  compiled: CompiledEventModule,
): EventValidator<E> {
  /** `value` (the message, or the payload alone) when its payload passes, else why not. */
  const checked = <T>(value: T, payload: unknown, strict: boolean): EventValidationResult<T> => {
    const error = checkPayload(compiled, type, version, payload, strict);
    return error ? { ok: false, error } : { ok: true, event: value };
  };

  const validate = (message: unknown, options?: ValidateOptions): EventValidationResult<E> => {
    const strict = isStrict(options);
    try {
      if (!isPlainObject(message)) return notAnObject();
      const { type: messageType, version: messageVersion, payload } = message;
      const malformed = envelopeRejection(messageType, messageVersion, payload);
      if (malformed) return malformed;
      if (messageType !== type) {
        return rejection('unknown_event_type', `expected a ${type} message`, { path: '/type', code: 'unknown_event_type', message: `expected "${type}"` }, { type: clip(messageType as string) });
      }
      if (messageVersion !== version) {
        return rejection('unknown_event_version', `expected ${type} ${version}`, { path: '/version', code: 'unknown_event_version', message: `expected "${version}"` }, { type, knownVersions: [version] });
      }
      return checked(message as unknown as E, payload, strict);
    } catch (thrown) {
      return unreadable(thrown);
    }
  };

  const validatePayload = (payload: unknown, options?: ValidateOptions): EventValidationResult<E['payload']> => {
    const strict = isStrict(options);
    try {
      if (!isPlainObject(payload)) return rejection('malformed_message', 'payload is not a JSON object', { path: '/payload', code: 'type', message: 'expected a JSON object payload' });
      return checked(payload as unknown as E['payload'], payload, strict);
    } catch (thrown) {
      return unreadable(thrown, 'payload');
    }
  };

  return {
    type,
    version,
    open,
    schemaId,
    validate,
    validatePayload,
    is: (message, options): message is E => validate(message, options).ok,
    parse: (message, options) => valueOrThrow(validate(message, options)),
    '~standard': {
      version: 1,
      vendor: 'data-import-events',
      validate(value) {
        const result = validate(value);
        if (result.ok) return { value: result.event };
        return { issues: result.error.issues.map((issue) => ({ message: issue.message, path: pointerToPath(issue.path) })) };
      },
    },
  };
}

/** `/payload/supply_points/0/market_name` → `['payload', 'supply_points', 0, 'market_name']`. */
function pointerToPath(pointer: string): PropertyKey[] {
  return pointerTokens(pointer).map((key) => (/^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key));
}
