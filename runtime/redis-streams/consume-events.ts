import type { Redis } from 'ioredis';
import {
  consumerTelemetry,
  countDecision,
  decideDeliveryNow,
  deliveryPolicy,
  emptyCounts,
  StallWatch,
  warningHook,
  type BusHandler,
  type ConsumerWarnings,
  type Consumption,
  type DeliveryDecision,
  type DeliveryOptions,
  type MessageTrace,
} from '../bus/index.js';
import { describeError } from '../internal/describe-error.js';
import { DEAD_LETTER_FIELDS } from './dead-letter-fields.js';
import { encodeOriginalFields } from './original-fields.js';
import { MESSAGE_FIELD } from './publish-event.js';
import { autoClaimReply, pendingDeliveries, readGroupEntries, type StreamEntry } from './stream-replies.js';

export interface ConsumeEventsOptions extends Omit<DeliveryOptions, 'backoffMs'>, ConsumerWarnings {
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
  /** How long one read waits for new entries; bounds how long `stop()` takes. Default 1000 ms. */
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
 * Resets the idle time of the entries a batch still holds (`XCLAIM … JUSTID`: the delivery
 * count stays), each only while this consumer still owns it, so that none is claimed by
 * another consumer while it waits its turn in a slow batch. With a non-zero idle time
 * instead (ARGV[3]), the opposite: the entries are handed back, idle long enough for the next
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

const noMessageField = (): Extract<DeliveryDecision, { action: 'dead_letter' }> => ({
  action: 'dead_letter',
  reason: 'malformed_message',
  message: `stream entry has no "${MESSAGE_FIELD}" field`,
  issues: [{ path: '', code: 'required', message: `expected the message in a field named "${MESSAGE_FIELD}"` }],
  named: {},
});

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`redis-streams: ${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** The batch being handled: its entries, the next one to start, and the handled ones whose `XACK` is not sent yet. */
interface Hand {
  batch: [StreamEntry, number][];
  next: number;
  /** Entries from `next` on are not this consumer's any more: handed back by `stop()`. */
  end: number;
  toAck: string[];
}

/**
 * Consumes catalog events from a Redis stream as one consumer of a group. New entries come
 * from `XREADGROUP`; entries pending longer than `claimIdleMs` (a dead consumer's, or a failed
 * handler's) are taken over with `XAUTOCLAIM`, their delivery count read from `XPENDING`.
 * Handled → one `XACK` for the batch's handled entries, once the batch is done (or before
 * awaiting a handler's promise); handler threw → left pending, claimed again after
 * `claimIdleMs`, until `maxDeliver`; rejected → `XADD` to `deadLetterStream` and `XACK` in one
 * script, only while this consumer still owns the entry, the dead letter keeping every field
 * of the original byte for byte. While a batch is handled, the entries it still holds
 * have their idle time reset every third of `claimIdleMs`, so another consumer does not
 * claim them meanwhile. `stop()` hands the entries not yet started back to the group at once.
 * Refuses to start without the group. Reads block the connection: give the consumer a connection of its own.
 */
export function consumeEvents(redis: Redis, handler: BusHandler<StreamMessage>, options: ConsumeEventsOptions): Consumption {
  const policy = deliveryPolicy({ ...options, backoffMs: 0 });
  const { stream, group, consumer, deadLetterStream } = options;
  for (const [name, value] of Object.entries({ stream, group, consumer, deadLetterStream })) {
    if (typeof value !== 'string' || value === '') throw new TypeError(`redis-streams: consumeEvents needs a ${name}`);
  }
  const claimIdleMs = positiveInteger('claimIdleMs', options.claimIdleMs, 30_000);
  const count = positiveInteger('count', options.count, 100);
  const blockMs = positiveInteger('blockMs', options.blockMs, 1000);
  const warn = warningHook(options);
  const counts = emptyCounts();
  let stopping = false;
  let hand: Hand | null = null;
  /** Deliveries are known per entry when it is read: the core asks for them only on a retry. */
  const deliveriesOf = (message: StreamMessage): number => message.deliveries;

  async function claimed(cursor: string): Promise<{ cursor: string; entries: [StreamEntry, number][] }> {
    const reply = autoClaimReply(await redis.callBuffer('XAUTOCLAIM', stream, group, consumer, claimIdleMs, cursor, 'COUNT', count));
    if (reply.entries.length === 0) return { cursor: reply.cursor, entries: [] };
    const pipeline = redis.pipeline();
    for (const entry of reply.entries) pipeline.call('XPENDING', stream, group, entry.id, entry.id, 1);
    const pending = (await pipeline.exec()) ?? [];
    return { cursor: reply.cursor, entries: reply.entries.map((entry, i) => [entry, pendingDeliveries(pending[i]?.[1])]) };
  }

  async function fresh(): Promise<[StreamEntry, number][]> {
    const reply = await redis.callBuffer('XREADGROUP', 'GROUP', group, consumer, 'COUNT', count, 'BLOCK', blockMs, 'STREAMS', stream, '>');
    return readGroupEntries(reply).map((entry) => [entry, 1]);
  }

  async function deadLetter(entry: StreamEntry, deliveries: number, decision: Extract<DeliveryDecision, { action: 'dead_letter' }>, trace: MessageTrace | null): Promise<void> {
    const fields: (string | Buffer)[] = [
      DEAD_LETTER_FIELDS.message,
      entry.fields.get(MESSAGE_FIELD) ?? '',
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
    ];
    const store = async (carrier: Record<string, string>) => {
      for (const [name, value] of Object.entries(carrier)) fields.push(name, value);
      try {
        // Returns 0 when another consumer claimed the entry meanwhile (this one held it past
        // claimIdleMs): that consumer dead-letters it, so there is one per original.
        await redis.eval(DEAD_LETTER_SCRIPT, 2, stream, deadLetterStream, group, entry.id, consumer, ...fields);
      } catch (error) {
        // The script stops at the failed XADD, before its XACK: the original stays pending.
        throw new Error(`redis-streams: could not store the dead letter of ${entry.id} in ${deadLetterStream}: ${describeError(error)}`, { cause: error });
      }
    };
    await (trace ? trace.deadLetter(deadLetterStream, decision.reason, store) : store({}));
  }

  /** Sends the held `XACK`s of the batch in hand: one command for all of them. */
  async function sendAcks(current: Hand): Promise<void> {
    if (current.toAck.length === 0) return;
    const ids = current.toAck;
    current.toAck = [];
    await redis.xack(stream, group, ...ids);
  }

  /**
   * Every third of `claimIdleMs`: the entries of the batch in hand not yet acknowledged (the
   * one in the handler included) have their idle time reset. A reset that races an entry's
   * settling finds it no longer owned and skips it; a failed one only costs what it was for
   * (the loop's own commands report a lost connection). A late tick means the event loop was blocked.
   */
  function keepBatch(stalls: StallWatch): void {
    stalls.tick();
    if (hand === null) return;
    const held = [...hand.toAck, ...hand.batch.slice(Math.max(0, hand.next - 1), hand.end).map(([entry]) => entry.id)];
    if (held.length > 0) void redis.eval(KEEP_SCRIPT, 1, stream, group, consumer, 0, ...held).catch(() => undefined);
  }

  /** Hands the entries of the batch not yet started back to the group, idle enough to be claimed by the next consumer that looks. */
  function handBack(current: Hand): Promise<unknown> {
    const ids = current.batch.slice(current.next, current.end).map(([entry]) => entry.id);
    current.end = current.next;
    if (ids.length === 0) return Promise.resolve();
    return redis.eval(KEEP_SCRIPT, 1, stream, group, consumer, claimIdleMs, ...ids).catch(() => undefined);
  }

  let handedBack: Promise<unknown> = Promise.resolve();

  const closed = (async () => {
    // A dead letter could never be stored on a key that is not a stream: refuse to start on one.
    const deadLetterKeyType = await redis.type(deadLetterStream);
    if (deadLetterKeyType !== 'stream' && deadLetterKeyType !== 'none') {
      throw new TypeError(`redis-streams: deadLetterStream ${JSON.stringify(deadLetterStream)} holds a ${deadLetterKeyType}, not a stream`);
    }
    await requireGroup(redis, stream, group);
    const telemetry = await consumerTelemetry({ system: 'redis', group });
    const stalls = new StallWatch(claimIdleMs / 3, { name: 'claimIdleMs', ms: claimIdleMs }, counts, warn);
    const keeper = setInterval(() => keepBatch(stalls), Math.max(claimIdleMs / 3, 1));
    keeper.unref();
    try {
      await consumeLoop(telemetry);
    } finally {
      clearInterval(keeper);
      await handedBack;
    }
  })();

  async function consumeLoop(telemetry: Awaited<ReturnType<typeof consumerTelemetry>>): Promise<void> {
    let cursor = '0-0';
    let nextClaimAt = 0;
    while (!stopping) {
      let batch: [StreamEntry, number][] = [];
      if (Date.now() >= nextClaimAt) {
        const claim = await claimed(cursor);
        batch = claim.entries;
        cursor = claim.cursor;
        // A full scan of the pending list found nothing more: look again a little later.
        if (cursor === '0-0' && batch.length === 0) nextClaimAt = Date.now() + Math.min(claimIdleMs / 2, 1000);
      }
      if (batch.length === 0) batch = await fresh();
      const current: Hand = { batch, next: 0, end: batch.length, toAck: [] };
      hand = current;
      // Read while stopping: back to the group at once.
      if (stopping) handedBack = handBack(current);
      try {
        while (current.next < current.end) {
          const [entry, deliveries] = batch[current.next++]!;
          const data = entry.fields.get(MESSAGE_FIELD);
          const message: StreamMessage = { stream, id: entry.id, deliveries };
          const trace = telemetry?.begin(stream, entry.id, (name) => entry.fields.get(name)?.toString('utf8')) ?? null;
          let decision: DeliveryDecision | Promise<DeliveryDecision> = data === undefined ? noMessageField() : decideDeliveryNow(data, message, deliveriesOf, trace ? trace.wrap(handler) : handler, policy);
          if (decision instanceof Promise) {
            // A slow handler must not hold back the acknowledgements of the entries before it.
            await sendAcks(current);
            decision = await decision;
          }
          if (decision.action === 'handled' || decision.action === 'ignored') current.toAck.push(entry.id);
          // A retry stays pending: XAUTOCLAIM hands it out again after claimIdleMs.
          else if (decision.action === 'dead_letter') await deadLetter(entry, deliveries, decision, trace);
          countDecision(counts, decision);
          trace?.end(decision);
        }
        await sendAcks(current);
      } finally {
        hand = null;
      }
    }
  }
  // The caller learns of a failure through `closed`; an unobserved one must not end the process.
  closed.catch(() => undefined);

  return {
    counts,
    closed,
    async stop() {
      stopping = true;
      // What waits behind the running handler goes back now, not after it.
      if (hand !== null) handedBack = handBack(hand);
      await closed.catch(() => undefined);
    },
  };
}

/**
 * A missing group would only fail at the first read with a bare NOGROUP; say which group and
 * how to create it. Creating it here is left to the caller: only they know where it must start.
 */
async function requireGroup(redis: Redis, stream: string, group: string): Promise<void> {
  const groups = (await redis.call('XINFO', 'GROUPS', stream).catch(() => [])) as unknown[][];
  if (groups.some((fields) => fields[fields.indexOf('name') + 1] === group)) return;
  throw new Error(
    `redis-streams: stream ${JSON.stringify(stream)} has no consumer group ${JSON.stringify(group)}; ` +
      `create it once before consuming, from the start of the stream: XGROUP CREATE ${stream} ${group} 0 MKSTREAM`,
  );
}
