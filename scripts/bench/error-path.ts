/**
 * 2. Error path: what a rejected message costs, with every issue collected (the all-errors
 * validator runs after the first-error one fails), against a valid message of the same
 * events. Also, one call each in a fresh process: the first message of each event, then its
 * first rejection (which builds that event's all-errors validator).
 *
 * Inputs come from `inputs.ts` (`prepareErrorPath`); this runs in the bench worker.
 */
import { pathToFileURL } from 'node:url';
import { summarize, type Summary } from './common.js';
import type { ErrorPathInput } from './inputs.js';
import { timeIt, type BenchStats, type TimingOptions } from './measure.js';
import { ajvPayloadErrors, type MessageSchema } from './peers.js';

export interface ErrorPathJob {
  group: 'error-path';
  rootFile: string;
  input: ErrorPathInput;
  schemas: MessageSchema[];
  timing: TimingOptions;
}

/** The peers on the same rejected messages: ajv's own errors, no issue building. */
export const ERROR_PATH_PEERS = ['Map → ajv.compile (allErrors)', 'Map → ajv.compile (first error)'] as const;

export interface ErrorPathResult {
  counts: { valid: number; singleFault: number; manyFaults: number };
  /** Mean issues per rejected message. */
  meanIssues: { singleFault: number; manyFaults: number };
  /** Messages of the rejected sets that were (wrongly) accepted: must be 0. */
  accepted: number;
  /** The first valid message of each event in this process (the first the root sees of that event), µs over events. */
  firstValidUs: Summary;
  /** Then the first rejection of each event (its all-errors validator built on the spot), µs over events. */
  firstRejectionUs: Summary;
  stats: BenchStats[];
  /** Per rejected set (`one fault`, `every field null`): ours, then each peer of `ERROR_PATH_PEERS`. */
  peers: { set: string; stats: BenchStats[] }[];
  /** Rejected messages on which the all-errors peer reports a different number of errors than ours has issues (for information). */
  issueCountDifferences: { singleFault: number; manyFaults: number };
}

interface RootModule {
  validateEvent(message: unknown): { ok: true } | { ok: false; error: { issues: unknown[] } };
}

export async function measureErrorPath(job: ErrorPathJob): Promise<ErrorPathResult> {
  const root = (await import(pathToFileURL(job.rootFile).href)) as RootModule;
  const parse = (texts: string[]): unknown[] => texts.map((t) => JSON.parse(t) as unknown);

  // Cold first, one call each, in catalog order: the first message of each event (whatever
  // the root does on first sight of an event: with lazily loaded validators, loading them),
  // then, the event being loaded, its first rejection (which builds its all-errors validator).
  const firstValid = parse(job.input.valid);
  const first = parse(job.input.firstRejection);
  const once = (message: unknown, expectOk: boolean): number => {
    const started = performance.now();
    const result = root.validateEvent(message);
    const us = (performance.now() - started) * 1000;
    if (result.ok !== expectOk) throw new Error(`a first-call message was ${result.ok ? 'accepted' : 'rejected'}`);
    return us;
  };
  const firstValidUs = firstValid.map((m) => once(m, true));
  const firstRejectionUs = first.map((m) => once(m, false));

  const valid = firstValid;
  const single = parse(job.input.singleFault);
  const many = parse(job.input.manyFaults);

  let accepted = 0;
  const meanIssues = (messages: unknown[]): number => {
    let issues = 0;
    for (const m of messages) {
      const result = root.validateEvent(m);
      if (result.ok) accepted++;
      else issues += result.error.issues.length;
    }
    return issues / Math.max(1, messages.length);
  };
  const singleIssues = meanIssues(single);
  const manyIssues = meanIssues(many);
  if (valid.some((m) => !root.validateEvent(m).ok)) throw new Error('a valid error-path message was rejected');

  /** Walks the messages; the sum of issue counts (or valid results) keeps every call alive. */
  const walk = (messages: unknown[]) => () => {
    let n = 0;
    for (let i = 0; i < messages.length; i++) {
      const result = root.validateEvent(messages[i]);
      n += result.ok ? 1 : result.error.issues.length;
    }
    return n;
  };

  const allErrors = ajvPayloadErrors(job.schemas, { allErrors: true });
  const firstError = ajvPayloadErrors(job.schemas, { allErrors: false });
  const countDifferences = (messages: unknown[]): number =>
    messages.filter((m) => {
      const result = root.validateEvent(m);
      return result.ok || allErrors(m) !== result.error.issues.length;
    }).length;
  if ([...single, ...many].some((m) => allErrors(m) <= 0 || firstError(m) <= 0)) throw new Error('an error-path peer accepted (or turned away) a rejected message');
  const walkPeer = (peer: (message: unknown) => number, messages: unknown[]) => () => {
    let n = 0;
    for (let i = 0; i < messages.length; i++) n += peer(messages[i]);
    return n;
  };

  const t = job.timing;
  const peers: ErrorPathResult['peers'] = [];
  for (const [set, messages] of [['rejected: one fault', single], ['rejected: every top-level payload field null', many]] as const) {
    const setStats = [await timeIt('ours: validateEvent', messages.length, walk(messages), t)];
    setStats.push(await timeIt(ERROR_PATH_PEERS[0], messages.length, walkPeer(allErrors, messages), t));
    setStats.push(await timeIt(ERROR_PATH_PEERS[1], messages.length, walkPeer(firstError, messages), t));
    peers.push({ set, stats: setStats });
  }
  const stats = [
    await timeIt('valid message (full payload)', valid.length, walk(valid), t),
    await timeIt('rejected: one fault (missing, wrong type or nested)', single.length, walk(single), t),
    await timeIt('rejected: every top-level payload field null', many.length, walk(many), t),
  ];
  return {
    counts: { valid: valid.length, singleFault: single.length, manyFaults: many.length },
    meanIssues: { singleFault: singleIssues, manyFaults: manyIssues },
    accepted,
    firstValidUs: summarize(firstValidUs),
    firstRejectionUs: summarize(firstRejectionUs),
    stats,
    peers,
    issueCountDifferences: { singleFault: countDifferences(single), manyFaults: countDifferences(many) },
  };
}
