import type { Redis } from 'ioredis';
import {
  ConsumerFailedError,
  loopPolicy,
  positiveInteger,
  requiredText,
  runConsumerLoop,
  type Broker,
  type BusHandler,
  type ConsumerOptions,
  type Consumption,
  type DeadLetterDecision,
  type Delivered,
  type Prepared,
} from '../bus/index.js';
import { DEAD_LETTER_FIELDS } from './dead-letter-fields.js';
import { encodeOriginalFields } from './original-fields.js';
import { MESSAGE_FIELD } from './publish-event.js';
import { autoClaimReply, fieldOf, pendingDeliveries, readGroupEntries, type StreamEntry } from './stream-replies.js';

export interface ConsumeEventsOptions extends Omit<ConsumerOptions, 'backoffMs'> {
  stream: string;
  group: string;
  /** This consumer's name in the group: unique per process. */
  consumer: string;
  /** Where dead letters are added, in the same script as the original's `XACK`. */
  deadLetterStream: string;
  /**
   * A message pending this long is claimed by whichever consumer of the group looks next:
   * one a dead consumer left, or one whose handler failed (so this is also the retry delay).
   * Default 30 000 ms.
   */
  claimIdleMs?: number;
  /** Entries read at a time. Default 100. */
  count?: number;
  /** How long one read waits for new entries; bounds how long `stop()` waits for a read in progress. Default 1000 ms. */
  blockMs?: number;
}

/** What the handler gets besides the event. */
export interface StreamMessage {
  stream: string;
  /** The entry id: unique in the stream, so the key to de-duplicate with. */
  id: string;
  /** 1 on first delivery. */
  deliveries: number;
}

export { ConsumerFailedError };

/**
 * Stores a dead letter and acknowledges its original in one step, only while this consumer
 * still owns the entry: another consumer may have claimed it after `claimIdleMs`. XADD comes
 * before XACK, so a failed XADD leaves the original pending.
 * KEYS: stream, dead-letter stream. ARGV: group, entry id, consumer, the dead letter's fields.
 */
const DEAD_LETTER_SCRIPT = `
local owner = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1, ARGV[3])
if #owner == 0 then return 0 end
redis.call('XADD', KEYS[2], '*', unpack(ARGV, 4))
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/**
 * Resets the idle time of the entries a consumer holds (`XCLAIM … JUSTID`: the delivery count
 * stays), each only while this consumer still owns it, so that none is claimed by another
 * consumer while it waits its turn in a slow batch. With a non-zero idle time instead
 * (ARGV[3]), the opposite: the entries are handed back, idle long enough for the next
 * consumer's `XAUTOCLAIM` to take them at once.
 * KEYS: stream. ARGV: group, consumer, idle ms, entry ids.
 */
const KEEP_SCRIPT = `
local kept = 0
for i = 4, #ARGV do
  if #redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[i], ARGV[i], 1, ARGV[2]) > 0 then
    redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'IDLE', ARGV[3], 'JUSTID')
    kept = kept + 1
  end
