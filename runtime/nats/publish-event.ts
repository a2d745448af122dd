import type { JetStreamClient, PubAck } from '@nats-io/jetstream';
import { EventValidationError, validateEvent, type ValidationMode } from '../index.js';

export interface PublishEventOptions {
  /** Default `events.<type>.<version>`. */
  subject?: string;
  /** Sets the `Nats-Msg-Id` header: the stream drops a second message with the same id within its duplicate window. */
  msgId?: string;
  /** Default `strict`: a producer sends only what the catalog lists. */
  mode?: ValidationMode;
}

/** The default subject of an event: `events.<type>.<version>`. */
export const eventSubject = (event: { type: string; version: string }): string => `events.${event.type}.${event.version}`;

/**
 * Validates `event`, then publishes it to JetStream and resolves with the server's
 * acknowledgement. An invalid event is a rejected promise with an `EventValidationError`
 * (its `error` is the `EventError`), and nothing is published.
 */
export async function publishEvent(js: JetStreamClient, event: unknown, options: PublishEventOptions = {}): Promise<PubAck> {
  const result = validateEvent(event, { mode: options.mode ?? 'strict' });
  if (!result.ok) throw new EventValidationError(result.error);
  const subject = options.subject ?? eventSubject(result.event);
  return js.publish(subject, JSON.stringify(result.event), options.msgId === undefined ? undefined : { msgID: options.msgId });
}
