/**
 * Where emitted events go besides the emulator's memory: a JSON Lines file (`--events-out`,
 * appended, one message per line, as `event-catalog validate` reads them), and one broker,
 * through the package's own publishers (`--nats`, or `--redis` with `--stream`). A broker's
 * adapter and client are loaded only when asked for, so the emulator runs without them.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import type { CatalogEvent } from '../index.js';
import { mappedOutcomes } from './events.js';

export interface EventSink {
  /** Resolves once the event is written (or stored by the broker). */
  publish(event: CatalogEvent): Promise<void>;
  close(): Promise<void>;
}

export interface SinkOptions {
  eventsOut?: string;
  nats?: string;
  redis?: string;
  stream?: string;
}

/** Every event the mapping can emit, as `{ type, version }`. */
const mappedEvents = (): { type: string; version: string }[] =>
  [...new Set(mappedOutcomes.flatMap((o) => o.events))].map((key) => {
    const [type, version] = key.split('@') as [string, string];
    return { type, version };
  });

function fileSink(path: string): Promise<EventSink> {
  return new Promise((resolve, reject) => {
    const file: WriteStream = createWriteStream(path, { flags: 'a' });
    file.once('error', reject).once('open', () => {
      file.off('error', reject);
      resolve({
        publish: (event) => new Promise((done, fail) => file.write(`${JSON.stringify(event)}\n`, (error) => (error ? fail(error) : done()))),
        close: () => new Promise((done) => file.end(done)),
      });
    });
  });
}

/**
 * NATS JetStream: refuses to start, naming what to create, when no stream captures the
 * subjects the emulator publishes on (`events.<type>.<version>`, as `publishEvent` does).
 */
async function natsSink(url: string): Promise<EventSink> {
  const [{ connect }, { jetstream, jetstreamManager }, { publishEvent, eventSubject }] = await Promise.all([import('@nats-io/transport-node'), import('@nats-io/jetstream'), import('../nats/index.js')]);
  const nc = await connect({ servers: url.split(','), maxReconnectAttempts: -1 });
  try {
    const jsm = await jetstreamManager(nc);
    const subjects = mappedEvents().map(eventSubject);
    const missing: string[] = [];
    for (const subject of subjects) await jsm.streams.find(subject).catch(() => missing.push(subject));
    if (missing.length > 0) {
      throw new Error(
        `nats: no stream captures ${missing.map((s) => `"${s}"`).join(', ')}: create one before starting the emulator, ` +
          `e.g. nats stream add EVENTS --subjects 'events.>' (or jsm.streams.add({ name: 'EVENTS', subjects: ['events.>'] }))`,
      );
    }
  } catch (error) {
    await nc.close();
    throw error;
  }
  const js = jetstream(nc);
  return {
    publish: async (event) => void (await publishEvent(js, event)),
    close: () => nc.drain(),
  };
}

/** Redis Streams: refuses to start when the key holds something other than a stream. */
async function redisSink(url: string, stream: string): Promise<EventSink> {
  const [{ Redis }, { publishEvent }] = await Promise.all([import('ioredis'), import('../redis-streams/index.js')]);
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  redis.on('error', () => undefined); // reported by the command that failed
  try {
    await redis.connect();
    const kind = await redis.type(stream);
    if (kind !== 'none' && kind !== 'stream') throw new Error(`redis: the key "${stream}" holds a ${kind}, not a stream: give --stream a key that is a stream or does not exist`);
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  return {
    publish: async (event) => void (await publishEvent(redis, event, { stream })),
    close: async () => void (await redis.quit()),
  };
}

/** The sinks the options ask for, as one; nothing to open gives a sink that does nothing. */
export async function openEventSinks(options: SinkOptions): Promise<EventSink> {
  const sinks: EventSink[] = [];
  try {
    if (options.eventsOut !== undefined) sinks.push(await fileSink(options.eventsOut));
    if (options.nats !== undefined) sinks.push(await natsSink(options.nats));
    if (options.redis !== undefined) sinks.push(await redisSink(options.redis, options.stream!));
  } catch (error) {
    await Promise.all(sinks.map((sink) => sink.close()));
    throw error;
  }
  return {
    publish: async (event) => void (await Promise.all(sinks.map((sink) => sink.publish(event)))),
    close: async () => void (await Promise.all(sinks.map((sink) => sink.close()))),
  };
}
