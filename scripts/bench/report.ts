/**
 * The report: `BENCHMARKS.md` from the results of one run, and the list of targets with
 * their verdicts. Targets are checked on the unrounded numbers; the text shows enough digits
 * that a verdict never contradicts what is printed.
 */
import type { BusResult } from './bus-throughput.js';
import type { EmulatorResult } from './emulator-throughput.js';
import { BEFORE_COMMIT, BROKERS, variant, VARIANTS, type Broker } from './bus-variants.js';
import type { ColdStartResult } from './cold-start.js';
import type { MachineInfo } from './common.js';
import { ERROR_PATH_PEERS, type ErrorPathResult } from './error-path.js';
import type { GenerationResult } from './generation.js';
import type { BenchStats, TimingOptions } from './measure.js';
import { EVENT_TARGET_GZIP_BYTES, INSTALLED_TARGET_BYTES, SELECTED_TARGET_GZIP_BYTES, type SizeResult } from './size.js';
import { OURS_STRICT, type PairedOptions, type PairedRatio, type ThroughputResult } from './throughput.js';
import { TARGET_CASES, type TypeCheckResult, type TypeCheckRow } from './type-check.js';

export const GROUPS = ['throughput', 'error-path', 'cold-start', 'generation', 'type-check', 'size', 'bus', 'emulator'] as const;
export type Group = (typeof GROUPS)[number];

export interface BenchResults {
  quick: boolean;
  machine: MachineInfo;
  package: { kind: 'dist' | 'source'; description: string; events: number; buildMs?: number } | null;
  settings: { count: number; busCount?: number; timing: TimingOptions; paired?: PairedOptions; coldRuns: number; generateRuns: number; factors: number[]; tscRuns: number; heapRuns: number };
  groups: Group[];
  /** Wall time of each step of the run (groups, and preparing the package), ms. */
  groupMs: Record<string, number>;
  totalMs: number;
  throughput?: ThroughputResult;
  errorPath?: ErrorPathResult;
  coldStart?: ColdStartResult;
  generation?: GenerationResult;
  typeCheck?: TypeCheckResult;
  size?: SizeResult;
  bus?: BusResult;
  emulator?: EmulatorResult;
  /** Groups measured in a later run of their own (`--only … --merge`), each with that run's machine. */
  measuredApart?: Partial<Record<Group, MachineInfo>>;
}

export interface TargetCheck {
  id: string;
  group: Group;
  text: string;
  measured: number;
  measuredText: string;
  met: boolean;
  /** What meeting it would take, when missed. */
  gap?: string;
}

// ---------------------------------------------------------------------------------------
// Formatting

