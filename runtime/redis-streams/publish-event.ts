import type { Redis } from 'ioredis';
import { EventValidationError, validateEvent, type ValidationMode } from '../index.js';

export interface PublishEventOptions {
  /** The stream to add to. */
  stream: string;
  /** Default `strict`: a producer sends only what the catalog lists. */
  mode?: ValidationMode;
}

/** The field of a stream entry that holds the message (JSON text). */
export const MESSAGE_FIELD = 'message';

/**
 * Validates `event`, then `XADD <stream> * message <json>`; resolves with the entry id. An
 * invalid event is a rejected promise with an `EventValidationError` (its `error` is the
 * `EventError`), and nothing is added.
 */
export async function publishEvent(redis: Redis, event: unknown, options: PublishEventOptions): Promise<string> {
  const result = validateEvent(event, { mode: options.mode ?? 'strict' });
  if (!result.ok) throw new EventValidationError(result.error);
  const id = await redis.xadd(options.stream, '*', MESSAGE_FIELD, JSON.stringify(result.event));
  if (id === null) throw new Error(`redis-streams: XADD to ${options.stream} added nothing`);
  return id;
}
