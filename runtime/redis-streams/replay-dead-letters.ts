import type { Redis } from 'ioredis';
import type { EventErrorCode } from '../index.js';
import { emptyTally, keep, recheck, TOO_LARGE, tooLarge, type ReplaySelection, type ReplayTally } from '../bus/replay.js';
import { DEAD_LETTER_FIELDS } from './dead-letter-fields.js';
import { decodeOriginalFields } from './original-fields.js';
import { MESSAGE_FIELD } from './publish-event.js';
import { fieldOf, replyText, toEntries } from './stream-replies.js';

export interface ReplayDeadLettersOptions extends ReplaySelection {
  /** The stream that holds the dead letters. */
  deadLetterStream: string;
  /** The stream to add the messages that are valid now to. */
  stream: string;
}

/** What a replay did; each moved one names its dead-letter id, its new id in `stream` and the reason it had been set aside for. */
export type ReplayReport = ReplayTally<EventErrorCode | typeof TOO_LARGE, { deadLetterId: string; id: string; reason: string }>;

const PAGE = 200;

/**
 * After an upgrade (a newer catalog, a fixed handler): re-validates every dead letter; each
 * one that is valid now is added to `stream` again, as the entry it was (every field, byte for
 * byte, from `original_fields`; a dead letter written before that field existed gives back its
 * `message` alone), and deleted from the dead-letter stream in one `MULTI`. The rest stay,
 * counted by the reason they still fail (`too_large`: valid, but over `maxMessageBytes`, so the
 * consumers would refuse it again).
 */
export async function replayDeadLetters(redis: Redis, options: ReplayDeadLettersOptions): Promise<ReplayReport> {
  const report: ReplayReport = emptyTally();
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  let start = '-';
  while (report.examined < limit) {
    const page = toEntries(await redis.callBuffer('XRANGE', options.deadLetterStream, start, '+', 'COUNT', PAGE));
    for (const entry of page) {
      if (report.examined >= limit) break;
      report.examined += 1;
      const data = fieldOf(entry, DEAD_LETTER_FIELDS.message) ?? Buffer.alloc(0);
      const result = recheck(data, options);
      if (!result.ok) {
        keep(report, result.error.code);
        continue;
      }
      if (tooLarge(data, options)) {
        keep(report, TOO_LARGE);
        continue;
      }
      let id = '';
      if (!options.dryRun) {
        const originalFields = fieldOf(entry, DEAD_LETTER_FIELDS.originalFields);
        const fields = (originalFields && decodeOriginalFields(originalFields.toString('utf8'), data)) ?? [Buffer.from(MESSAGE_FIELD), data];
        const results = await redis.multi().xadd(options.stream, '*', ...fields).xdel(options.deadLetterStream, entry.id).exec();
        const failed = results?.find(([error]) => error !== null)?.[0];
        if (results === null || failed) throw failed ?? new Error('redis-streams: replay transaction aborted');
        id = replyText(results[0]?.[1]);
      }
      report.moved += 1;
      report.movedMessages.push({ deadLetterId: entry.id, id, reason: fieldOf(entry, DEAD_LETTER_FIELDS.reason)?.toString('utf8') ?? '' });
    }
    if (page.length < PAGE) break;
    start = `(${page[page.length - 1]!.id}`;
  }
  return report;
}
