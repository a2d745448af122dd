import type { JetStreamManager } from '@nats-io/jetstream';
import { decodeEvent, type EventErrorCode, type ValidationMode } from '../index.js';
import { DEAD_LETTER_HEADERS } from './dead-letter-headers.js';

export interface ReplayDeadLettersOptions {
  /** The stream that holds the dead letters. */
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
  /** Valid now: published again on their original subject and removed from the dead-letter stream. */
  moved: number;
  /** Still rejected, by the reason they are rejected for now; they stay where they are. */
  kept: Partial<Record<EventErrorCode | 'no_subject', number>>;
  /** The moved ones: dead-letter sequence, subject published to, reason they had been set aside for. */
  movedMessages: { deadLetterSeq: number; subject: string; reason: string }[];
}

/**
 * After an upgrade (a newer catalog, a fixed handler): re-validates every dead letter in
 * `stream`; each one that is valid now is published again on its original subject
 * (`Catalog-Subject`), de-duplicated by its dead-letter sequence, and then deleted from the
 * dead-letter stream. The rest stay, counted by the reason they still fail.
 */
export async function replayDeadLetters(jsm: JetStreamManager, options: ReplayDeadLettersOptions): Promise<ReplayReport> {
  const js = jsm.jetstream();
  const info = await jsm.streams.info(options.stream);
  const report: ReplayReport = { examined: 0, moved: 0, kept: {}, movedMessages: [] };
  const keep = (why: EventErrorCode | 'no_subject') => (report.kept[why] = (report.kept[why] ?? 0) + 1);
  const limit = options.limit ?? Number.POSITIVE_INFINITY;

  for (let seq = info.state.first_seq; seq <= info.state.last_seq && report.examined < limit; seq++) {
    const stored = await jsm.streams.getMessage(options.stream, { seq }).catch(() => null);
    if (stored === null) continue; // deleted earlier
    report.examined += 1;
    const subject = stored.header?.get(DEAD_LETTER_HEADERS.subject) ?? '';
    const result = decodeEvent(stored.data, { mode: options.mode ?? 'tolerant' });
    if (!result.ok) {
      keep(result.error.code);
      continue;
    }
    if (subject === '') {
      keep('no_subject');
      continue;
    }
    if (!options.dryRun) {
      await js.publish(subject, stored.data, { msgID: `replay:${options.stream}:${seq}` });
      await jsm.streams.deleteMessage(options.stream, seq, false);
    }
    report.moved += 1;
    report.movedMessages.push({ deadLetterSeq: seq, subject, reason: stored.header?.get(DEAD_LETTER_HEADERS.reason) ?? '' });
  }
  return report;
}
