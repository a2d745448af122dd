import type { Redis } from 'ioredis';
import { countDecision, decideDelivery, deliveryPolicy, emptyCounts, type BusHandler, type Consumption, type DeliveryDecision, type DeliveryOptions } from '../bus/index.js';
import { MESSAGE_FIELD } from './publish-event.js';
import { autoClaimReply, pendingDeliveries, readGroupEntries, type StreamEntry } from './stream-replies.js';

export interface ConsumeEventsOptions extends Omit<DeliveryOptions, 'backoffMs'> {
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

/** The dead letter's field holding, for an entry without a message, all of its fields (JSON). */
export const ORIGINAL_FIELDS = 'original_fields';

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
 * another consumer while it waits its turn in a slow batch.
 * KEYS: stream. ARGV: group, consumer, entry ids.
 */
const KEEP_SCRIPT = `
local kept = 0
for i = 3, #ARGV do
  if #redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[i], ARGV[i], 1, ARGV[2]) > 0 then
    redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[i], 'JUSTID')
    kept = kept + 1
  end
end
return kept
`;

const noMessageField = (): DeliveryDecision => ({
  action: 'dead_letter',
  reason: 'malformed_message',
  message: `stream entry has no "${MESSAGE_FIELD}" field`,
  issues: [{ path: '', code: 'required', message: `expected the message in a field named "${MESSAGE_FIELD}"` }],
});

/**
 * Consumes catalog events from a Redis stream as one consumer of a group. New entries come
 * from `XREADGROUP`; entries pending longer than `claimIdleMs` (a dead consumer's, or a failed
 * handler's) are taken over with `XAUTOCLAIM`, their delivery count read from `XPENDING`.
 * Handled → `XACK`; handler threw → left pending, claimed again after `claimIdleMs`, until
 * `maxDeliver`; rejected → `XADD` to `deadLetterStream` and `XACK` in one script, only while
 * this consumer still owns the entry. While a batch is handled, the entries it still holds
 * have their idle time reset every third of `claimIdleMs`, so another consumer does not
 * claim them meanwhile. Refuses to start without the group.
 * Reads block the connection: give the consumer a connection of its own.
 */
export function consumeEvents(redis: Redis, handler: BusHandler<StreamMessage>, options: ConsumeEventsOptions): Consumption {
  const policy = deliveryPolicy({ ...options, backoffMs: 0 });
  const { stream, group, consumer, deadLetterStream } = options;
  for (const [name, value] of Object.entries({ stream, group, consumer, deadLetterStream })) {
    if (typeof value !== 'string' || value === '') throw new TypeError(`redis-streams: consumeEvents needs a ${name}`);
  }
  const claimIdleMs = options.claimIdleMs ?? 30_000;
  const count = options.count ?? 100;
  const blockMs = options.blockMs ?? 1000;
  const counts = emptyCounts();
  let stopping = false;

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

  async function settle(entry: StreamEntry, deliveries: number, decision: DeliveryDecision): Promise<DeliveryDecision> {
    switch (decision.action) {
      case 'handled':
      case 'ignored':
        await redis.xack(stream, group, entry.id);
        return decision;
      case 'retry':
        // Stays pending; XAUTOCLAIM hands it out again after claimIdleMs.
        return decision;
      case 'dead_letter': {
        const original = entry.fields.get(MESSAGE_FIELD);
        const fields: (string | Buffer)[] = [MESSAGE_FIELD, original ?? '', 'reason', decision.reason, 'issues', JSON.stringify(decision.issues), 'original_id', entry.id, 'deliveries', String(deliveries)];
        // An entry without a message keeps its other fields, so the dead letter loses nothing.
        if (original === undefined) fields.push(ORIGINAL_FIELDS, JSON.stringify(Object.fromEntries([...entry.fields].map(([name, value]) => [name, value.toString('utf8')]))));
        try {
          await redis.eval(DEAD_LETTER_SCRIPT, 2, stream, deadLetterStream, group, entry.id, consumer, ...fields);
        } catch (error) {
          // The script stops at the failed XADD, before its XACK: the original stays pending.
          throw new Error(`redis-streams: could not store the dead letter of ${entry.id} in ${deadLetterStream}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        // The script returns 0 when another consumer claimed the entry meanwhile (this one held
        // it past claimIdleMs): that consumer dead-letters it, so there is one per original.
        return decision;
      }
    }
  }

  /** The batch being handled: its entry ids in order, and how many of them are settled. */
  let inHand: { ids: string[]; settled: number } | null = null;

  /**
   * One timer for the consumer's life: every third of `claimIdleMs`, the entries of the batch
   * in hand not yet settled (the one in the handler included) have their idle time reset. A
   * reset that races an entry's settling finds it no longer owned and skips it; a failed one
   * only costs what it was for (the loop's own commands report a lost connection).
   */
  function keepBatch(): void {
    const waiting = inHand === null ? [] : inHand.ids.slice(inHand.settled);
    if (waiting.length > 0) void redis.eval(KEEP_SCRIPT, 1, stream, group, consumer, ...waiting).catch(() => undefined);
  }

  const closed = (async () => {
    // A dead letter could never be stored on a key that is not a stream: refuse to start on one.
    const deadLetterKeyType = await redis.type(deadLetterStream);
    if (deadLetterKeyType !== 'stream' && deadLetterKeyType !== 'none') {
      throw new TypeError(`redis-streams: deadLetterStream ${JSON.stringify(deadLetterStream)} holds a ${deadLetterKeyType}, not a stream`);
    }
    await requireGroup(redis, stream, group);
    const keeper = setInterval(keepBatch, Math.max(claimIdleMs / 3, 1));
    keeper.unref();
    try {
      await consumeLoop();
    } finally {
      clearInterval(keeper);
    }
  })();

  async function consumeLoop(): Promise<void> {
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
      const hand = { ids: batch.map(([entry]) => entry.id), settled: 0 };
      inHand = hand;
      try {
        for (const [entry, deliveries] of batch) {
          const data = entry.fields.get(MESSAGE_FIELD);
          const message: StreamMessage = { stream, id: entry.id, deliveries };
          const decision = data === undefined ? noMessageField() : await decideDelivery({ data, deliveries, message }, handler, policy);
          countDecision(counts, await settle(entry, deliveries, decision));
          hand.settled += 1;
        }
      } finally {
        inHand = null;
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
