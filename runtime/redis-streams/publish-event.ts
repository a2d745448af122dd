import type { Redis } from 'ioredis';
import { producerTelemetry } from '../bus/index.js';
import { EventValidationError, validateEvent, type CatalogEvent, type ValidationMode } from '../index.js';

export interface PublishEventOptions {
  /** The stream to add to. */
  stream: string;
  /** Default `strict`: a producer sends only what the catalog lists. */
  mode?: ValidationMode;
  /**
   * The producer's id of this message. A publish with an id already used within
   * `duplicateWindowMs` adds nothing and resolves with the first entry's id, as JetStream's
   * `Nats-Msg-Id` does: so a publish retried (by the caller, or by ioredis re-sending its
   * command after a reconnect) stores the event once.
   */
  msgId?: string;
  /** How long a `msgId` is remembered (in a key `<stream>:msg-id:<msgId>`). Default 120 000 ms, JetStream's default. */
  duplicateWindowMs?: number;
}

/** Adds the entry unless the id was seen within the window; returns the entry's id either way. KEYS: stream, id key. ARGV: window ms, the entry's fields. */
const PUBLISH_ONCE_SCRIPT = `
local first = redis.call('GET', KEYS[2])
if first then return first end
local id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
redis.call('SET', KEYS[2], id, 'PX', ARGV[1])
return id
`;

/** The field of a stream entry that holds the message (JSON text). */
export const MESSAGE_FIELD = 'message';

/**
 * Validates `event`, then `XADD <stream> * message <json>` (once per `msgId` within its
 * window, when one is given); resolves with the entry id. `event` is typed by the catalog (a
 * misspelt field or an unknown version does not compile); it is still validated at run time:
 * an invalid event is a rejected promise with an `EventValidationError` (its `error` is the
 * `EventError`), and nothing is added. With OpenTelemetry, a PRODUCER span `send <stream>`
 * and the trace context in the entry's `traceparent` and `tracestate` fields.
 */
export async function publishEvent(redis: Redis, event: CatalogEvent, options: PublishEventOptions): Promise<string> {
  const result = validateEvent(event, { mode: options.mode ?? 'strict' });
  if (!result.ok) throw new EventValidationError(result.error);
  const text = JSON.stringify(result.event);
  const { stream, msgId, duplicateWindowMs = 120_000 } = options;
  if (msgId !== undefined) {
    if (typeof msgId !== 'string' || msgId === '') throw new TypeError('redis-streams: msgId must be a non-empty string');
    if (!Number.isInteger(duplicateWindowMs) || duplicateWindowMs < 1) throw new RangeError(`redis-streams: duplicateWindowMs must be a positive integer, got ${String(duplicateWindowMs)}`);
  }
  const add = async (carrier: Record<string, string>): Promise<string> => {
    const fields = [MESSAGE_FIELD, text, ...Object.entries(carrier).flat()];
    if (msgId !== undefined) return String(await redis.eval(PUBLISH_ONCE_SCRIPT, 2, stream, `${stream}:msg-id:${msgId}`, duplicateWindowMs, ...fields));
    const id = await redis.xadd(stream, '*', ...fields);
    if (id === null) throw new Error(`redis-streams: XADD to ${stream} added nothing`);
    return id;
  };
  const telemetry = await producerTelemetry();
  return telemetry ? telemetry.send({ system: 'redis', destination: stream }, result.event, msgId, add) : add({});
}
