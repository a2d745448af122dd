import type { JetStreamManager, JsMsg } from '@nats-io/jetstream';
import type { EventErrorCode } from '../index.js';
import { emptyTally, keep, recheck, TOO_LARGE, tooLarge, type ReplaySelection, type ReplayTally } from '../bus/replay.js';
import { DEAD_LETTER_HEADERS } from './dead-letter-headers.js';

export interface ReplayDeadLettersOptions extends ReplaySelection {
  /** The stream that holds the dead letters. */
  stream: string;
}

/** What a replay did; each moved one names its dead-letter sequence, the subject it went to and the reason it had been set aside for. */
export type ReplayReport = ReplayTally<EventErrorCode | 'no_subject' | typeof TOO_LARGE, { deadLetterSeq: number; subject: string; reason: string }>;

/** Dead letters read per request. */
const BATCH = 256;
/** How long one read waits for the server: the stream's messages are there already, so only a slow server makes it wait. */
const READ_EXPIRES_MS = 5_000;

/**
 * After an upgrade (a newer catalog, a fixed handler): re-validates every dead letter in
 * `stream`; each one that is valid now is published again on its original subject
 * (`Catalog-Subject`), de-duplicated by its dead-letter sequence, and then deleted from the
 * dead-letter stream. The rest stay, counted by the reason they still fail (`too_large`: valid,
 * but over `maxMessageBytes`, so the consumers would refuse it again, or a dead letter by
 * reference, whose original is not in it).
 * The dead letters are read in order by an ordered consumer, in batches: the time taken
 * follows what the stream holds, not how many messages it ever held.
 */
export async function replayDeadLetters(jsm: JetStreamManager, options: ReplayDeadLettersOptions): Promise<ReplayReport> {
  const js = jsm.jetstream();
  const info = await jsm.streams.info(options.stream).catch((error: unknown) => {
    if (error instanceof Error && /stream not found/i.test(error.message)) {
      throw new Error(`nats: no stream named "${options.stream}" holds dead letters (stream not found); name the stream that captures the consumers' deadLetterSubject`, { cause: error });
    }
    throw error;
  });
  const report: ReplayReport = emptyTally();
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  if (info.state.messages === 0 || limit <= 0) return report;

  // The messages there now; what consumers add while the replay runs waits for the next one.
  const lastSeq = info.state.last_seq;
  const reader = await js.consumers.get(options.stream, { opt_start_seq: info.state.first_seq });
  try {
    for (let done = false; !done; ) {
      const batch = await reader.fetch({ max_messages: BATCH, expires: READ_EXPIRES_MS });
      let received = 0;
      for await (const stored of batch) {
        received += 1;
        if (stored.seq > lastSeq || report.examined >= limit) {
          done = true;
          break;
        }
        report.examined += 1;
        await replayOne(stored, jsm, options, report);
        // The last one there: stop here rather than wait for the read to expire.
        if (stored.info.pending === 0) {
          done = true;
          break;
        }
      }
      if (received === 0) done = true;
    }
  } finally {
    await reader.delete().catch(() => undefined);
  }
  return report;
}

async function replayOne(stored: JsMsg, jsm: JetStreamManager, options: ReplayDeadLettersOptions, report: ReplayReport): Promise<void> {
  if (stored.headers?.get(DEAD_LETTER_HEADERS.byReference) === 'true') {
    // Its data is the original's first KiB: the original itself is in its own stream.
    keep(report, TOO_LARGE);
    return;
  }
  const subject = stored.headers?.get(DEAD_LETTER_HEADERS.subject) ?? '';
  const result = recheck(stored.data, options);
  if (!result.ok) {
    keep(report, result.error.code);
    return;
  }
  if (tooLarge(stored.data, options)) {
    keep(report, TOO_LARGE);
    return;
  }
  if (subject === '') {
    keep(report, 'no_subject');
    return;
  }
  if (!options.dryRun) {
    await jsm.jetstream().publish(subject, stored.data, { msgID: `replay:${options.stream}:${stored.seq}` });
    await jsm.streams.deleteMessage(options.stream, stored.seq, false);
  }
  report.moved += 1;
  report.movedMessages.push({ deadLetterSeq: stored.seq, subject, reason: stored.headers?.get(DEAD_LETTER_HEADERS.reason) ?? '' });
}
