/**
 * 1. Throughput: a stream of messages over every event (skewed mix, ~5 % broken, spread over
 * every error class), already parsed, through `validateEvent` and each peer, plus
 * `JSON.parse` of the same messages as text. Then the valid messages alone, against
 * `JSON.parse` of their text; then valid messages spread evenly over every event version, as
 * parsed objects used again and again, and each parsed afresh from its text before it is
 * checked (as a consumer meets them: strings and objects the engine has not seen before).
 *
 * The input is prepared by the harness (`inputs.ts`); `measureThroughput` runs in the bench
 * worker, a plain `node` process with nothing else loaded.
 */
import { pathToFileURL } from 'node:url';
import type { StreamInput } from './inputs.js';
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
}

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
  const stream: BenchStats[] = [];
  stream.push(await timeIt('ours: validateEvent', messages.length, walk(ours, messages), t));
  for (const [name, check] of peers) stream.push(await timeIt(name, messages.length, walk(check, messages), t));
  stream.push(await timeIt('JSON.parse of the same messages (text)', texts.length, parseAll(texts), t));
  stream.push(await timeIt('ours: decodeEvent (text: parse + validate)', texts.length, decodeAll(texts), t));

  const validOnly: BenchStats[] = [];
  validOnly.push(await timeIt('ours: validateEvent', validMessages.length, walk(ours, validMessages), t));
  validOnly.push(await timeIt('JSON.parse of the same messages (text)', validTexts.length, parseAll(validTexts), t));
  for (const [name, check] of peers) validOnly.push(await timeIt(name, validMessages.length, walk(check, validMessages), t));

  const even: BenchStats[] = [];
  even.push(await timeIt('ours: validateEvent', evenMessages.length, walk(ours, evenMessages), t));
  even.push(await timeIt(OURS_STRICT, evenMessages.length, walk(oursStrict, evenMessages), t));
  even.push(await timeIt('JSON.parse of the same messages (text)', job.even.length, parseAll(job.even), t));
  for (const [name, check] of peers) even.push(await timeIt(name, evenMessages.length, walk(check, evenMessages), t));

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
  };
}
