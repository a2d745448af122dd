/**
 * The emulator's own clock: it starts at `--clock` (or the wall clock, to the second) and
 * moves one second for each operation call it answers, so timestamps differ between calls
 * and repeat between runs that make the same calls.
 */

/** `YYYY-MM-DDTHH:MM:SSZ`, the seed's datetime format. */
export const toDatetime = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export interface EmulatorClock {
  /** The time of the next call, then one second later for the one after. */
  tick(): number;
}

export function createClock(startMs: number): EmulatorClock {
  let next = startMs;
  return {
    tick() {
      const now = next;
      next += 1000;
      return now;
    },
  };
}

/** The calendar month of a time (UTC) as its first and last dates, `YYYY-MM-DD`: the open statement period. */
export function monthOf(ms: number): { first: string; last: string } {
  const date = new Date(ms);
  const [year, month] = [date.getUTCFullYear(), date.getUTCMonth()];
  const day = (d: Date): string => d.toISOString().slice(0, 10);
  return { first: day(new Date(Date.UTC(year, month, 1))), last: day(new Date(Date.UTC(year, month + 1, 0))) };
}