end
return kept
`;

/** A read entry and its delivery count. */
type Held = [StreamEntry, number];

/**
 * Consumes catalog events from a Redis stream as one consumer of a group, by the one consumer
 * loop (`runConsumerLoop`). New entries come from `XREADGROUP`; entries pending longer than
 * `claimIdleMs` (a dead consumer's, or a failed handler's) are taken over with `XAUTOCLAIM`,
 * their delivery count read from `XPENDING`. Handled → one `XACK` for the handled entries of a
 * batch, once the batch is done (or before awaiting a handler's promise); handler threw → left
 * pending, claimed again after `claimIdleMs`, until `maxDeliver`; rejected → `XADD` to
 * `deadLetterStream` and `XACK` in one script, only while this consumer still owns the entry,
 * the dead letter keeping every field of the original byte for byte. While a batch is handled,
 * the entries it still holds have their idle time reset every third of `claimIdleMs`, so
 * another consumer does not claim them meanwhile. `stop()` hands the entries not yet started
 * back to the group at once. Refuses to start without the group, or with a dead-letter key
 * that is not a stream. Reads block the connection: give the consumer a connection of its own.
 */
export function consumeEvents(redis: Redis, handler: BusHandler<StreamMessage>, options: ConsumeEventsOptions): Consumption {
  // Redelivery is the group's: an entry left pending comes back after claimIdleMs, so no back-off of the loop's own.
  const policy = loopPolicy({ ...options, backoffMs: 0 });
  const broker = new StreamsBroker(redis, {
    stream: requiredText('a stream', options.stream),
    group: requiredText('a group', options.group),
    consumer: requiredText('a consumer', options.consumer),
    deadLetterStream: requiredText('a deadLetterStream', options.deadLetterStream),
    claimIdleMs: positiveInteger('claimIdleMs', options.claimIdleMs, 30_000),
    count: positiveInteger('count', options.count, 100),
    blockMs: positiveInteger('blockMs', options.blockMs, 1000),
  });
  return runConsumerLoop(broker, handler, policy);
}

interface StreamsSettings {
  stream: string;
  group: string;
  consumer: string;
  deadLetterStream: string;
  claimIdleMs: number;
  count: number;
  blockMs: number;
}

/** Redis Streams' side of the consumer loop. */
class StreamsBroker implements Broker<Held, StreamMessage> {
  readonly system = 'redis';
  readonly label = 'redis-streams';
  readonly deadLetterDestination: string;
  /** The batch read, in order; those from `taken` on are not started yet. */
  private buffer: Held[] = [];
  private taken = 0;
  /** Handled, their `XACK` not sent yet. */
  private toAck: string[] = [];
  private stopping = false;
  private cursor = '0-0';
  private nextClaimAt = 0;

  constructor(
    private readonly redis: Redis,
    private readonly settings: StreamsSettings,
  ) {
    this.deadLetterDestination = settings.deadLetterStream;
  }

  async prepare(): Promise<Prepared> {
    const { stream, group, deadLetterStream, claimIdleMs } = this.settings;
    // A dead letter could never be stored on a key that is not a stream: refuse to start on one.
    const deadLetterKeyType = await this.redis.type(deadLetterStream);
    if (deadLetterKeyType !== 'stream' && deadLetterKeyType !== 'none') {
      throw new ConsumerFailedError(`redis-streams: deadLetterStream ${JSON.stringify(deadLetterStream)} holds a ${deadLetterKeyType}, not a stream: no dead letter could be stored there`);
    }
    await requireGroup(this.redis, stream, group);
    return { group, redelivery: { name: 'claimIdleMs', ms: claimIdleMs } };
  }

  start(): void {
    // Reading starts with the first `wait()`.
  }

  next(): Held | undefined {
    return this.taken < this.buffer.length ? this.buffer[this.taken++] : undefined;
  }

  /** Read and not yet started. */
  private get waiting(): Held[] {
    return this.buffer.slice(this.taken);
  }

  private fill(read: Held[]): void {
    this.buffer = read;
    this.taken = 0;
  }

  async wait(): Promise<boolean> {
    while (!this.stopping) {
      const read = await this.readBatch();
      // Read while stopping: back to the group at once.
      if (this.stopping) {
        this.fill(read);
        await this.handBack();
        return false;
      }
      if (read.length > 0) {
        this.fill(read);
        return true;
      }
    }
    return false;
  }

  /** The entries pending longer than `claimIdleMs` first (a dead consumer's, a failed handler's), then new ones. */
  private async readBatch(): Promise<Held[]> {
    const { stream, group, consumer, claimIdleMs, count, blockMs } = this.settings;
    if (Date.now() >= this.nextClaimAt) {
      const reply = autoClaimReply(await this.redis.callBuffer('XAUTOCLAIM', stream, group, consumer, claimIdleMs, this.cursor, 'COUNT', count));
      this.cursor = reply.cursor;
      // A full scan of the pending list found nothing more: look again a little later.
      if (this.cursor === '0-0' && reply.entries.length === 0) this.nextClaimAt = Date.now() + Math.min(claimIdleMs / 2, 1000);
      if (reply.entries.length > 0) {
        const pipeline = this.redis.pipeline();
        for (const entry of reply.entries) pipeline.call('XPENDING', stream, group, entry.id, entry.id, 1);
        const pending = (await pipeline.exec()) ?? [];
        return reply.entries.map((entry, i) => [entry, pendingDeliveries(pending[i]?.[1])]);
      }
    }
    const reply = await this.redis.callBuffer('XREADGROUP', 'GROUP', group, consumer, 'COUNT', count, 'BLOCK', blockMs, 'STREAMS', stream, '>');
    return readGroupEntries(reply).map((entry) => [entry, 1]);
  }

  endedBecause(): Promise<string> {
    // Reads end only when the consumer stops, or fail (and the loop reports the error).
    return Promise.resolve('the reads ended');
  }

  read([entry, deliveries]: Held): Delivered<StreamMessage> {
    const data = fieldOf(entry, MESSAGE_FIELD);
    const stream = this.settings.stream;
    return {
      data: data ?? '',
      ...(data === undefined && { rejected: noMessageField() }),
      message: { stream, id: entry.id, deliveries },
      deliveries: (message) => message.deliveries,
      destination: stream,
      messageId: entry.id,
      carrier: (name) => fieldOf(entry, name)?.toString('utf8'),
    };
  }

  acknowledge([entry]: Held): void {
    this.toAck.push(entry.id);
  }

  async flush(): Promise<void> {
    if (this.toAck.length === 0) return;
    const ids = this.toAck;
    this.toAck = [];
    await this.redis.xack(this.settings.stream, this.settings.group, ...ids);
  }

  finish(): Promise<void> {
    // Every XACK is awaited by `flush`.
    return this.flush();
  }

  retry(): void {
    // Stays pending: XAUTOCLAIM hands it out again after claimIdleMs.
  }

  async deadLetter([entry, deliveries]: Held, decision: DeadLetterDecision, carrier: Record<string, string>): Promise<void> {
    const { stream, group, consumer, deadLetterStream } = this.settings;
    const fields: (string | Buffer)[] = [
      DEAD_LETTER_FIELDS.message,
      fieldOf(entry, MESSAGE_FIELD) ?? '',
      DEAD_LETTER_FIELDS.reason,
      decision.reason,
      DEAD_LETTER_FIELDS.issues,
      JSON.stringify(decision.issues),
      DEAD_LETTER_FIELDS.originalId,
      entry.id,
      DEAD_LETTER_FIELDS.deliveries,
      String(deliveries),
      DEAD_LETTER_FIELDS.originalFields,
      encodeOriginalFields(entry.pairs),
      ...Object.entries(carrier).flat(),
    ];
    // Returns 0 when another consumer claimed the entry meanwhile (this one held it past
    // claimIdleMs): that consumer dead-letters it, so there is one per original. A failure
    // stops the script at its XADD, before the XACK: the original stays pending.
    await this.redis.eval(DEAD_LETTER_SCRIPT, 2, stream, deadLetterStream, group, entry.id, consumer, ...fields);
  }

  /** The entries held (handled and not yet acknowledged, in the handler, waiting in the batch) keep their idle time low. */
  keepAlive(inFlight: Held | null): void {
    const held = [...this.toAck, ...(inFlight ? [inFlight[0].id] : []), ...this.waiting.map(([entry]) => entry.id)];
    if (held.length === 0) return;
    const { stream, group, consumer } = this.settings;
    // A failed reset only costs what it was for: the loop's own commands report a lost connection.
    void this.redis.eval(KEEP_SCRIPT, 1, stream, group, consumer, 0, ...held).catch(() => undefined);
  }

  async handBack(): Promise<void> {
    const ids = this.waiting.map(([entry]) => entry.id);
    this.fill([]);
    if (ids.length === 0) return;
    const { stream, group, consumer, claimIdleMs } = this.settings;
    await this.redis.eval(KEEP_SCRIPT, 1, stream, group, consumer, claimIdleMs, ...ids).catch(() => undefined);
  }

  stop(): Promise<void> {
    // A read in progress ends within blockMs; what it brings is handed back by `wait()`.
    this.stopping = true;
    return Promise.resolve();
  }

  describe([entry]: Held): string {
    return `entry ${entry.id} of ${this.settings.stream}`;
  }

  abandon(): Promise<void> {
    return this.handBack();
  }
}

const noMessageField = (): DeadLetterDecision => ({
  action: 'dead_letter',
  reason: 'malformed_message',
  message: `stream entry has no "${MESSAGE_FIELD}" field`,
  issues: [{ path: '', code: 'required', message: `expected the message in a field named "${MESSAGE_FIELD}"` }],
  named: {},
});

/**
 * A missing group would only fail at the first read with a bare NOGROUP; say which group and
 * how to create it. Creating it here is left to the caller: only they know where it must start.
 */
async function requireGroup(redis: Redis, stream: string, group: string): Promise<void> {
  const groups = (await redis.call('XINFO', 'GROUPS', stream).catch(() => [])) as unknown[][];
  if (groups.some((fields) => fields[fields.indexOf('name') + 1] === group)) return;
  throw new ConsumerFailedError(
    `redis-streams: stream ${JSON.stringify(stream)} has no consumer group ${JSON.stringify(group)}; ` +
      `create it once before consuming, from the start of the stream: XGROUP CREATE ${stream} ${group} 0 MKSTREAM`,
  );
}
