import type { CatalogEvent, EventOf, EventType, EventVersion, PayloadOf } from '../generated/types.js';
import { decodeEvent } from './decode-event.js';
import { EventValidationError, type EventError, type ValidateOptions, type ValidationResult } from './internal/result.js';
import { validateEvent } from './validate-event.js';
import { isStrict } from './internal/validate-options.js';

/** The handler for one (type, version): gets the typed payload and the whole event. */
export type EventHandlerFn<T extends EventType, V extends EventVersion<T>, R> = (payload: PayloadOf<T, V>, event: EventOf<T, V>) => R;

/** Handlers for some events: type → version → handler. */
export type HandlerMap<R = unknown> = {
  [T in EventType]?: { [V in EventVersion<T>]?: EventHandlerFn<T, V, R> };
};

/** Handlers for every event of the catalog: leaving one out is a compile error. */
export type ExhaustiveHandlerMap<R = unknown> = {
  [T in EventType]: { [V in EventVersion<T>]: EventHandlerFn<T, V, R> };
};

export interface HandlerOptions<R = unknown> extends ValidateOptions {
  /**
   * An `unknown_event_type` or `unknown_event_version` message: one the catalog (this
   * package version) does not know yet. Default: ignored (returns `undefined`), so a
   * producer can add events before every consumer upgrades.
   */
  onUnknown?: (error: EventError, message: unknown) => R;
  /**
   * A `malformed_message` or `invalid_payload` message. Default: throws
   * `EventValidationError`, so the transport's retry or dead-letter handling sees it.
   */
  onInvalid?: (error: EventError, message: unknown) => R;
  /** A valid event that has no handler in the map. Default: ignored (returns `undefined`). */
  onUnhandled?: (event: CatalogEvent) => R;
}

export interface EventHandler<R> {
  /** Validates an already-parsed message and calls its handler (or a hook). */
  (message: unknown): R | undefined;
  /** Decodes JSON text or UTF-8 bytes, then as above. */
  decode(raw: string | Uint8Array): R | undefined;
}

type AnyHandler = (payload: unknown, event: unknown) => unknown;

/** The union of what the handlers of a map return: sync and async handlers may be mixed. */
export type HandlerResult<M> = {
  [T in keyof M]-?: { [V in keyof M[T]]-?: M[T][V] extends (...args: never[]) => infer R ? R : never }[keyof M[T]];
}[keyof M];

/** A map's keys checked against the catalog: an unknown type or version is a compile error. */
type KnownEventsOnly<M> = {
  [T in keyof M]: T extends EventType ? { [V in keyof M[T]]: V extends EventVersion<T> ? M[T][V] : never } : never;
};

/**
 * Typed dispatch: validates each message, then calls `handlers[type][version]` with the
 * typed payload. Free of any transport: call it from whatever delivers messages. The
 * handler's result is the union of what the handlers (and hooks) return.
 * Throws a `TypeError` at once for a `mode` that does not exist.
 */
export function createHandler<M extends HandlerMap<unknown>, H = never>(handlers: M & KnownEventsOnly<M>, options?: HandlerOptions<H>): EventHandler<HandlerResult<M> | H>;
/** With the result type given: `createHandler<string>({ … })`. */
export function createHandler<R = unknown>(handlers: HandlerMap<R>, options?: HandlerOptions<R>): EventHandler<R>;
export function createHandler<R>(handlers: HandlerMap<R>, options: HandlerOptions<R> = {}): EventHandler<R> {
  const validateOptions: ValidateOptions = isStrict(options) ? { mode: 'strict' } : {};
  const table = handlers as Record<string, Record<string, AnyHandler | undefined> | undefined>;
  const { onUnknown, onInvalid, onUnhandled } = options;

  const dispatch = (result: ValidationResult, message: unknown): R | undefined => {
    if (!result.ok) {
      const { error } = result;
      if (error.code === 'unknown_event_type' || error.code === 'unknown_event_version') return onUnknown?.(error, message);
      if (onInvalid) return onInvalid(error, message);
      throw new EventValidationError(error);
    }
    const { event } = result;
    const versions = Object.prototype.hasOwnProperty.call(table, event.type) ? table[event.type] : undefined;
    const handler = versions && Object.prototype.hasOwnProperty.call(versions, event.version) ? versions[event.version] : undefined;
    if (handler === undefined) return onUnhandled?.(event);
    return handler(event.payload, event) as R;
  };

  const handle = ((message: unknown) => dispatch(validateEvent(message, validateOptions), message)) as EventHandler<R>;
  handle.decode = (raw) => dispatch(decodeEvent(raw, validateOptions), raw);
  return handle;
}

/** `createHandler` that requires a handler for every (type, version) of the catalog. */
export function createExhaustiveHandler<R = unknown>(handlers: ExhaustiveHandlerMap<R>, options: Omit<HandlerOptions<R>, 'onUnhandled'> = {}): EventHandler<R> {
  return createHandler(handlers as HandlerMap<R>, options) as EventHandler<R>;
}