const num = (value: number, digits = 1): string =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';
const int = (value: number): string => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
const ratio = (value: number): string => (Number.isFinite(value) ? `${num(value, value >= 100 ? 1 : 2)}×` : 'n/a');
const ms = (value: number): string => `${num(value, 1)} ms`;
const bytes = (value: number): string => `${int(value)} B`;
const kb = (value: number): string => `${num(value / 1000, 1)} kB`;
const row = (cells: readonly (string | number)[]): string => `| ${cells.join(' | ')} |`;
const table = (head: readonly string[], rows: readonly (readonly (string | number)[])[], align?: readonly ('l' | 'r')[]): string[] => [
  row(head),
  row(head.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---'))),
  ...rows.map(row),
];
const verdict = (met: boolean): string => (met ? '✅ met' : '❌ **missed**');

const OURS = 'ours: validateEvent';
const PARSE = 'JSON.parse of the same messages (text)';
const ONE_OF = 'ajv oneOf over every message schema';
const DISCRIMINATOR = 'ajv discriminator (type → version)';
const ZOD_MAP = 'zod 4, Map type → version → schema';
const ZOD_DU = 'zod 4, nested discriminatedUnion';
const MAP_AJV = 'Map → ajv.compile (first error)';
const TYPEBOX = 'Map → TypeBox 1.x Compile';

const find = (stats: readonly BenchStats[], name: string): BenchStats | undefined => stats.find((s) => s.name === name);
/** A timing's interquartile range per message, as every table shows it: `p25–p75`. */
const quartilesPerItem = (s: BenchStats): string => `${num(s.p25Ns / s.items)}–${num(s.p75Ns / s.items)}`;

// ---------------------------------------------------------------------------------------
// Targets

function targets(r: BenchResults): TargetCheck[] {
  const out: TargetCheck[] = [];
  const t = r.throughput;
  if (t) {
    const ours = find(t.stream, OURS)!;
    const speedup = (peer: string) => find(t.stream, peer)!.nsPerItem / ours.nsPerItem;
    const faster = (id: string, peer: string, label: string, limit: number) => {
      const measured = speedup(peer);
      out.push({
        id,
        group: 'throughput',
        text: `≥ ${limit}× faster than ${label}`,
        measured,
        measuredText: `${ratio(measured)} (${num(ours.nsPerItem)} vs ${num(find(t.stream, peer)!.nsPerItem)} ns/message)`,
        met: measured >= limit,
        gap: `ours would need ≤ ${num(find(t.stream, peer)!.nsPerItem / limit)} ns/message on the stream (now ${num(ours.nsPerItem)}): ${ratio((ours.nsPerItem * limit) / find(t.stream, peer)!.nsPerItem)} faster than today`,
      });
    };
    faster('throughput.oneOf', ONE_OF, 'ajv `oneOf`', 100);
    faster('throughput.discriminator', DISCRIMINATOR, 'the ajv discriminator', 4);
    // The faster zod variant: the stricter comparison.
    const zod = [ZOD_MAP, ZOD_DU].map((name) => find(t.stream, name)!).reduce((a, b) => (a.nsPerItem <= b.nsPerItem ? a : b));
    faster('throughput.zod', zod.name, `zod (its faster variant: ${zod.name.replace('zod 4, ', '')})`, 3);
    const validOurs = find(t.validOnly, OURS)!;
    const validParse = find(t.validOnly, PARSE)!;
    const share = validOurs.nsPerItem / validParse.nsPerItem;
    /**
     * `first` takes at most `limit` times `second`'s time on the same messages: the median of
     * the interleaved rounds' ratios where they were measured (`PairedRatio`), else the ratio
     * of the two medians in the tables.
     */
    const atMost = (id: string, set: PairedRatio['set'], text: string, first: string, second: string, limit: number, need: string) => {
      const mine = find(t[set], first)!;
      const theirs = find(t[set], second)!;
      const paired = t.paired?.find((p) => p.set === set && p.first === first && p.second === second);
      const measured = paired ? paired.ratios.median : mine.nsPerItem / theirs.nsPerItem;
      const medians = `${num(mine.nsPerItem)} vs ${num(theirs.nsPerItem)} ns/message`;
      out.push({
        id,
        group: 'throughput',
        text,
        measured,
        measuredText: paired ? `${ratio(measured)}, median of ${paired.rounds} interleaved rounds (quartiles ${ratio(paired.ratios.p25)}–${ratio(paired.ratios.p75)}; medians in the tables ${medians})` : `${ratio(measured)} (${medians})`,
        met: measured <= limit,
        gap: `${need} would need ≤ ${num(theirs.nsPerItem * limit)} ns/message (now ${num(mine.nsPerItem)}): ${ratio(measured / limit)} faster than today`,
      });
    };
    const atMostPeer = (id: string, set: PairedRatio['set'], where: string, peer: string, limit: number, label: string) => atMost(id, set, `${where}: ≤ ${limit}× the time of ${label}`, OURS, peer, limit, 'ours');
    atMostPeer('throughput.map-ajv.valid', 'validOnly', 'valid messages (skewed)', MAP_AJV, 0.9, 'a hand-rolled `Map` → `ajv.compile`');
    atMostPeer('throughput.map-ajv.even', 'even', 'valid messages (evenly spread)', MAP_AJV, 0.9, 'a hand-rolled `Map` → `ajv.compile`');
    atMostPeer('throughput.typebox.valid', 'validOnly', 'valid messages (skewed)', TYPEBOX, 0.9, 'TypeBox `Compile` behind the same `Map`');
    atMostPeer('throughput.typebox.even', 'even', 'valid messages (evenly spread)', TYPEBOX, 0.9, 'TypeBox `Compile` behind the same `Map`');
    if (find(t.even, OURS_STRICT)) atMost('throughput.strict', 'even', 'strict mode ≤ 1.2× the time of tolerant mode (evenly spread valid messages)', OURS_STRICT, OURS, 1.2, 'strict');
    atMostPeer('throughput.map-ajv.stream', 'stream', 'the stream with ~5 % rejected', MAP_AJV, 1, 'the first-error `Map` → `ajv.compile`');
    for (const [id, limit, label] of [
      ['throughput.json-parse', 0.3, 'valid messages cost ≤ 0.3× `JSON.parse` of the same messages'],
      ['throughput.json-parse-stretch', 0.1, 'stretch: ≤ 0.1× `JSON.parse`'],
    ] as const) {
      out.push({
        id,
        group: 'throughput',
        text: label,
        measured: share,
        measuredText: `${ratio(share)} (${num(validOurs.nsPerItem)} vs ${num(validParse.nsPerItem)} ns/message)`,
        met: share <= limit,
        gap: `validating a valid message would need ≤ ${num(validParse.nsPerItem * limit)} ns (now ${num(validOurs.nsPerItem)}): ${ratio(share / limit)} faster`,
      });
    }
  }

  const b = r.bus;
  if (b) {
    for (const broker of BROKERS) {
      for (const ratioResult of b[broker].ratios) {
        if (ratioResult.limit === undefined) continue;
        const { first, second, limit, ratios } = ratioResult;
        const mine = b[broker].runs[first]!;
        const theirs = b[broker].runs[second]!;
        out.push({
          id: `bus.${broker}.${first}-vs-${second}`,
          group: 'bus',
          text: busTargetText(broker, first, second, limit, b.messages),
          measured: ratios.median,
          measuredText: `${ratio(ratios.median)}, median of ${int(b.slots)} slot${b.slots === 1 ? '' : 's'} (quartiles ${ratio(ratios.p25)}–${ratio(ratios.p75)}; medians ${ms(mine.median)} vs ${ms(theirs.median)})`,
          met: ratios.median <= limit,
          gap: `${ratio(ratios.median / limit)} too slow: ${variant(first).short} would need ≤ ${ms(theirs.median * limit)} (median now ${ms(mine.median)})`,
        });
      }
    }
  }

  const e = r.errorPath;
  for (const { set, stats } of e?.peers ?? []) {
    const mine = stats[0]!;
    const peer = find(stats, ERROR_PATH_PEERS[0])!;
    const measured = mine.nsPerItem / peer.nsPerItem;
    out.push({
      id: `error-path.all-errors.${set === 'rejected: one fault' ? 'one-fault' : 'many-faults'}`,
      group: 'error-path',
      text: `${set}: ≤ 2× the time of ajv \`allErrors\` behind the same \`Map\` (its errors, no issues built)`,
      measured,
      measuredText: `${ratio(measured)} (${num(mine.nsPerItem)} vs ${num(peer.nsPerItem)} ns/message)`,
      met: measured <= 2,
      gap: `ours would need ≤ ${num(peer.nsPerItem * 2)} ns/message (now ${num(mine.nsPerItem)}): ${ratio(measured / 2)} faster than today`,
    });
  }
  const c = r.coldStart;
  if (c) {
    const bare = c.scripts.bare.ms.median;
    const root = c.scripts.root.ms.median;
    const rootAbove = c.scripts.root.aboveBare.median;
    const ajvAbove = c.scripts['ajv-at-startup'].aboveBare.median;
    const rootRatio = root / bare;
    out.push({
      id: 'cold-start.root',
      group: 'cold-start',
      text: 'importing the root and validating one message ≤ 1.35× a bare `node`',
      measured: rootRatio,
      measuredText: `${ratio(rootRatio)} (${ms(root)} vs ${ms(bare)})`,
      met: rootRatio <= 1.35,
      gap: `the root import may add ≤ ${ms(0.35 * bare)} to a bare node; it adds ${ms(root - bare)} (${ratio((root - bare) / (0.35 * bare))} too much)`,
    });
    const overheadRatio = ajvAbove / rootAbove;
    out.push({
      id: 'cold-start.vs-ajv',
      group: 'cold-start',
      text: "root's time above bare `node` ≥ 30× smaller than compiling every schema with ajv at start-up",
      measured: overheadRatio,
      measuredText: `${ratio(overheadRatio)} (${ms(rootAbove)} vs ${ms(ajvAbove)} above bare node, paired by round)`,
      met: rootAbove > 0 ? overheadRatio >= 30 : true,
      gap: `the root import would need to add ≤ ${ms(ajvAbove / 30)} above bare node (now ${ms(rootAbove)})`,
    });
  }

  const g = r.generation;
  if (g) {
    const real = g.rows.find((x) => x.factor === 1)!;
    out.push({
      id: 'generation.real',
      group: 'generation',
      text: '`npm run generate` on the real catalog ≤ 2 s (median)',
      measured: real.ms.median,
      measuredText: `${ms(real.ms.median)} (median of ${g.runs} runs)`,
      met: real.ms.median <= 2000,
      gap: `${ms(real.ms.median - 2000)} over; start-up alone (\`--help\`) takes ${ms(g.startupMs.median)}; the generator's own stages take ${ms(real.internalMs)} (${Object.entries(real.stagesMs)
        .map(([k, v]) => `${k} ${int(v)}`)
        .join(', ')} ms)`,
    });
    const ten = g.rows.find((x) => x.factor === 10);
    if (ten) {
      const growth = ten.ms.median / real.ms.median;
      out.push({
        id: 'generation.linear',
        group: 'generation',
        text: 'growth close to linear: 10× catalog ≤ 12× time',
        measured: growth,
        measuredText: `${ratio(growth)} (${ms(ten.ms.median)} vs ${ms(real.ms.median)})`,
        met: growth <= 12,
        gap: `the 10× catalog would need ≤ ${ms(real.ms.median * 12)} (now ${ms(ten.ms.median)}); stage growth: ${Object.entries(ten.stagesMs)
          .map(([k, v]) => `${k} ${ratio(v / (real.stagesMs[k] ?? Number.NaN))}`)
          .join(', ')}`,
      });
    }
  }

  const tc = r.typeCheck;
  if (tc) {
    const groups = new Map<string, TypeCheckRow[]>();
    for (const x of tc.rows) groups.set(`${x.compiler}|${x.skipLibCheck}`, [...(groups.get(`${x.compiler}|${x.skipLibCheck}`) ?? []), x]);
    for (const rows of groups.values()) {
      const base = rows.find((x) => x.file === 'import-only');
      if (!base) continue;
      for (const x of rows.filter((y) => TARGET_CASES.includes(y.file))) {
        const measured = x.ms.median / base.ms.median;
        const clean = x.errors === 0 && x.ts2590 === 0;
        out.push({
          id: `type-check.${x.compiler}.${x.skipLibCheck ? 'skipLibCheck' : 'libCheck'}.${x.file}`,
          group: 'type-check',
          text: `${x.compiler}, skipLibCheck ${x.skipLibCheck}: ${x.file} ≤ 3× import-only, no TS2590`,
          measured,
          measuredText: `${ratio(measured)} (${ms(x.ms.median)} vs ${ms(base.ms.median)}), ${x.ts2590} TS2590, ${x.errors} errors`,
          met: measured <= 3 && clean,
          gap: clean ? `would need ≤ ${ms(base.ms.median * 3)} (now ${ms(x.ms.median)})` : `the compiler reports errors: ${x.output ?? ''}`,
        });
      }
    }
  }

  const sz = r.size;
  if (sz) {
    out.push({
      id: 'size.one-event',
      group: 'size',
      text: 'one event (account.created v1) ≤ 3 KB min+gz',
      measured: sz.exampleEvent.gzipBytes,
      measuredText: `${bytes(sz.exampleEvent.gzipBytes)} (min ${bytes(sz.exampleEvent.minBytes)}); ${sz.events.count - sz.events.overTarget} of ${sz.events.count} events within it`,
      met: sz.exampleEvent.gzipBytes <= EVENT_TARGET_GZIP_BYTES,
      gap: `${bytes(sz.exampleEvent.gzipBytes - EVENT_TARGET_GZIP_BYTES)} over`,
    });
    out.push({
      id: 'size.every-event',
      group: 'size',
      text: '(stricter reading, for information) every event entry ≤ 3 KB min+gz',
      measured: sz.events.gzip.max,
      measuredText: `largest ${bytes(sz.events.largest.gzipBytes)} (${sz.events.largest.entry}); median ${bytes(sz.events.gzip.median)}; ${sz.events.overTarget} of ${sz.events.count} over`,
      met: sz.events.overTarget === 0,
      gap: `${sz.events.overTarget} entries over; the largest by ${bytes(sz.events.largest.gzipBytes - EVENT_TARGET_GZIP_BYTES)}`,
    });
    out.push({
      id: 'size.installed',
      group: 'size',
      text: 'the installed package ≤ 6 MB on disk',
      measured: sz.disk.bytes,
      measuredText: `${kb(sz.disk.bytes)} in ${int(sz.disk.files)} files`,
      met: sz.disk.bytes <= INSTALLED_TARGET_BYTES,
      gap: `${kb(sz.disk.bytes - INSTALLED_TARGET_BYTES)} over`,
    });
    if (sz.selected) {
      out.push({
        id: 'size.selected',
        group: 'size',
        text: 'bundled code ships only what it uses: `createEventValidator` with one event entry ≤ 15 KB min+gz',
        measured: sz.selected.one.gzipBytes,
        measuredText: `${bytes(sz.selected.one.gzipBytes)} (min ${bytes(sz.selected.one.minBytes)}); with ten events ${bytes(sz.selected.ten.gzipBytes)}`,
        met: sz.selected.one.gzipBytes <= SELECTED_TARGET_GZIP_BYTES,
        gap: `${bytes(sz.selected.one.gzipBytes - SELECTED_TARGET_GZIP_BYTES)} over`,
      });
    }
  }
  const em = r.emulator;
  if (em) {
    const rates = `${int(em.rate.emulator.median)} vs ${int(em.rate.prism.median)} (Prism) and ${int(em.rate.bare.median)} (bare) requests/s`;
    out.push({
      id: 'emulator.vs-prism',
      group: 'emulator',
      text: "the emulator ≥ 10× Prism's requests/s on a mix of the 11 operations, 10 connections, with state and both directions validated",
      measured: em.ratios.prism.median,
      measuredText: `${ratio(em.ratios.prism.median)} (${rates})`,
      met: em.ratios.prism.median >= 10,
      gap: `the emulator would need ${int(em.rate.prism.median * 10)} requests/s`,
    });
    out.push({
      id: 'emulator.vs-bare',
      group: 'emulator',
      text: 'the emulator ≥ 0.25× a bare `node:http` server answering a fixed body, same mix and connections',
      measured: em.ratios.bare.median,
      measuredText: `${ratio(em.ratios.bare.median)} (${int(em.rate.emulator.median)} vs ${int(em.rate.bare.median)} requests/s)`,
      met: em.ratios.bare.median >= 0.25,
      gap: `the emulator would need ${int(em.rate.bare.median * 0.25)} requests/s`,
    });
    out.push({
      id: 'emulator.event-latency',
      group: 'emulator',
      text: 'p99 time from a processing response to its event at a NATS consumer < 50 ms',
      measured: em.eventLatencyMs.p99,
      measuredText: `${ms(em.eventLatencyMs.p99)} (median ${ms(em.eventLatencyMs.median)}, ${int(em.eventLatencyMs.n)} processes)`,
      met: em.eventLatencyMs.p99 < 50,
      gap: `${ms(em.eventLatencyMs.p99 - 50)} over`,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Sections

function throughputSection(t: ThroughputResult, settings: BenchResults['settings']): string[] {
  const ours = find(t.stream, OURS)!;
  const invalid = t.messages - t.validMessages;
  const composition = Object.entries(t.composition)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const lines = [
    '## 1. Throughput',
    '',
    `Input: ${int(settings.count)} generated messages (the generator of \`npm run samples\`: Zipf-skewed over every event, 5 % broken round-robin over every error class, seed \`bench\`), already parsed. ` +
      `The ${t.droppedNotJson} lines of the \`malformed_json\` class are not JSON, so they cannot be "already parsed" messages and are left out: ${int(t.messages)} messages remain, ` +
      `${int(t.validMessages)} valid and ${int(invalid)} rejected in tolerant mode (by class: ${composition}; \`extra_property\` is valid in tolerant mode).`,
    '',
    `Every peer gives the same verdict as ours on every message: ${Object.values(t.disagreements).every((n) => n === 0) ? 'yes' : `**no** (${JSON.stringify(t.disagreements)})`}.`,
    '',
    '**The whole stream**',
    '',
    ...table(
      ['validator', 'ns/message (median)', 'p25–p75 (ns/message)', 'time ÷ ours', 'samples'],
      t.stream.map((s) => [s.name, num(s.nsPerItem), quartilesPerItem(s), s.name === OURS ? '—' : ratio(s.nsPerItem / ours.nsPerItem), s.samples]),
    ),
    '',
    '"time ÷ ours": how many times longer than `validateEvent` each takes per message (for a peer: how many times faster ours is).',
    '',
    '**Valid messages only**',
    '',
  ];
  const validOurs = find(t.validOnly, OURS)!;
  const validParse = find(t.validOnly, PARSE)!;
  lines.push(
    ...table(
      ['validator', 'ns/message (median)', 'p25–p75 (ns/message)', 'time ÷ JSON.parse', 'time ÷ ours', 'samples'],
      t.validOnly.map((s) => [
        s.name,
        num(s.nsPerItem),
        quartilesPerItem(s),
        ratio(s.nsPerItem / validParse.nsPerItem),
        s.name === OURS ? '—' : ratio(s.nsPerItem / validOurs.nsPerItem),
        s.samples,
      ]),
    ),
    '',
    `**Valid messages spread evenly** (${int(t.evenMessages)} messages: each event version equally often, every optional field present)`,
    '',
    ...table(
      ['validator', 'ns/message (median)', 'p25–p75 (ns/message)', 'time ÷ JSON.parse', 'time ÷ ours', 'samples'],
      t.even.map((s) => [
        s.name,
        num(s.nsPerItem),
        quartilesPerItem(s),
        ratio(s.nsPerItem / find(t.even, PARSE)!.nsPerItem),
        s.name === OURS ? '—' : ratio(s.nsPerItem / find(t.even, OURS)!.nsPerItem),
        s.samples,
      ]),
    ),
    '',
    ...pairedTable(t, settings),
    ...freshTable(t),
    `Peers are built at start-up from the published schemas: message schemas, or payload schemas behind an envelope check for the \`Map\` peers (build time: ${Object.entries(t.setupMs)
      .map(([k, v]) => `${k} ${ms(v)}`)
      .join('; ')}). Ours is the packaged \`validateEvent\` (precompiled, default tolerant mode).`,
    '',
  );
  return lines;
}

/** The error path against the hand-rolled peers. */
function errorPathPeers(e: ErrorPathResult): string[] {
  return [
    'The same rejected messages through the hand-rolled peers (envelope check, `Map`, `ajv.compile` of the payload schema): ajv\'s own `errors` array, with its messages, and nothing more; ours builds every issue with its path and message, and the error message. ' +
      `Messages where the all-errors peer reports another number of errors than ours has issues: ${e.issueCountDifferences.singleFault} of ${e.counts.singleFault} (one fault), ${e.issueCountDifferences.manyFaults} of ${e.counts.manyFaults} (every field null).`,
    '',
    ...table(
      ['rejected set', 'validator', 'ns/message (median)', 'p25–p75', 'time ÷ ours', 'samples'],
      e.peers.flatMap(({ set, stats }) => stats.map((s) => [set, s.name, num(s.nsPerItem), quartilesPerItem(s), s === stats[0] ? '—' : ratio(s.nsPerItem / stats[0]!.nsPerItem), s.samples])),
      ['l', 'l'],
    ),
    '',
  ];
}

function errorPathSection(e: ErrorPathResult): string[] {
  const valid = e.stats[0]!;
  return [
    '## 2. Error path',
    '',
    `\`validateEvent\` on one valid message per event (${e.counts.valid}), and on rejected messages of the same events, every issue collected: ` +
      `${e.counts.singleFault} with one fault each (a required property missing, a wrong type at the top, or a fault deeper down; ${num(e.meanIssues.singleFault, 2)} issues on average), ` +
      `${e.counts.manyFaults} with every top-level payload field \`null\` (${num(e.meanIssues.manyFaults, 2)} issues on average). Rejected messages accepted by mistake: ${e.accepted}.`,
    '',
    ...table(
      ['message', 'ns/message (median)', 'p25–p75', '× valid', 'samples'],
      e.stats.map((s) => [s.name, num(s.nsPerItem), quartilesPerItem(s), ratio(s.nsPerItem / valid.nsPerItem), s.samples]),
    ),
    '',
    ...(e.peers === undefined ? [] : errorPathPeers(e)),
    `One call each, in a fresh process, over the ${e.firstValidUs.n} events in catalog order: the first message of an event ` +
      `(whatever the root does the first time it sees that event) median ${num(e.firstValidUs.median)} µs (p75 ${num(e.firstValidUs.p75)}, max ${num(e.firstValidUs.max)}); ` +
      `then that event's first rejection (its all-errors validator is built then) median ${num(e.firstRejectionUs.median)} µs (p75 ${num(e.firstRejectionUs.p75)}, max ${num(e.firstRejectionUs.max)}). ` +
      'Single calls, so noisier than the table.',
    '',
  ];
}

function coldStartSection(c: ColdStartResult): string[] {
  const bare = c.scripts.bare.ms.median;
  return [
    '## 3. Cold start',
    '',
    `Separate \`node\` processes, wall time from spawn to exit, ${c.runs} rounds, each running every process once, in turn (one warm-up round not counted). ` +
      '"Above bare node" is the median over rounds of (this process − the bare process of the same round), which cancels drift in machine load; "× bare node" is the ratio of the medians.',
    '',
    ...table(
      ['process', 'median', 'p25–p75', 'min', 'above bare node (paired median)', '× bare node'],
      Object.values(c.scripts).map((x) => [x.description, ms(x.ms.median), `${num(x.ms.p25)}–${num(x.ms.p75)} ms`, ms(x.ms.min), ms(x.aboveBare.median), ratio(x.ms.median / bare)]),
    ),
    '',
  ];
}

function generationSection(g: GenerationResult): string[] {
  const real = g.rows.find((x) => x.factor === 1)!;
  const stages = [...new Set(g.rows.flatMap((x) => Object.keys(x.stagesMs)))];
  return [
    '## 4. Generation',
    '',
    `\`${g.command}\`, a separate process, median of ${g.runs} runs per catalog (interleaved). Synthetic catalogs: N copies of the real one under renamed event types, shared types and fragments (\`scripts/bench/synthetic-catalog.ts\`). Output to a temporary folder.`,
    '',
    ...table(
      ['catalog', 'files', 'event versions', 'wall (median)', 'p25–p75', '× real catalog', 'per event version', "generator's own total", 'own total × real'],
      g.rows.map((x) => [
        x.factor === 1 ? 'real' : `×${x.factor}`,
        x.catalogFiles,
        int(x.eventVersions),
        ms(x.ms.median),
        `${int(x.ms.p25)}–${int(x.ms.p75)} ms`,
        ratio(x.ms.median / real.ms.median),
        ms(x.ms.median / x.eventVersions),
        ms(x.internalMs),
        ratio(x.internalMs / real.internalMs),
      ]),
    ),
    '',
    `Start-up alone (\`npm run -s generate -- --help\`: npm and loading the precompiled generator's modules, no generation): median ${ms(g.startupMs.median)} (p25–p75 ${int(g.startupMs.p25)}–${int(g.startupMs.p75)} ms).`,
    '',
    'The wall-time growth includes that fixed start-up; the growth of the generator\'s own total (its summary line, without npm and module loading) is the last column.',
    '',
    'Stages as the generator reports them (median ms):',
    '',
    ...table(
      ['catalog', ...stages],
      g.rows.map((x) => [x.factor === 1 ? 'real' : `×${x.factor}`, ...stages.map((s) => int(x.stagesMs[s] ?? Number.NaN))]),
    ),
    '',
  ];
}

function typeCheckSection(tc: TypeCheckResult): string[] {
  const lines = [
    '## 5. Consumer type-check',
    '',
    `\`tsc -p\` (noEmit, strict, module/moduleResolution nodenext) on one consumer file per project, importing the installed package; median wall time of ${tc.runs} runs, interleaved. ` +
      `Files: import only (${tc.lines['import-only']} lines); an exhaustive nested \`switch\` over all ${tc.events} events (${tc.lines['exhaustive-switch']} lines); ` +
      `a \`createHandler\` map of all of them (${tc.lines['create-handler']} lines); for information, the same map through \`createExhaustiveHandler\`.`,
    '',
  ];
  const rows = tc.rows.map((x) => {
    const base = tc.rows.find((y) => y.compiler === x.compiler && y.skipLibCheck === x.skipLibCheck && y.file === 'import-only')!;
    return [x.compiler, String(x.skipLibCheck), x.file, ms(x.ms.median), `${int(x.ms.p25)}–${int(x.ms.p75)} ms`, ratio(x.ms.median / base.ms.median), x.errors, x.ts2590];
  });
  lines.push(...table(['compiler', 'skipLibCheck', 'consumer file', 'median', 'p25–p75', '× import-only', 'errors', 'TS2590'], rows, ['l', 'l', 'l', 'r', 'r', 'r', 'r', 'r']), '');
  const noisy = tc.rows.filter((x) => x.output);
  for (const x of noisy) lines.push(`Output of ${x.compiler} on ${x.file} (skipLibCheck ${x.skipLibCheck}):`, '', '```', x.output!, '```', '');
  return lines;
}

/** The goals' comparisons timed again in interleaved rounds (`PairedRatio`). */
function pairedTable(t: ThroughputResult, settings: BenchResults['settings']): string[] {
  if (t.paired === undefined || t.paired.length === 0) return [];
  const sets: Record<PairedRatio['set'], string> = { stream: 'the whole stream', validOnly: 'valid only (skewed)', even: 'valid, evenly spread' };
  return [
    '**The goals\' comparisons, interleaved**',
    '',
    `Each pair the valid-path goals name, timed again after the tables above: ${settings.paired ? `${int(settings.paired.rounds)} rounds, in each of which both walk the same messages for about ${int(settings.paired.blockMs)} ms each, back to back, the order flipping every round` : 'rounds in which both walk the same messages back to back, the order flipping every round'}. ` +
      'Before each block the heap is collected and one untimed walk runs, so neither pays for the other\'s garbage or cold caches. A slow drift in the machine\'s speed then falls on both sides of a round alike. The goals use the median of the rounds\' ratios.',
    '',
    ...table(
      ['messages', 'first', 'second', 'first ÷ second (median)', 'quartiles', 'min – max'],
      t.paired.map((p) => [sets[p.set], p.first, p.second, ratio(p.ratios.median), `${ratio(p.ratios.p25)}–${ratio(p.ratios.p75)}`, `${ratio(p.ratios.min)} – ${ratio(p.ratios.max)}`]),
    ),
    '',
  ];
}

/**
 * The evenly spread valid messages, each parsed afresh before it is checked: what a consumer
 * does. The tables above reuse parsed objects, whose strings keep the hash a `Map` computed
 * the first time; here every string is new. "Check alone" subtracts the median of `JSON.parse`
 * alone, timed in the same run: an estimate, as the two medians come from different samples.
 */
function freshTable(t: ThroughputResult): string[] {
  if (t.evenFresh === undefined) return [];
  const parse = find(t.evenFresh, PARSE)!.nsPerItem;
  const ours = find(t.evenFresh, `JSON.parse, then ${OURS}`);
  const checkAlone = (s: BenchStats): number => s.nsPerItem - parse;
  return [
    `**The same messages, each parsed afresh** (\`JSON.parse\` of its text, then the check, per message: strings and objects the engine has not seen before, as a consumer meets them). ` +
      '"check alone" is the median minus that of `JSON.parse` alone, timed in the same run: an estimate.',
    '',
    ...table(
      ['validator', 'ns/message (median)', 'p25–p75 (ns/message)', 'check alone (estimate)', 'check alone ÷ ours', 'samples'],
      t.evenFresh.map((s) => [
        s.name,
        num(s.nsPerItem),
        quartilesPerItem(s),
        s.name === PARSE ? '—' : num(checkAlone(s)),
        s.name === PARSE || s === ours || ours === undefined ? '—' : ratio(checkAlone(s) / checkAlone(ours)),
        s.samples,
      ]),
    ),
    '',
  ];
}

const BROKER_NAMES: Record<Broker, string> = { nats: 'NATS JetStream', redis: 'Redis Streams' };
const PEER_NAMES: Record<Broker, string> = { nats: "nats.js's own `consume()` loop", redis: 'the `XREADGROUP COUNT 100`, one `XACK` per batch loop' };

function busTargetText(broker: Broker, first: string, second: string, limit: number, messages: number): string {
  const within = `≤ ${num(limit, 2)}×`;
  if (second === 'peer') {
    const setup = first === 'absent' ? '`@opentelemetry/api` absent' : 'API installed, no SDK registered';
    return `${BROKER_NAMES[broker]}: consuming ${int(messages)} valid messages (${setup}) ${within} the time of ${PEER_NAMES[broker]}`;
  }
  if (variant(first).operation === 'publish') return `${BROKER_NAMES[broker]}: \`publishEvent\` of ${int(messages)} events, \`@opentelemetry/api\` absent, ${within} the time at ${BEFORE_COMMIT}`;
  return `${BROKER_NAMES[broker]}: consuming ${int(messages)} valid messages, \`@opentelemetry/api\` absent, ${within} the time at ${BEFORE_COMMIT}`;
}

function busSection(b: BusResult): string[] {
  const rate = (median: number): string => `${int((b.messages / median) * 1000)} msg/s`;
  const comparison = (first: string, second: string): string => `${variant(first).short} ÷ ${variant(second).short}`;
  const plural = (n: number, one: string, many: string): string => `${int(n)} ${n === 1 ? one : many}`;
  return [
    '## 7. On a real bus',
    '',
    `End to end on loopback brokers started by the bench (Debian's \`nats-server\` and \`redis-server\`): ${int(b.messages)} valid messages of ${b.events} event versions (the sample stream with nothing broken), ` +
      'stored once per broker (a JetStream stream on disk, a Redis stream). Every consuming run reads all of them with a durable consumer (NATS) or a consumer group (Redis) of its own and a handler that counts; every publishing run sends all of them again, as events.',
    '',
    'The peer is the loop a user writes with the broker\'s client alone, on the same broker and the same stored messages: on NATS, nats.js\'s own `consumer.consume({ max_messages: 100 })` and its iterator, `msg.json()` (`JSON.parse` of the message), the handler, `msg.ack()`; ' +
      'on Redis, `XREADGROUP GROUP … COUNT 100 BLOCK 100 STREAMS <stream> >`, `JSON.parse` of each entry\'s `message` field, the handler, then one awaited `XACK` with every id of the batch, and again. ' +
      'The adapter (`consumeEvents`: decode, validate, handle, acknowledge) runs three ways: with `@opentelemetry/api` absent (a module resolve hook makes every `@opentelemetry/*` package unresolvable, as if not installed); ' +
      'with the API installed and nothing registered (its no-op providers: tracing off, as an application without an SDK has it); and with tracing on. ' +
      `Tracing on: the SDK registered globally before the consumer starts, a \`BasicTracerProvider\` with a \`BatchSpanProcessor\` (its defaults: batches of 512, exported as soon as one is full; the processor the OpenTelemetry documentation advises for production, where the simple one would export every span on its own) into an \`InMemorySpanExporter\`, ` +
      'a `MeterProvider` with a `PeriodicExportingMetricReader` (its default 60 s) into an in-memory exporter, the W3C trace-context propagator (`@opentelemetry/core`) and the `AsyncLocalStorageContextManager` (`@opentelemetry/context-async-hooks`, the Node SDK\'s default). ' +
      'The stored messages carry no trace context, so each message\'s process span starts a trace; every timed round with tracing exported exactly one span per message. ' +
      `Against the adapter as it was at ${BEFORE_COMMIT} (before OpenTelemetry, acknowledgements in batches and the fixes of messages lost to a consumer's settings; \`git archive ${BEFORE_COMMIT} runtime generated\`, bundled the same way), with \`@opentelemetry/api\` absent: ` +
      `consuming, and \`publishEvent\` of every message, ${int(b.publishBatch)} at a time, each batch awaited.`,
    '',
    'Every measured run is a `node` process of its own that loads one variant only (so that no state of another variant, the OpenTelemetry API loaded once per process or code the engine compiled for another, leaks into it) and times it on both brokers, one after the other: ' +
      'the run code and both adapters are bundled by esbuild from their sources, the broker clients and `@opentelemetry/*` loaded from `node_modules`, and every process registers the same resolve hook (hiding or passing on). ' +
      `Each process warms up before it times: ${plural(b.warmupChecksPerEvent, 'call', 'calls')} of the adapter's own check per event version on the stored messages of that event (\`decodeEvent\` on the bytes; \`validateEvent\` in strict mode before publishing), ` +
      `then on each broker ${plural(b.warmupRounds, 'untimed round', 'untimed rounds')} as the timed one. The engine compiles an event's checks only after thousands of calls, and in one round the rarest events come a few times each; ` +
      'measured apart on these messages with V8\'s optimization status, 5 of the 228 events\' checks were optimized after 1,000 calls per event, 207 to 212 after 3,000: rounds alone would take millions of messages to get there. ' +
      "A consuming round's wall time runs from the consumer's start until the handler has seen every message; it then checks that nothing was left unacknowledged or handled twice. " +
      `${plural(b.slots, 'slot', 'slots')} (as many as fit in ${int(b.seconds)} s, at least ${b.minSlots}, at most ${b.maxSlots}; they took ${num(b.slotsMs / 1000, 0)} s): each runs every variant once, in an order reversed every slot (the brokers' too), so that a drift in the machine's load falls on both sides of a comparison alike. ` +
      "A ratio is the median over the slots of the two runs' ratio in the same slot, with the quartiles of those ratios. " +
      'Beside the wall time, each timed round records the CPU time its process used meanwhile (user and system): it leaves out the broker and the waits, and is less sensitive than wall time to the machine\'s other load; the goals are on wall time.',
    '',
    ...table(
      ['broker', 'variant', 'timed round (median)', 'p25–p75', 'its CPU time (median)', 'untimed round (median)'],
      BROKERS.flatMap((broker) =>
        VARIANTS.map((v) => {
          const run = b[broker].runs[v.id]!;
          return [
            BROKER_NAMES[broker],
            v.label,
            `${ms(run.median)} (${rate(run.median)})`,
            `${num(run.p25, 0)}–${num(run.p75, 0)} ms`,
            ms(b[broker].cpuMs[v.id]!.median),
            ms(b[broker].warmupRoundsMs[v.id]!.median / Math.max(1, b.warmupRounds)),
          ];
        }),
      ),
      ['l', 'l', 'r', 'r', 'r', 'r'],
    ),
    '',
    ...table(
      ['broker', 'first ÷ second', 'ratio (median of slots)', 'quartiles', 'min – max', 'CPU time ratio (median, quartiles)', 'goal'],
      BROKERS.flatMap((broker) =>
        b[broker].ratios.map((x) => [
          BROKER_NAMES[broker],
          comparison(x.first, x.second),
          ratio(x.ratios.median),
          `${ratio(x.ratios.p25)}–${ratio(x.ratios.p75)}`,
          `${ratio(x.ratios.min)} – ${ratio(x.ratios.max)}`,
          `${ratio(x.cpuRatios.median)} (${ratio(x.cpuRatios.p25)}–${ratio(x.cpuRatios.p75)})`,
          x.limit === undefined ? 'none yet' : `≤ ${num(x.limit, 2)}×`,
        ]),
      ),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    'Each process, spawn to exit (both brokers, warm-up included), and its warm-up of the checks:',
    '',
    ...table(
      ['variant', 'process (median)', 'checks\' warm-up (median)'],
      VARIANTS.map((v) => [v.label, ms(b.processMs[v.id]!.median), v.code === 'peer' ? '—' : ms(b.warmupChecksMs[v.id]!.median)]),
    ),
    '',
  ];
}

function sizeSection(s: SizeResult): string[] {
  return [
    '## 6. Size and memory',
    '',
    'Bundles: esbuild (bundle, minify, ESM, platform node) of a consumer module that imports the entry and validates one message; gzip at zlib\'s default level (6). "3 KB" is taken as 3,000 bytes.',
    '',
    ...table(
      ['what', 'minified', 'min+gz'],
      [
        ['one event: `events/account.created/v1`', bytes(s.exampleEvent.minBytes), bytes(s.exampleEvent.gzipBytes)],
        [`every event entry on its own (${s.events.count}): median`, bytes(s.events.min.median), bytes(s.events.gzip.median)],
        [`… smallest – largest`, `${bytes(s.events.min.min)} – ${bytes(s.events.min.max)}`, `${bytes(s.events.gzip.min)} – ${bytes(s.events.gzip.max)}`],
        [`… largest (${s.events.largest.entry})`, bytes(s.events.largest.minBytes), bytes(s.events.largest.gzipBytes)],
        ['the root entry (`validateEvent`: every event)', bytes(s.root.minBytes), bytes(s.root.gzipBytes)],
        ...(s.selected
          ? [
              ['`createEventValidator` with one event entry (account.created v1)', bytes(s.selected.one.minBytes), bytes(s.selected.one.gzipBytes)],
              ['`createEventValidator` with ten event entries (the catalog\'s first ten)', bytes(s.selected.ten.minBytes), bytes(s.selected.ten.gzipBytes)],
            ]
          : []),
      ],
    ),
    '',
    `Event entries over 3,000 B min+gz: ${s.events.overTarget} of ${s.events.count}.`,
    '',
    `The installed package: ${int(s.disk.files)} files, ${kb(s.disk.bytes)} on disk (JavaScript ${kb(s.disk.jsBytes)}, declarations ${kb(s.disk.declarationBytes)}, JSON Schemas ${kb(s.disk.schemaBytes)})` +
      (s.disk.tarballBytes === undefined ? '.' : `; the packed tarball ${kb(s.disk.tarballBytes)}.`),
    '',
    `Heap (\`heapUsed\` after \`gc()\`, median of ${s.heap.runs} processes each, above a process that imports nothing: ${kb(s.heap.baselineBytes)}):`,
    '',
    ...table(
      ['after', 'heap above baseline'],
      [
        ['importing the root', kb(s.heap.rootImport)],
        ['importing the root and validating one message', kb(s.heap.rootImportAndValidate)],
        ['importing `events/account.created/v1`', kb(s.heap.eventImport)],
      ],
    ),
    '',
  ];
}

const SERVER_NAMES: Record<'emulator' | 'prism' | 'bare', string> = {
  emulator: 'the emulator (`event-catalog emulate`)',
  prism: 'Prism 5.14.2, `prism mock generated/openapi.yaml`',
  bare: 'bare `node:http`, a fixed body',
};

function emulatorSection(e: EmulatorResult): string[] {
  const row = (name: 'emulator' | 'prism' | 'bare') => {
    const runs = e.runs[name];
    const answers = ['2xx', '4xx', '5xx'].map((c) => `${c} ${int(runs.reduce((sum, run) => sum + (run.statuses[c] ?? 0), 0))}`).join(', ');
    return [SERVER_NAMES[name], int(e.rate[name].median), `${int(e.rate[name].p25)}–${int(e.rate[name].p75)}`, int(medianOf(runs.map((run) => run.latencyP50Ms))), int(medianOf(runs.map((run) => run.latencyP99Ms))), answers, int(runs.reduce((sum, run) => sum + run.errors, 0))];
  };
  return [
    '## 8. The contract emulator',
    '',
    `Requests per second on a mix of the 11 operations (${e.mix.map((op) => `\`${op}\``).join(', ')}: one of each in turn on each of ${e.connections} connections), ` +
      `sent by autocannon from the harness's process to a server process of its own on loopback: ${e.rounds} rounds of ${e.seconds} s after ${e.warmupSeconds} s of warm-up, the servers' order turned each round. ` +
      'The emulator keeps state (the mix stages again, dry-runs a process, adds a note and a transaction already there, replaces a statement and a payment instruction, reads), checks every request (`validateRequest`), every answer (`validateResponse`) and each of its five events per cycle (`validateEvent`), and keeps the events in memory; ' +
      "Prism mocks the same `generated/openapi.yaml` without state (example answers, requests validated, a log line per request: its defaults); the bare server reads the body and answers `{\"ok\":true}`.",
    '',
    ...table(['server', 'requests/s (median of rounds)', 'quartiles', 'p50 latency, ms (whole ms: autocannon’s)', 'p99 latency, ms', 'answers', 'connection errors'], (['emulator', 'prism', 'bare'] as const).map(row), ['l', 'r', 'r', 'r', 'r', 'l', 'r']),
    '',
    `Emulator ÷ Prism: ${ratio(e.ratios.prism.median)} (rounds ${ratio(e.ratios.prism.min)}–${ratio(e.ratios.prism.max)}); emulator ÷ bare: ${ratio(e.ratios.bare.median)} (${ratio(e.ratios.bare.min)}–${ratio(e.ratios.bare.max)}). ` +
      `The emulator's 4xx are the mix's dry run (one request in eleven answers 400 with the seed's sentence). Answers that would have broken the contract: ${int(e.violations)}.`,
    '',
    `Event latency: ${int(e.eventLatencyMs.n)} processes one after another, the emulator publishing to a loopback \`nats-server\` (JetStream) through \`publishEvent\`; the time from the 201 reaching the client to its \`data_import.import_process.complete\` event reaching a \`consumeEvents\` consumer (a durable pull consumer) in the client's process: ` +
      `median ${ms(e.eventLatencyMs.median)}, p99 ${ms(e.eventLatencyMs.p99)}, from ${ms(e.eventLatencyMs.min)} to ${ms(e.eventLatencyMs.max)}. A negative time is an event that arrived before the answer: the emulator answers once the stream has stored the event.`,
    '',
  ];
}

/** The median of a few values. */
const medianOf = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

export function renderMarkdown(r: BenchResults): { text: string; targets: TargetCheck[] } {
  const checks = targets(r);
  const m = r.machine;
  const lines: string[] = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (`scripts/bench/`); do not edit by hand, run it again. Every figure is a median; every ratio compares with a peer measured in the same run. ' +
      'Raw numbers: `scripts/bench/results.json`.',
    '',
  ];
  if (r.quick) lines.push('> **Quick mode** (smoke test): tiny inputs, single runs, the sources through tsx instead of the build. These numbers mean nothing.', '');
  const apart = Object.entries(r.measuredApart ?? {}) as [Group, MachineInfo][];
  const machineRow = (groups: string, m: MachineInfo) => [
          groups,
          m.cpu,
          m.cores,
          `${m.memoryGiB} GiB`,
          m.node,
          m.platform,
          m.date,
          `${m.loadAverage.map((x) => num(x, 2)).join(', ')}${m.loadAverageAfter ? ` → ${m.loadAverageAfter.map((x) => num(x, 2)).join(', ')}` : ''}`,
          m.git ? `${m.git.commit.slice(0, 12)}${m.git.dirtyFiles > 0 ? ` + ${m.git.dirtyFiles} changed files` : ''}` : 'n/a',
        ];
  lines.push(
    '## Machine',
    '',
    ...table(
      ['groups', 'CPU', 'cores', 'memory', 'Node', 'OS', 'date', 'load average (1, 5, 15 min) at start → end', 'commit'],
      [machineRow(r.groups.filter((g) => !apart.some(([a]) => a === g)).join(', '), m), ...apart.map(([group, am]) => machineRow(`${group} (run apart)`, am))],
      ['l', 'l', 'r', 'r', 'l', 'l', 'l', 'l', 'l'],
    ),
    '',
  );
  if (r.package) {
    lines.push(
      `Package under test: ${r.package.description}${r.package.buildMs === undefined ? '' : ` (build ${ms(r.package.buildMs)})`}. ` +
        `Total bench time: ${num(r.totalMs / 1000, 0)} s (${Object.entries(r.groupMs)
          .map(([k, v]) => `${k} ${num(v / 1000, 0)} s`)
          .join(', ')}).`,
      '',
    );
  }

  lines.push('## Targets', '', ...table(['target', 'measured', 'verdict'], checks.map((c) => [c.text, c.measuredText, verdict(c.met)])), '');
  const missed = checks.filter((c) => !c.met);
  if (missed.length > 0) {
    lines.push('Missed, and what meeting each would take:', '');
    for (const c of missed) {
      const note = Object.entries(NOTES).find(([prefix]) => c.id.startsWith(prefix))?.[1];
      lines.push(`- **${c.text}** — measured ${c.measuredText}. ${c.gap ?? ''}.${note ? ` ${note}` : ''}`);
    }
    lines.push('');
  }

  if (r.throughput) lines.push(...throughputSection(r.throughput, r.settings));
  if (r.errorPath) lines.push(...errorPathSection(r.errorPath));
  if (r.coldStart) lines.push(...coldStartSection(r.coldStart));
  if (r.generation) lines.push(...generationSection(r.generation));
  if (r.typeCheck) lines.push(...typeCheckSection(r.typeCheck));
  if (r.size) lines.push(...sizeSection(r.size));
  if (r.bus) lines.push(...busSection(r.bus));
  if (r.emulator) lines.push(...emulatorSection(r.emulator));

  lines.push(
    '## Method',
    '',
    '- In-process groups (1, 2) run in a fresh plain `node --expose-gc` process (the harness bundled with esbuild, no loader hooks) that loads only the package under test, the peers and mitata. ' +
      `Inputs (message objects, schemas, peer validators) are built before timing; each timed call walks the whole input and returns a count that goes to mitata's \`do_not_optimize\`. ` +
      `mitata \`measure\`: ≥ ${r.settings.timing.minSamples} samples and ≥ ${r.settings.timing.minCpuMs} ms per benchmark, after ${r.settings.timing.warmup} untimed warm-up walks, then more until ${int(r.settings.timing.warmupItems ?? 0)} messages have gone through (at most 5 s); ns/message = median time per walk ÷ messages.`,
    '- Peers are built at run time from the published message schemas (tolerant, as our default mode): ajv 8 `Ajv2020` with one `oneOf` of every message schema; ajv with `discriminator: true` on `type`, then on `version`; ' +
      'zod 4 schemas made by `z.fromJSONSchema` from the same schemas (objects pass unknown keys through, as JSON Schema allows them), dispatched through a Map type → version → schema, or nested `z.discriminatedUnion`s. ' +
      "The zod target is checked against zod's faster variant.",
    '- Processes (3, 4, 5, heap) are timed from spawn to exit with `performance.now()` around `spawnSync`, runs interleaved across the variants compared.',
    `- The package under test: ${r.package?.description ?? 'not needed (generation only)'}.`,
    '',
  );
  return { text: `${lines.join('\n').trimEnd()}\n`, targets: checks };
}

/** Where a bus run's time goes beyond its peer's, stated from how the adapters work (`NOTES`). */
const BUS_NATS_WINDOW =
  'The NATS consumer holds at most `maxMessages` (default 100) messages unacknowledged at every moment, counting those whose acks were sent and not yet confirmed: ' +
  'it pulls half of them at a time, two pulls in flight, and a new pull waits until the server has confirmed the last ack of a burst (one round trip) before it reuses the room. ' +
  'A burst is the acks held when the consumer runs out of buffered messages, however few; each confirmation is a request (`ackAck`): a reply inbox, a timer and, by nats.js\'s default (`noAsyncTraces` off), two error objects built for their stack traces. ' +
  "nats.js's `consume()` asks for more each time a quarter of what it asked for has arrived and been read, however many messages are unacknowledged; " +
  `the adapter at ${BEFORE_COMMIT} counted only the messages waiting for the handler, acknowledged or not (it held up to about 150 unacknowledged with \`maxMessages\` 100).`;
const BUS_REDIS_EXTRA =
  "Beyond the peer's work, the Redis consumer reads entries as bytes (`XREADGROUP` through `callBuffer`) and keeps each entry's fields in a `Map` and a list of pairs (so that a dead letter keeps them byte for byte), " +
  'decodes and validates each message, and every second looks with `XAUTOCLAIM` for entries a dead consumer left.';
const BUS_NO_SDK =
  'With the API installed and no SDK registered, every message still starts a span on the no-op tracer, sets it in a new context, builds its span and metric attributes and records them on no-op instruments.';
const BUS_PUBLISH =
  `\`publishEvent\` differs from ${BEFORE_COMMIT} by one \`await\` of the telemetry lookup (a promise already settled, to \`null\` when the API is absent) and the send wrapped in a closure; ` +
  'the rest is the same: strict validation, `JSON.stringify`, the publish.';

/**
 * Where the time or the bytes go, for a missed target (by id prefix). Stated from how the
 * code works, not measured here; the figures above are the measurements.
 */
const NOTES: Record<string, string> = {
  'throughput.json-parse':
    'A valid message pays for: the envelope checks of `validateEvent` (the message\'s prototype, read after its members, and a try/catch), one `Map` lookup to the event\'s slot, ' +
    "the event's generated boolean check of the payload (`accepts`, which tests the payload's prototype last), and the result object.",
  'throughput.strict':
    'Strict mode adds, for the payload and every object in it, a `for…in` over its keys, each compared with the listed names: the enumeration itself is most of it (comparing each key first with the name at its position in the catalog measured no faster).',
  'throughput.map-ajv.stream':
    'The stream mixes in ~4 % rejected messages: each of ours runs the all-errors validator and builds every issue and the error message (section 2), where the first-error peer stops at one ajv error.',
  'throughput.':
    'See the tables above: the valid-only and evenly spread tables time the valid path alone.',
  'error-path.':
    'A rejection pays for the valid path first (the check that refused the payload), then the envelope again in the documented order, a count of the payload\'s values (to keep a huge payload\'s search bounded), ajv\'s all-errors run, and for every issue its pointer and its sentence, then the one-line summary; the peer stops at ajv\'s own error objects.',
  'generation.real':
    'Part of it is fixed start-up before any work (npm, loading the precompiled generator, ts-morph, json-schema-to-typescript and ajv: the `--help` line in section 4); the validators stage compiles two ajv standalone validators per event version (the all-errors ones, tolerant and strict) beside a boolean check per mode.',
  'generation.linear': 'See the stage table in section 4 for the stage that grows fastest.',
  'cold-start.': 'The root must not load any event\'s validators before a message of that event arrives (section 6 shows the heap after import).',
  'type-check.': 'See the compiler output in section 5.',
  'bus.nats.publish-': BUS_PUBLISH,
  'bus.nats.api-vs-peer': `${BUS_NATS_WINDOW} ${BUS_NO_SDK}`,
  'bus.nats.': BUS_NATS_WINDOW,
  'bus.redis.publish-': BUS_PUBLISH,
  'bus.redis.api-vs-peer': `${BUS_REDIS_EXTRA} ${BUS_NO_SDK}`,
  'bus.redis.absent-vs-peer': BUS_REDIS_EXTRA,
  'bus.': 'Both runs of a slot are paired; see the tables of section 7 for each run and the quartiles.',
  'emulator.':
    'A call of the emulator pays for: parsing the request and its JSON body, `validateRequest`, the handler over the in-memory state, `validateResponse` on the answer, `validateEvent` (strict) on each event, and writing the JSON answer; the load generator shares the two cores with the server.',
  'size.one-event':
    'An event entry carries its generated validator module (a boolean check and the payload schema, each tolerant and strict) and the shared run-time code (the validator object, Standard Schema, the search of a rejected payload for its errors, issue formatting, the bounded view of a huge payload, and esbuild\'s CommonJS interop for the module): about 4 KB gzipped of every entry is that shared code.',
  'size.every-event':
    'The smallest entry (section 6) is roughly the fixed part: the shared run-time code of an entry, about 4 KB gzipped; the event\'s own module adds 0.1–0.8 KB. ' +
    'Only a smaller shared run time (issue formatting, the bounded search, the envelope and option checks) can bring entries under 3,000 B; `createEventValidator` pays that part once for every event a bundle names.',
};
