import { decodeEvent, type ValidationMode, type ValidationResult } from '../index.js';

/** What every broker's replay of dead letters takes, whatever the broker. */
export interface ReplaySelection {
  /** Validation mode for the re-check. Default `tolerant`, as consumers use. */
  mode?: ValidationMode;
  /** Stop after examining this many dead letters. Default: all of them. */
  limit?: number;
  /** Only report what would move. */
  dryRun?: boolean;
  /**
   * The consumers' `maxMessageBytes` (default 1 MiB, theirs too): a dead letter larger than
   * this would only be dead-lettered again, so it stays, kept as `too_large`.
   */
  maxMessageBytes?: number;
}

/** Why a dead letter stays although it is valid: the consumers would refuse it again unread. */
export const TOO_LARGE = 'too_large';

/** What a replay did: `Why` names why a dead letter stays, `Moved` describes one that moved. */
export interface ReplayTally<Why extends string, Moved> {
  examined: number;
  /** Valid now: delivered again and removed from the dead letters. */
  moved: number;
  /** Still rejected, by the reason they are rejected for now; they stay where they are. */
  kept: Partial<Record<Why, number>>;
  /** The moved ones, with the reason they had been set aside for. */
  movedMessages: Moved[];
}

export const emptyTally = <Why extends string, Moved>(): ReplayTally<Why, Moved> => ({ examined: 0, moved: 0, kept: {}, movedMessages: [] });

/** Counts one dead letter that stays, under why it stays. */
export function keep<Why extends string>(tally: ReplayTally<Why, unknown>, why: Why): void {
  tally.kept[why] = (tally.kept[why] ?? 0) + 1;
}

/** Whether the consumers would dead-letter these bytes again unread, for their size. */
export const tooLarge = (data: Uint8Array, selection: ReplaySelection): boolean => data.byteLength > (selection.maxMessageBytes ?? 1024 * 1024);

/** The re-check of a dead letter's original bytes, in the selection's mode. */
export const recheck = (data: string | Uint8Array, selection: ReplaySelection): ValidationResult => decodeEvent(data, { mode: selection.mode ?? 'tolerant' });

