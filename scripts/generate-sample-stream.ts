/**
 * `npm run samples -- [--count N] [--invalid-share F] [--seed S] [--out FILE|-]`
 *
 * Writes a realistic JSON Lines dump of bus messages built from the real catalog, for trying
 * and testing the `validate` command:
 *
 * - `--count N` (default 10000): messages, i.e. counted lines. Blank lines (about 0.5 %, which
 *   the CLI skips and does not count) come on top.
 * - `--invalid-share F` (default 0.05): share of messages broken on purpose, spread round-robin
 *   over every error class (see `SampleKind`). The `extra_property` class counts towards it
 *   although it is only rejected in strict mode (and not even there on an open event's payload),
 *   so the share rejected in tolerant mode is a little lower than F.
 * - `--seed S` (default `1`): any string; the same seed gives the same bytes.
 * - `--out FILE` (default `.cache/sample.jsonl`, which git ignores, like all of `.cache/`;
 *   `-`: standard output). It says where it wrote, on standard error.
 *
 * The mix is skewed (Zipf over a seed-shuffled order of the events: a few events are much more
 * frequent than the rest), and every event appears at least once as a valid message when N is
 * at least the number of events. Some messages carry envelope extras (`id`, `time`, `source`,
 * `traceparent`), as a bus would add.
 *
 * For tests: `generateSampleStream` returns the lines, `generateLabelledSampleStream` the same
 * lines with the class and the expected verdict of each, `sampleStream` yields them one by one.
 */
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CatalogModel, EventVersionModel } from '../generator/model.js';
import type { ValidationMode } from '../runtime/internal/result.js';
import { fnv1a, fullPayload, minimalPayload, mutations, type Mutation } from '../generator/samples/payload-samples.js';

/** What a line is, as generated. */
export type SampleKind =
  /** A valid message (full or minimal payload). */
  | 'valid'
  /** A payload with one unlisted property: valid in tolerant mode; in strict mode invalid, except at the top of an open event's payload. */
  | 'extra_property'
  /** A required top-level payload property left out. */
  | 'missing_required'
  /** A top-level payload property of the wrong type (or `null` where it is not nullable). */
  | 'wrong_type'
  /** A missing or wrong property deeper down: in a shared type or an array item. */
  | 'nested_error'
  /** Not JSON: truncated, trailing comma, single quotes, two messages on one line, a log prefix. */
  | 'malformed_json'
  /** JSON, but not an object: array, string, number, `null`, `true`. */
  | 'not_object'
  /** An object without a string `type` or `version`, or without an object `payload`. */
  | 'missing_envelope'
  /** An event type the catalog does not have. */
  | 'unknown_type'
  /** A known event type with a version the catalog does not have. */
  | 'unknown_version'
  /** Empty or only white space: skipped, not counted. */
  | 'blank';

/** What the `validate` command should make of a line. */
export type SampleOutcome = 'valid' | 'invalid' | 'unknown' | 'malformed' | 'skipped';

export interface SampleLine {
  text: string;
  kind: SampleKind;
  /** The catalog event the line carries (`valid` and the payload kinds), or the known type of `unknown_version`. */
  type?: string;
  version?: string;
  /** For the payload kinds: the JSON Pointer, in the message, of the property at fault. */
  path?: string;
  expected: Readonly<Record<ValidationMode, SampleOutcome>>;
}

export interface SampleStreamOptions {
  /** Messages (counted lines); default 10000. */
  count?: number;
  /** Share of messages broken on purpose, 0..1; default 0.05. */
  invalidShare?: number;
  /** Any string or number; default `1`. */
  seed?: string | number;
  /** Chance of a blank line after each message; default 0.005. */
  blankShare?: number;
}

export const SAMPLE_DEFAULTS = { count: 10000, invalidShare: 0.05, seed: '1', blankShare: 0.005 } as const;

/**
 * The broken kinds, in the round-robin order they are handed out: the first nine are the nine
 * classes, so every class is present as soon as nine messages are broken; payload errors come
 * more often than the rest.
 */
