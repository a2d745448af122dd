import type { JetStreamClient, PubAck } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { producerTelemetry } from '../bus/index.js';
import { EventValidationError, validateEvent, type CatalogEvent, type ValidationMode } from '../index.js';
import { connectionOf } from './connection-of.js';

/**
 * Bytes kept free under the server's `max_payload` for a dead letter's headers (reason,
 * subject, sequence, deliveries, the message id and at least `[]` of issues take a few
 * hundred): a message published here can always be dead-lettered whole.
 */
export const DEAD_LETTER_HEADROOM = 1024;

const utf8 = new TextEncoder();

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
 * acknowledgement. `event` is typed by the catalog (a misspelt field or an unknown version
 * does not compile); it is still validated at run time: an invalid event is a rejected
 * promise with an `EventValidationError` (its `error` is the `EventError`), and nothing is
 * published. So is an event too large to be dead-lettered whole: within
 * `DEAD_LETTER_HEADROOM` bytes of the server's `max_payload`. With OpenTelemetry, a PRODUCER
 * span `send <subject>` and the trace context in the message's headers.
 */
export async function publishEvent(js: JetStreamClient, event: CatalogEvent, options: PublishEventOptions = {}): Promise<PubAck> {
  const result = validateEvent(event, { mode: options.mode ?? 'strict' });
  if (!result.ok) throw new EventValidationError(result.error);
  const subject = options.subject ?? eventSubject(result.event);
  // Encoded once: measured here, and what the client sends.
  const data = utf8.encode(JSON.stringify(result.event));
  const maxPayload = connectionOf(js)?.info?.max_payload;
  if (maxPayload !== undefined && data.length + DEAD_LETTER_HEADROOM > maxPayload) {
    throw new RangeError(
      `nats: the ${result.event.type} ${result.event.version} event is ${data.length} bytes, within ${DEAD_LETTER_HEADROOM} bytes of the server's max_payload of ${maxPayload}: ` +
        'a consumer could not dead-letter it whole, so it is not published. Raise max_payload on the server, or send less.',
    );
  }
  const telemetry = await producerTelemetry();
  const publish = (carrier: Record<string, string>): Promise<PubAck> => {
    const names = Object.keys(carrier);
    if (names.length === 0) return js.publish(subject, data, options.msgId === undefined ? undefined : { msgID: options.msgId });
    const h = headers();
    for (const name of names) h.set(name, carrier[name]!);
    return js.publish(subject, data, { headers: h, ...(options.msgId !== undefined && { msgID: options.msgId }) });
  };
  try {
    return await (telemetry ? telemetry.send({ system: 'nats', destination: subject }, result.event, options.msgId, publish) : publish({}));
  } catch (error) {
    // The server answers "no responders" both when JetStream is off and when no stream captures
    // the subject; the client calls both `JetStreamNotEnabled`. The missing stream is the usual cause.
    if (error instanceof Error && error.name === 'JetStreamNotEnabled') {
      throw new Error(
        `nats: no stream captures the subject "${subject}" (or JetStream is not enabled on the server): create one, e.g. jsm.streams.add({ name: 'EVENTS', subjects: ['events.>'] }), or start nats-server with -js`,
        { cause: error },
      );
    }
    throw error;
  }
}
