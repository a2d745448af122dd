/**
 * 1. Throughput: a stream of messages over every event (skewed mix, ~5 % broken, spread over
 * every error class), already parsed, through `validateEvent` and each peer, plus
 * `JSON.parse` of the same messages as text. Then the valid messages alone, against
 * `JSON.parse` of their text; then valid messages spread evenly over every event version, as
 * parsed objects used again and again, and each parsed afresh from its text before it is
 * checked (as a consumer meets them: strings and objects the engine has not seen before).
 * The comparisons the goals name are then timed again in interleaved rounds (`PairedRatio`).
 *
 * The input is prepared by the harness (`inputs.ts`); `measureThroughput` runs in the bench
 * worker, a plain `node` process with nothing else loaded.
 */
import { pathToFileURL } from 'node:url';
import { do_not_optimize } from 'mitata';
import type { StreamInput } from './inputs.js';
import { summarize, type Summary } from './common.js';
import { timeIt, type BenchStats, type TimingOptions } from './measure.js';
import { ajvDiscriminator, ajvOneOf, ajvPayloadMap, typeboxPayloadMap, zodDiscriminatedUnion, zodMap, type Check, type MessageSchema } from './peers.js';

/** The peers also timed on freshly parsed messages: the hand-rolled ones the valid-path goals name. */
const FRESH_PEERS = ['Map → ajv.compile (first error)', 'Map → TypeBox 1.x Compile'];

/** Ours in strict mode (evenly spread stream only: its messages are valid in both modes). */
export const OURS_STRICT = 'ours: validateEvent, strict mode';

export interface ThroughputJob {
  group: 'throughput';
  rootFile: string;
  stream: StreamInput;
  /** Valid message texts, every event version equally often. */
  even: string[];
  schemas: MessageSchema[];
  timing: TimingOptions;
  paired: PairedOptions;
}

export interface PairedOptions {
  /** Interleaved rounds per compared pair. */
  rounds: number;
  /** Time each of the two spends in one round, ms (whole walks of the input). */
  blockMs: number;
}

/**
 * A goal's two candidates timed again in interleaved rounds: each round walks the input with
 * one for about `blockMs`, then with the other, the order flipping every round; its ratio is
 * the first's time per walk over the second's. A slow drift in machine speed (shared cores,
 * frequency) falls on both halves of a round alike, where timing one candidate after the
 * other, each for seconds, puts it all on one side. Before each block the heap is collected
 * and one untimed walk runs.
 */
export interface PairedRatio {
  set: 'stream' | 'validOnly' | 'even';
  first: string;
  second: string;
  rounds: number;
  /** First ÷ second, over the rounds. */
  ratios: Summary;
}

/** The comparisons the valid-path goals name: (set, first, second). */
export const PAIRED: readonly (readonly [PairedRatio['set'], string, string])[] = [
  ['stream', 'ours: validateEvent', 'Map → ajv.compile (first error)'],
  ['validOnly', 'ours: validateEvent', 'Map → ajv.compile (first error)'],
  ['validOnly', 'ours: validateEvent', 'Map → TypeBox 1.x Compile'],
  ['even', 'ours: validateEvent', 'Map → ajv.compile (first error)'],
  ['even', 'ours: validateEvent', 'Map → TypeBox 1.x Compile'],
  ['even', OURS_STRICT, 'ours: validateEvent'],
];

export interface ThroughputResult {
  messages: number;
  validMessages: number;
  droppedNotJson: number;
  composition: Record<string, number>;
  /** Messages on which a peer's verdict differs from ours (should be 0 for every peer). */
  disagreements: Record<string, number>;
  disagreementExamples: { peer: string; text: string; ours: boolean }[];
  setupMs: Record<string, number>;
  stream: BenchStats[];
  validOnly: BenchStats[];
  /** Valid messages spread evenly over every event version. */
  even: BenchStats[];
  /** The same, each parsed afresh from its text and then checked (`JSON.parse` alone included, for the difference). */
  evenFresh: BenchStats[];
  evenMessages: number;
  /** The goals' comparisons in interleaved rounds (absent from results written before they were measured). */
  paired?: PairedRatio[];
}

// ---------------------------------------------------------------------------------------
// Worker side

interface RootModule {
  validateEvent(message: unknown, options?: { mode: 'strict' }): { ok: boolean };
  decodeEvent(raw: string): { ok: boolean };
}

