import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';

/**
 * The connection behind a JetStream client: its `max_payload` and whether it has closed.
 * nats.js keeps it as `nc`, outside the client's public type; `undefined` if a client has none.
 */
export const connectionOf = (js: JetStreamClient): NatsConnection | undefined => (js as unknown as { nc?: NatsConnection }).nc;
