import type { Redis } from 'ioredis';
import { countDecision, decideDelivery, deliveryPolicy, emptyCounts, type BusHandler, type Consumption, type DeliveryDecision, type DeliveryOptions } from '../bus/index.js';
import { MESSAGE_FIELD } from './publish-event.js';
import { autoClaimReply, pendingDeliveries, readGroupEntries, type StreamEntry } from './stream-replies.js';

export interface ConsumeEventsOptions extends Omit<DeliveryOptions, 'backoffMs'> {
  stream: string;
  group: string;
  /** This consumer's name in the group: unique per process. */
  consumer: string;
  /** Where dead letters are added, in the same `MULTI` as the original's `XACK`. */
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
 * `maxDeliver`; rejected → `XADD` to `deadLetterStream` and `XACK` in one `MULTI`.
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
        const original = entry.fields.get(MESSAGE_FIELD) ?? '';
        // A transaction the server refuses as a whole (EXECABORT) rejects here: nothing
        // happened, the entry stays pending, and the consumer stops with that error.
        const results = await redis
          .multi()
          .xadd(deadLetterStream, '*', MESSAGE_FIELD, original, 'reason', decision.reason, 'issues', JSON.stringify(decision.issues), 'original_id', entry.id, 'deliveries', String(deliveries))
          .xack(stream, group, entry.id)
          .exec();
        const addError = results?.[0]?.[0];
        if (results === null || addError) {
          // A command that fails inside EXEC does not stop the next one: the XACK may have
          // dropped the original although its dead letter was not stored. Put it back, then stop.
          if (results !== null && !results[1]?.[0]) await redis.xadd(stream, '*', MESSAGE_FIELD, original);
          throw new Error(`redis-streams: could not store the dead letter of ${entry.id} in ${deadLetterStream}: ${addError instanceof Error ? addError.message : 'transaction aborted'}`);
        }
        return decision;
      }
    }
  }

  const closed = (async () => {
    // Inside MULTI a command that fails at run time does not stop the next one: an XADD to a
    // key that is not a stream would fail while the XACK still drops the original. So refuse
    // to start on such a key.
    const deadLetterKeyType = await redis.type(deadLetterStream);
    if (deadLetterKeyType !== 'stream' && deadLetterKeyType !== 'none') {
      throw new TypeError(`redis-streams: deadLetterStream ${JSON.stringify(deadLetterStream)} holds a ${deadLetterKeyType}, not a stream`);
    }
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
      for (const [entry, deliveries] of batch) {
        const data = entry.fields.get(MESSAGE_FIELD);
        const message: StreamMessage = { stream, id: entry.id, deliveries };
        const decision = data === undefined ? noMessageField() : await decideDelivery({ data, deliveries, message }, handler, policy);
        countDecision(counts, await settle(entry, deliveries, decision));
      }
    }
  })();
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