const timed = <T>(setup: Record<string, number>, name: string, build: () => T): T => {
  const started = performance.now();
  const value = build();
  setup[name] = performance.now() - started;
  return value;
};

export async function measureThroughput(job: ThroughputJob): Promise<ThroughputResult> {
  const root = (await import(pathToFileURL(job.rootFile).href)) as RootModule;
  const { texts, kinds } = job.stream;
  const messages: unknown[] = texts.map((t) => JSON.parse(t) as unknown);

  const setupMs: Record<string, number> = {};
  const ours: Check = (m) => root.validateEvent(m).ok;
  const strictMode = { mode: 'strict' } as const;
  const oursStrict: Check = (m) => root.validateEvent(m, strictMode).ok;
  const peers: [string, Check][] = [
    ['ajv discriminator (type → version)', timed(setupMs, 'ajv discriminator (type → version)', () => ajvDiscriminator(job.schemas))],
    ['zod 4, Map type → version → schema', timed(setupMs, 'zod 4, Map type → version → schema', () => zodMap(job.schemas))],
    ['zod 4, nested discriminatedUnion', timed(setupMs, 'zod 4, nested discriminatedUnion', () => zodDiscriminatedUnion(job.schemas))],
    ['Map → ajv.compile (first error)', timed(setupMs, 'Map → ajv.compile (first error)', () => ajvPayloadMap(job.schemas, { allErrors: false }))],
    ['Map → ajv.compile (allErrors)', timed(setupMs, 'Map → ajv.compile (allErrors)', () => ajvPayloadMap(job.schemas, { allErrors: true }))],
    ['Map → TypeBox 1.x Compile', timed(setupMs, 'Map → TypeBox 1.x Compile', () => typeboxPayloadMap(job.schemas))],
    ['ajv oneOf over every message schema', timed(setupMs, 'ajv oneOf over every message schema', () => ajvOneOf(job.schemas))],
  ];

  // Verdicts first (untimed): every peer must agree with ours on every message.
  const oursVerdicts = messages.map(ours);
  const disagreements: Record<string, number> = {};
  const disagreementExamples: ThroughputResult['disagreementExamples'] = [];
  for (const [name, check] of peers) {
    let count = 0;
    messages.forEach((m, i) => {
      if (check(m) !== oursVerdicts[i]) {
        count++;
        if (disagreementExamples.length < 10) disagreementExamples.push({ peer: name, text: texts[i]!.slice(0, 300), ours: oursVerdicts[i]! });
      }
    });
    disagreements[name] = count;
  }
  const decodeDisagree = texts.filter((t, i) => root.decodeEvent(t).ok !== oursVerdicts[i]).length;
  disagreements['decodeEvent (text)'] = decodeDisagree;
  const evenMessages: unknown[] = job.even.map((t) => JSON.parse(t) as unknown);
  // Every evenly spread message is valid: ours and every peer must accept each one.
  for (const [name, check] of [['ours: validateEvent', ours] as const, [OURS_STRICT, oursStrict] as const, ...peers]) {
    const rejected = evenMessages.filter((m) => !check(m)).length;
    if (rejected > 0) disagreements[`${name} (evenly spread, rejects valid)`] = rejected;
  }

  const composition: Record<string, number> = {};
  for (const kind of kinds) composition[kind] = (composition[kind] ?? 0) + 1;

  const validIndexes = oursVerdicts.flatMap((ok, i) => (ok ? [i] : []));
  const validMessages = validIndexes.map((i) => messages[i]);
  const validTexts = validIndexes.map((i) => texts[i]!);

  const walk = (check: Check, input: readonly unknown[]) => () => {
    let ok = 0;
    for (let i = 0; i < input.length; i++) if (check(input[i])) ok++;
    return ok;
  };
  const parseAll = (input: readonly string[]) => () => {
    let keys = 0;
    for (let i = 0; i < input.length; i++) if ((JSON.parse(input[i]!) as object | null) !== null) keys++;
    return keys;
  };
  const parseThenCheck = (check: Check, input: readonly string[]) => () => {
    let ok = 0;
    for (let i = 0; i < input.length; i++) if (check(JSON.parse(input[i]!) as unknown)) ok++;
    return ok;
  };
  const decodeAll = (input: readonly string[]) => () => {
    let ok = 0;
    for (let i = 0; i < input.length; i++) if (root.decodeEvent(input[i]!).ok) ok++;
    return ok;
  };

  const t = job.timing;
  /** Each set's walks by candidate name, kept for the interleaved rounds. */
  const walks = { stream: new Map<string, () => number>(), validOnly: new Map<string, () => number>(), even: new Map<string, () => number>() };
  const timeWalk = (set: keyof typeof walks, name: string, input: readonly unknown[], check: Check) => {
    const fn = walk(check, input);
    walks[set].set(name, fn);
    return timeIt(name, input.length, fn, t);
  };
  const stream: BenchStats[] = [];
  stream.push(await timeWalk('stream', 'ours: validateEvent', messages, ours));
  for (const [name, check] of peers) stream.push(await timeWalk('stream', name, messages, check));
  stream.push(await timeIt('JSON.parse of the same messages (text)', texts.length, parseAll(texts), t));
  stream.push(await timeIt('ours: decodeEvent (text: parse + validate)', texts.length, decodeAll(texts), t));

  const validOnly: BenchStats[] = [];
  validOnly.push(await timeWalk('validOnly', 'ours: validateEvent', validMessages, ours));
  validOnly.push(await timeIt('JSON.parse of the same messages (text)', validTexts.length, parseAll(validTexts), t));
  for (const [name, check] of peers) validOnly.push(await timeWalk('validOnly', name, validMessages, check));

  const even: BenchStats[] = [];
  even.push(await timeWalk('even', 'ours: validateEvent', evenMessages, ours));
  even.push(await timeWalk('even', OURS_STRICT, evenMessages, oursStrict));
  even.push(await timeIt('JSON.parse of the same messages (text)', job.even.length, parseAll(job.even), t));
  for (const [name, check] of peers) even.push(await timeWalk('even', name, evenMessages, check));

  const statsOf = { stream, validOnly, even };
  const paired = PAIRED.map(([set, first, second]) => {
    const walkTime = (name: string) => statsOf[set].find((s) => s.name === name)!.medianNs;
    return pairedRatio(set, [first, walks[set].get(first)!, walkTime(first)], [second, walks[set].get(second)!, walkTime(second)], job.paired);
  });

  const evenFresh: BenchStats[] = [];
  evenFresh.push(await timeIt('JSON.parse of the same messages (text)', job.even.length, parseAll(job.even), t));
  evenFresh.push(await timeIt('JSON.parse, then ours: validateEvent', job.even.length, parseThenCheck(ours, job.even), t));
  for (const [name, check] of peers.filter(([name]) => FRESH_PEERS.includes(name))) evenFresh.push(await timeIt(`JSON.parse, then ${name}`, job.even.length, parseThenCheck(check, job.even), t));

  return {
    messages: messages.length,
    validMessages: validMessages.length,
    droppedNotJson: job.stream.droppedNotJson,
    composition,
    disagreements,
    disagreementExamples,
    setupMs,
    stream,
    validOnly,
    even,
    evenFresh,
    evenMessages: evenMessages.length,
    paired,
  };
}

/** See `PairedRatio`. Each candidate: its name, its walk, and its median time per walk (to size a round). */
function pairedRatio(set: PairedRatio['set'], a: [string, () => number, number], b: [string, () => number, number], options: PairedOptions): PairedRatio {
  const walksPerBlock = (medianNs: number) => Math.max(1, Math.round((options.blockMs * 1e6) / medianNs));
  const gc = (globalThis as { gc?: () => void }).gc;
  const block = ([, fn, medianNs]: [string, () => number, number]): number => {
    const count = walksPerBlock(medianNs);
    // Each block starts with the heap collected (the garbage one leaves is not collected in the
    // other's time), then one untimed walk brings the messages back into the caches.
    gc?.();
    let sink = fn();
    const started = performance.now();
    for (let i = 0; i < count; i++) sink += fn();
    const elapsed = performance.now() - started;
    do_not_optimize(sink);
    return elapsed / count;
  };
  const ratios: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    if (round % 2 === 0) {
      const first = block(a);
      ratios.push(first / block(b));
    } else {
      const second = block(b);
      ratios.push(block(a) / second);
    }
  }
  return { set, first: a[0], second: b[0], rounds: options.rounds, ratios: summarize(ratios) };
}
