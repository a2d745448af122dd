/** What `validate` counts while it streams: per-outcome counters, per-event counts and the most frequent issues. */
import { byCodeUnit } from '../contract/code-unit-order.js';
import type { ValidationResult } from '../index.js';
import { closestName } from './did-you-mean.js';

export interface ValidateSummary {
  lines: number;
  valid: number;
  invalid: number;
  unknown: number;
  malformed: number;
  /** Per catalog event seen in the input (valid or `invalid_payload`), by type then version in code-unit order. */
  byEvent: { type: string; version: string; valid: number; invalid: number }[];
  /** The most frequent issues over all rejected lines, most frequent first. */
  topIssues: { code: string; path: string; count: number }[];
  /** The most frequent event types the catalog does not have, each with the catalog type it most likely meant, if one is close. */
  unknownTypes: { type: string; count: number; didYouMean?: string }[];
}

/** How many unknown event types the summary lists. */
export const TOP_UNKNOWN_TYPES = 10;

/** How many issues the summary lists. */
export const TOP_ISSUES = 10;
/** Distinct (code, path) pairs tallied exactly; beyond that the tally prunes itself (see `IssueTally`). */
export const ISSUE_TALLY_CAPACITY = 10_000;

/**
 * Counts (code, path) pairs in bounded memory. Exact while there are at most `capacity`
 * distinct pairs (the normal case: paths come from a finite catalog). Past that, it keeps
 * the heavy hitters the Misra–Gries way: it subtracts the count of the median entry from
 * every entry and drops those at zero, so counts become lower bounds (each off by at most
 * lines/(capacity/2)) and `approximate` says so.
 */
export class IssueTally {
  private readonly counts = new Map<string, number>();
  approximate = false;

  constructor(private readonly capacity = ISSUE_TALLY_CAPACITY) {}

  add(code: string, path: string): void {
    // Codes never hold a NUL, so the first NUL separates code from path.
    const key = `${code}\u0000${path}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (this.counts.size > this.capacity) this.prune();
  }

  private prune(): void {
    this.approximate = true;
    const values = [...this.counts.values()].sort((a, b) => b - a);
    const cut = values[Math.floor(this.capacity / 2)] ?? 1;
    for (const [key, count] of this.counts) {
      if (count <= cut) this.counts.delete(key);
      else this.counts.set(key, count - cut);
    }
  }

  top(n: number): { code: string; path: string; count: number }[] {
    return [...this.counts]
      .map(([key, count]) => {
        const at = key.indexOf('\u0000');
        return { code: key.slice(0, at), path: key.slice(at + 1), count };
      })
      .sort((a, b) => b.count - a.count || byCodeUnit(a.code, b.code) || byCodeUnit(a.path, b.path))
      .slice(0, n);
  }
}


/** Counters for one run of `validate`. */
export class Tally {
  valid = 0;
  invalid = 0;
  unknown = 0;
  malformed = 0;
  /** Blank lines skipped: shown in the table, not part of the JSON summary. */
  blank = 0;
  /** Lines read so far, blank ones included. */
  physicalLines = 0;
  readonly byEvent = new Map<string, Map<string, { valid: number; invalid: number }>>();
  readonly issues = new IssueTally();
  /** Lines per unknown event type, in bounded memory as the issues are (types are clipped by the validator). */
  readonly unknownTypes = new IssueTally();

  /** `knownTypes`: the catalog's event types, to suggest one for a type it does not have. */
  constructor(private readonly knownTypes: readonly string[] = []) {}

  private event(type: string, version: string): { valid: number; invalid: number } {
    let versions = this.byEvent.get(type);
    if (versions === undefined) this.byEvent.set(type, (versions = new Map()));
    let counts = versions.get(version);
    if (counts === undefined) versions.set(version, (counts = { valid: 0, invalid: 0 }));
    return counts;
  }

  count(result: ValidationResult): void {
    if (result.ok) {
      this.valid++;
      this.event(result.event.type, result.event.version).valid++;
      return;
    }
    const { error } = result;
    switch (error.code) {
      case 'invalid_payload':
        this.invalid++;
        this.event(error.type ?? '', error.version ?? '').invalid++;
        break;
      case 'unknown_event_type':
        this.unknown++;
        this.unknownTypes.add('', error.type ?? '');
        break;
      case 'unknown_event_version':
        this.unknown++;
        break;
      default:
        this.malformed++;
    }
    for (const issue of error.issues) this.issues.add(issue.code, issue.path);
  }

  summary(): ValidateSummary {
    const byEvent = [...this.byEvent]
      .sort(([a], [b]) => byCodeUnit(a, b))
      .flatMap(([type, versions]) => [...versions].sort(([a], [b]) => byCodeUnit(a, b)).map(([version, counts]) => ({ type, version, ...counts })));
    return {
      lines: this.valid + this.invalid + this.unknown + this.malformed,
      valid: this.valid,
      invalid: this.invalid,
      unknown: this.unknown,
      malformed: this.malformed,
      byEvent,
      topIssues: this.issues.top(TOP_ISSUES),
      unknownTypes: this.unknownTypes.top(TOP_UNKNOWN_TYPES).map(({ path: type, count }) => {
        const didYouMean = closestName(type, this.knownTypes);
        return didYouMean === undefined ? { type, count } : { type, count, didYouMean };
      }),
    };
  }
}
