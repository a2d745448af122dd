import type { Redis } from 'ioredis';
import { decodeEvent, type EventErrorCode, type ValidationMode } from '../index.js';
import { MESSAGE_FIELD } from './publish-event.js';
import { replyText, toEntries } from './stream-replies.js';

export interface ReplayDeadLettersOptions {
  /** The stream that holds the dead letters. */
  deadLetterStream: string;
  /** The stream to add the messages that are valid now to. */
  stream: string;
  /** Validation mode for the re-check. Default `tolerant`, as consumers use. */
  mode?: ValidationMode;
  /** Stop after examining this many dead letters. Default: all of them. */
  limit?: number;
  /** Only report what would move. */
  dryRun?: boolean;
}

export interface ReplayReport {
  examined: number;
  /** Valid now: added to `stream` again and deleted from the dead-letter stream. */
  moved: number;
  /** Still rejected, by the reason they are rejected for now; they stay where they are. */
  kept: Partial<Record<EventErrorCode, number>>;
  /** The moved ones: dead-letter id, new id in `stream`, reason they had been set aside for. */
  movedMessages: { deadLetterId: string; id: string; reason: string }[];
}

const PAGE = 200;

/**
 * After an upgrade (a newer catalog, a fixed handler): re-validates every dead letter; each
 * one that is valid now is added to `stream` again and deleted from the dead-letter stream in
 * one `MULTI`. The rest stay, counted by the reason they still fail.
 */
export async function replayDeadLetters(redis: Redis, options: ReplayDeadLettersOptions): Promise<ReplayReport> {
  const report: ReplayReport = { examined: 0, moved: 0, kept: {}, movedMessages: [] };
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  let start = '-';
  while (report.examined < limit) {
    const page = toEntries(await redis.callBuffer('XRANGE', options.deadLetterStream, start, '+', 'COUNT', PAGE));
    for (const entry of page) {
      if (report.examined >= limit) break;
      report.examined += 1;
      const data = entry.fields.get(MESSAGE_FIELD) ?? Buffer.alloc(0);
      const result = decodeEvent(data, { mode: options.mode ?? 'tolerant' });
      if (!result.ok) {
        report.kept[result.error.code] = (report.kept[result.error.code] ?? 0) + 1;
        continue;
      }
      let id = '';
      if (!options.dryRun) {
        const results = await redis.multi().xadd(options.stream, '*', MESSAGE_FIELD, data).xdel(options.deadLetterStream, entry.id).exec();
        const failed = results?.find(([error]) => error !== null)?.[0];
        if (results === null || failed) throw failed ?? new Error('redis-streams: replay transaction aborted');
        id = replyText(results[0]?.[1]);
      }
      report.moved += 1;
      report.movedMessages.push({ deadLetterId: entry.id, id, reason: entry.fields.get('reason')?.toString('utf8') ?? '' });
    }
    if (page.length < PAGE) break;
    start = `(${page[page.length - 1]!.id}`;
  }
  return report;
}