const BROKEN_CYCLE: readonly SampleKind[] = [
  'missing_required',
  'malformed_json',
  'wrong_type',
  'unknown_type',
  'extra_property',
  'not_object',
  'nested_error',
  'unknown_version',
  'missing_envelope',
  'extra_property',
  'missing_required',
  'wrong_type',
];

/** Every class a line can have, for tests that want to see each. */
export const SAMPLE_KINDS: readonly SampleKind[] = ['valid', ...new Set(BROKEN_CYCLE), 'blank'];

/** Plausible event types that are not in the catalog (any that are, are left out). */
const UNKNOWN_TYPES = [
  'account.deleted',
  'account.merged',
  'Account.Created',
  'billing.invoice.voided',
  'billing.payment.refunded',
  'consents.consent.withdrawn',
  'lead.archived',
  'meter.read.estimated',
  'payments.direct_debit.failed',
  'account_user.logged_in',
];

const FIXED = (outcome: SampleOutcome): Record<ValidationMode, SampleOutcome> => ({ tolerant: outcome, strict: outcome });

/** mulberry32: small, fast, good enough for test data, and the same on every platform. */
function prng(seed: string | number): () => number {
  let state = fnv1a(String(seed));
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What is needed, per event, to write its lines; built once. */
interface EventSamples {
  event: EventVersionModel;
  fullJson: string;
  minimalJson: string;
  missing: Mutation[];
  wrong: Mutation[];
  nested: Mutation[];
  extra: Mutation[];
}

const depth = (pointer: string): number => pointer.split('/').length - 1;

function eventSamples(model: CatalogModel, event: EventVersionModel): EventSamples {
  const all = mutations(model, event);
  const isExtra = (m: Mutation) => m.label.startsWith('unlisted property ');
  return {
    event,
    fullJson: JSON.stringify(fullPayload(model, event)),
    minimalJson: JSON.stringify(minimalPayload(model, event)),
    missing: all.filter((m) => m.label.startsWith('missing ') && depth(m.expectPath) === 1),
    wrong: all.filter((m) => (m.label.startsWith('wrong type ') || m.label.startsWith('null ')) && depth(m.expectPath) === 1),
    nested: all.filter((m) => !isExtra(m) && depth(m.expectPath) > 1),
    extra: all.filter(isExtra),
  };
}

/** The lines of a sample stream, one by one (constant memory: fit for millions of lines). */
export function* sampleStream(model: CatalogModel, options: SampleStreamOptions = {}): Generator<SampleLine> {
  const count = options.count ?? SAMPLE_DEFAULTS.count;
  const invalidShare = options.invalidShare ?? SAMPLE_DEFAULTS.invalidShare;
  const blankShare = options.blankShare ?? SAMPLE_DEFAULTS.blankShare;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number ≥ 0, got ${count}`);
  if (!(invalidShare >= 0 && invalidShare <= 1)) throw new RangeError(`invalid share must be between 0 and 1, got ${invalidShare}`);
  if (!(blankShare >= 0 && blankShare < 1)) throw new RangeError(`blank share must be between 0 and 1 (excluded), got ${blankShare}`);
  if (model.events.length === 0) throw new Error('the catalog has no events');

  const random = prng(options.seed ?? SAMPLE_DEFAULTS.seed);
  const below = (n: number): number => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[below(items.length)]!;
  const chance = (p: number): boolean => random() < p;

  const events = model.events.map((event) => eventSamples(model, event));
  const versionsByType = new Map<string, Set<string>>();
  for (const { type, version } of model.events) versionsByType.set(type, (versionsByType.get(type) ?? new Set()).add(version));
  const unknownTypes = UNKNOWN_TYPES.filter((type) => !versionsByType.has(type));

  // The skew: Zipf weights (1/rank) over a seed-shuffled order of the events.
  const order = events.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = below(i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const cumulative: number[] = [];
  let totalWeight = 0;
  for (let rank = 0; rank < order.length; rank++) cumulative.push((totalWeight += 1 / (rank + 1)));
  const skewedIndex = (): number => {
    const target = random() * totalWeight;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return order[lo]!;
  };
  const skewed = (): EventSamples => events[skewedIndex()]!;
  /** A skewed pick among the events that can be broken in a given way. */
  const skewedWith = (has: (e: EventSamples) => boolean): EventSamples => {
    for (let attempt = 0; attempt < 64; attempt++) {
      const candidate = skewed();
      if (has(candidate)) return candidate;
    }
    const eligible = events.filter(has);
    if (eligible.length === 0) throw new Error('no event of the catalog can be broken that way');
    return pick(eligible);
  };

  // Events not yet seen in a valid message, for the "every event at least once" promise.
  const unseen = events.map((_, i) => i);
  const unseenAt = events.map((_, i) => i);
  const markSeen = (index: number): void => {
    const at = unseenAt[index]!;
    if (at < 0) return;
    const last = unseen.pop()!;
    if (last !== index) {
      unseen[at] = last;
      unseenAt[last] = at;
    }
    unseenAt[index] = -1;
  };

  // Exactly `broken` messages are broken (selection sampling), leaving room for coverage.
  let broken = Math.round(count * invalidShare);
  if (count >= events.length) broken = Math.min(broken, count - events.length);
  let brokenLeft = broken;
  let cycle = 0;

  const startTime = Date.UTC(2024, 2, 1, 6, 0, 0);
  let clock = startTime;
  const hex = (digits: number): string => {
    let out = '';
    for (let i = 0; i < digits; i++) out += below(16).toString(16);
    return out;
  };
  const uuid = (): string => `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + below(4)).toString(16)}${hex(3)}-${hex(12)}`;
  const SOURCES = ['urn:data-import:billing', 'urn:data-import:accounts', 'urn:data-import:lifecycle', 'urn:data-import:messaging'];

  /** A message line around a payload's JSON text, with envelope extras on some. */
  const envelope = (type: unknown, version: unknown, payloadJson: string, omit?: 'type' | 'version' | 'payload'): string => {
    const head: string[] = [];
    const tail: string[] = [];
    if (chance(0.6)) {
      clock += 1 + below(400);
      const extras = [`"id":"${uuid()}"`, `"time":"${new Date(clock).toISOString()}"`];
      if (chance(0.15)) extras.push(`"source":${JSON.stringify(pick(SOURCES))}`);
      if (chance(0.05)) extras.push(`"traceparent":"00-${hex(32)}-${hex(16)}-01"`);
      (chance(0.5) ? head : tail).push(...extras);
    }
    const core: string[] = [];
    if (omit !== 'type') core.push(`"type":${JSON.stringify(type)}`);
    if (omit !== 'version') core.push(`"version":${JSON.stringify(version)}`);
    if (omit !== 'payload') core.push(`"payload":${payloadJson}`);
    return `{${[...head, ...core, ...tail].join(',')}}`;
  };

  const validLine = (samples: EventSamples): string =>
    envelope(samples.event.type, samples.event.version, chance(0.6) ? samples.fullJson : samples.minimalJson);

  const payloadLine = (kind: SampleKind, mutationsOf: (e: EventSamples) => Mutation[]): SampleLine => {
    const samples = skewedWith((e) => mutationsOf(e).length > 0);
    const list = mutationsOf(samples);
    // Extra properties: mostly at the top of the payload, as a newer producer would add them.
    const top = kind === 'extra_property' ? list.filter((m) => depth(m.expectPath) === 1) : [];
    const mutation = top.length > 0 && chance(0.7) ? pick(top) : pick(list);
    const { type, version } = samples.event;
    const expected =
      kind === 'extra_property'
        ? { tolerant: 'valid' as const, strict: mutation.validIn.includes('strict') ? ('valid' as const) : ('invalid' as const) }
        : FIXED('invalid');
    return { text: envelope(type, version, JSON.stringify(mutation.payload)), kind, type, version, path: `/payload${mutation.expectPath}`, expected };
  };

  const brokenLine = (kind: SampleKind): SampleLine => {
    switch (kind) {
      case 'missing_required':
        return payloadLine(kind, (e) => e.missing);
      case 'wrong_type':
        return payloadLine(kind, (e) => e.wrong);
      case 'nested_error':
        return payloadLine(kind, (e) => e.nested);
      case 'extra_property':
        return payloadLine(kind, (e) => e.extra);
      case 'malformed_json': {
        const samples = skewed();
        const line = validLine(samples);
        const variants = [
          () => line.slice(0, 1 + below(line.length - 1)), // cut short
          () => `${line.slice(0, -1)},}`, // trailing comma
          () => `{'type':'${samples.event.type}','version':'${samples.event.version}','payload':{}}`, // single quotes
          () => `{type: "${samples.event.type}", version: "${samples.event.version}", payload: {}}`, // unquoted keys
          () => `${line}${validLine(skewed())}`, // two messages, newline lost
          () => `${new Date(clock).toISOString()} INFO bus-consumer ${line}`, // a log line, not the message
        ];
        return { text: pick(variants)(), kind, expected: FIXED('malformed') };
      }
      case 'not_object': {
        const line = validLine(skewed());
        const variants = [`[${line}]`, '[]', JSON.stringify(skewed().event.type), '42', 'null', 'true'];
        return { text: pick(variants), kind, expected: FIXED('malformed') };
      }
      case 'missing_envelope': {
        const { event, fullJson } = skewed();
        const variants = [
          () => envelope(event.type, event.version, fullJson, 'type'),
          () => envelope(event.type, event.version, fullJson, 'version'),
          () => envelope(event.type, 1, fullJson), // version as a number
          () => envelope(null, event.version, fullJson),
          () => envelope(event.type, event.version, fullJson, 'payload'),
          () => envelope(event.type, event.version, JSON.stringify(fullJson)), // payload encoded twice
          () => envelope(event.type, event.version, '[]'),
        ];
        return { text: pick(variants)(), kind, expected: FIXED('malformed') };
      }
      case 'unknown_type': {
        const type = unknownTypes.length > 0 ? pick(unknownTypes) : `${skewed().event.type}.not_in_catalog`;
        return { text: envelope(type, 'v1', '{}'), kind, expected: FIXED('unknown') };
      }
      case 'unknown_version': {
        const { event, fullJson } = skewed();
        const known = versionsByType.get(event.type)!;
        const highest = Math.max(0, ...[...known].map((v) => Number(/^v(\d+)$/.exec(v)?.[1] ?? 0)));
        const candidates = [`v${highest + 1}`, 'v0', '1', 'V1', `v${highest}.1`, 'latest'].filter((v) => !known.has(v));
        return { text: envelope(event.type, pick(candidates), fullJson), kind, type: event.type, expected: FIXED('unknown') };
      }
      default:
        throw new Error(`not a broken kind: ${kind}`);
    }
  };

  const BLANKS = ['', '', '   ', '\t', ' \t '];
  for (let i = 0; i < count; i++) {
    const remaining = count - i;
    if (brokenLeft > 0 && random() * remaining < brokenLeft) {
      brokenLeft--;
      const kind = BROKEN_CYCLE[cycle++ % BROKEN_CYCLE.length]!;
      yield brokenLine(kind);
    } else {
      // Of the valid slots left, give unseen events their turn often enough to see them all.
      const validLeft = remaining - brokenLeft;
      let index: number;
      if (unseen.length > 0 && random() * validLeft < unseen.length) index = unseen[below(unseen.length)]!;
      else index = skewedIndex();
      markSeen(index);
      const samples = events[index]!;
      yield { text: validLine(samples), kind: 'valid', type: samples.event.type, version: samples.event.version, expected: FIXED('valid') };
    }
    if (blankShare > 0 && chance(blankShare)) yield { text: pick(BLANKS), kind: 'blank', expected: FIXED('skipped') };
  }
}

/** The lines of a sample stream with what each is (see `SampleLine`). */
export function generateLabelledSampleStream(model: CatalogModel, options: SampleStreamOptions = {}): SampleLine[] {
  return [...sampleStream(model, options)];
}

/** The lines of a sample stream (without line ends); the same seed gives the same lines. */
export function generateSampleStream(model: CatalogModel, options: SampleStreamOptions = {}): string[] {
  return Array.from(sampleStream(model, options), (line) => line.text);
}

// ---------------------------------------------------------------------------------------
// Command line

/** Where the samples go unless `--out` says otherwise: inside `.cache/`, which git ignores. */
export const DEFAULT_SAMPLE_FILE = '.cache/sample.jsonl';

const USAGE = `usage: npm run samples -- [--count N] [--invalid-share F] [--seed S] [--out FILE|-]  (default --out ${DEFAULT_SAMPLE_FILE}; - for standard output)`;

/** Writes the lines; resolves to how many were written. */
async function writeLines(lines: Iterable<SampleLine>, out: NodeJS.WritableStream): Promise<number> {
  let batch = '';
  let written = 0;
  for (const line of lines) {
    written++;
    batch += `${line.text}\n`;
    if (batch.length >= 1 << 16) {
      if (!out.write(batch)) await once(out, 'drain');
      batch = '';
    }
  }
  if (batch.length > 0 && !out.write(batch)) await once(out, 'drain');
  return written;
}

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        count: { type: 'string' },
        'invalid-share': { type: 'string' },
        seed: { type: 'string' },
        out: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    console.error(`✘ ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const count = values.count === undefined ? SAMPLE_DEFAULTS.count : Number(values.count);
  const invalidShare = values['invalid-share'] === undefined ? SAMPLE_DEFAULTS.invalidShare : Number(values['invalid-share']);
  if (!Number.isSafeInteger(count) || count < 0) {
    console.error(`✘ --count must be a whole number ≥ 0, got ${values.count}\n${USAGE}`);
    return 2;
  }
  if (!(invalidShare >= 0 && invalidShare <= 1)) {
    console.error(`✘ --invalid-share must be a number between 0 and 1, got ${values['invalid-share']}\n${USAGE}`);
    return 2;
  }

  // Imported here, not at the top: tests import this module with a model of their own.
  const { loadCatalogFromDisk } = await import('../generator/catalog/load-catalog.js');
  const { formatProblem } = await import('../generator/catalog/problems.js');
  const loaded = loadCatalogFromDisk('catalog');
  if (!loaded.model) {
    for (const problem of loaded.errors) console.error(formatProblem(problem));
    console.error('✘ the catalog does not load');
    return 1;
  }

  const lines = sampleStream(loaded.model, { count, invalidShare, seed: values.seed ?? SAMPLE_DEFAULTS.seed });
  const out = values.out ?? DEFAULT_SAMPLE_FILE;
  if (out === '-') {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
    await writeLines(lines, process.stdout);
    return 0;
  }
  try {
    mkdirSync(dirname(resolve(out)), { recursive: true });
  } catch (error) {
    console.error(`✘ cannot write ${out}: ${(error as Error).message}`);
    return 1;
  }
  const file = createWriteStream(out);
  const failed = new Promise<never>((_, reject) => file.on('error', reject));
  const written = await Promise.race([writeLines(lines, file), failed]);
  file.end();
  await Promise.race([once(file, 'finish'), failed]);
  const blank = written - count;
  const ignored = values.out === undefined ? ' (.cache/ is ignored by git)' : '';
  console.error(`✔ wrote ${count.toLocaleString('en-US')} messages${blank > 0 ? ` and ${blank.toLocaleString('en-US')} blank lines` : ''} to ${out}${ignored}`);
  return 0;
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`✘ ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    },
  );
}
