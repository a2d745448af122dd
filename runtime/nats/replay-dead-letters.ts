import type { JetStreamManager } from '@nats-io/jetstream';
import type { EventErrorCode } from '../index.js';
import { emptyTally, keep, recheck, TOO_LARGE, tooLarge, type ReplaySelection, type ReplayTally } from '../bus/replay.js';
import { DEAD_LETTER_HEADERS } from './dead-letter-headers.js';

export interface ReplayDeadLettersOptions extends ReplaySelection {
  /** The stream that holds the dead letters. */
  stream: string;
}

/** What a replay did; each moved one names its dead-letter sequence, the subject it went to and the reason it had been set aside for. */
export type ReplayReport = ReplayTally<EventErrorCode | 'no_subject' | typeof TOO_LARGE, { deadLetterSeq: number; subject: string; reason: string }>;

/**
 * After an upgrade (a newer catalog, a fixed handler): re-validates every dead letter in
 * `stream`; each one that is valid now is published again on its original subject
 * (`Catalog-Subject`), de-duplicated by its dead-letter sequence, and then deleted from the
 * dead-letter stream. The rest stay, counted by the reason they still fail (`too_large`: valid, but
 * over `maxMessageBytes`, so the consumers would refuse it again).
 */
export async function replayDeadLetters(jsm: JetStreamManager, options: ReplayDeadLettersOptions): Promise<ReplayReport> {
  const js = jsm.jetstream();
  const info = await jsm.streams.info(options.stream);
  const report: ReplayReport = emptyTally();
  const limit = options.limit ?? Number.POSITIVE_INFINITY;

  for (let seq = info.state.first_seq; seq <= info.state.last_seq && report.examined < limit; seq++) {
    const stored = await jsm.streams.getMessage(options.stream, { seq }).catch(() => null);
    if (stored === null) continue; // deleted earlier
    report.examined += 1;
    const subject = stored.header?.get(DEAD_LETTER_HEADERS.subject) ?? '';
    const result = recheck(stored.data, options);
    if (!result.ok) {
      keep(report, result.error.code);
      continue;
    }
    if (tooLarge(stored.data, options)) {
      keep(report, TOO_LARGE);
      continue;
    }
    if (subject === '') {
      keep(report, 'no_subject');
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
