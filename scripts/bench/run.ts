/**
 * `npm run bench [-- options]`: every benchmark group, then `BENCHMARKS.md` (the report) and
 * `scripts/bench/results.json` (the same numbers, for tools).
 *
 * Options:
 * - `--quick`: tiny sizes and single runs, no build (the sources run through tsx's loader);
 *   writes to a temporary folder unless `--out-dir` is given. For the smoke test only: its
 *   numbers mean nothing.
 * - `--no-build`: pack the existing `dist/` instead of building a snapshot of the working tree.
 * - `--out-dir DIR`: write `BENCHMARKS.md` and `results.json` into DIR.
 * - `--only a,b`: run only these groups (throughput, error-path, cold-start, generation,
 *   type-check, size, bus); the report then has only their sections. `bus` starts
 *   nats-server and redis-server (`npm run setup:tools` installs them).
 * - `--only emulator`: the contract emulator's requests/s beside Prism and a bare `node:http`
 *   server, and its event latency on NATS (`--emulator-seconds N`, `--emulator-rounds N`,
 *   `--emulator-events N`).
 * - `--count N`, `--paired-rounds N`, `--bus-count N`, `--bus-min-slots N`, `--bus-max-slots N`, `--bus-seconds N`, `--bus-warmup-checks N`,
 *   `--bus-warmup-rounds N`, `--cold-runs N`, `--generate-runs N`, `--factors 1,10,30`, `--tsc-runs N`: override sizes.
 * - `--report-only`: measure nothing; render `BENCHMARKS.md` again from the saved `results.json`
 *   (after a change to the report's wording).
 * - `--merge` (with `--only`): put the groups measured into the saved `results.json`, each
 *   with this run's machine (the report's machine table lists it), and render the whole report
 *   again: a change that touches one group is measured without running every group.
 */
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { ROOT, log, machineInfo, mustSpawn, readJson, tempDir, write, type CompilerName } from './common.js';
import { measureColdStart } from './cold-start.js';
import { measureEmulator, type EmulatorBenchSettings } from './emulator-throughput.js';
import type { ErrorPathJob, ErrorPathResult } from './error-path.js';
import { measureBus } from './bus-throughput.js';
import { measureGeneration } from './generation.js';
import { loadMessageSchemas, prepareErrorPath, prepareEvenStream, prepareStream } from './inputs.js';
import type { TimingOptions } from './measure.js';
import { loadManifestEvents, preparePackage } from './package.js';
import { renderMarkdown, type BenchResults, GROUPS, type Group } from './report.js';
import { measureSize } from './size.js';
import type { PairedOptions, ThroughputJob, ThroughputResult } from './throughput.js';
import { measureTypeCheck, type ConsumerCase } from './type-check.js';
import type { WorkerJob } from './worker.js';

interface Settings {
  quick: boolean;
  build: boolean;
  outDir: string | undefined;
  groups: Group[];
  count: number;
  busCount: number;
  busMinSlots: number;
  busMaxSlots: number;
  busSeconds: number;
  busWarmupChecks: number;
  busWarmupRounds: number;
  timing: TimingOptions;
  paired: PairedOptions;
  coldRuns: number;
  emulator: EmulatorBenchSettings;
  generateRuns: number;
  factors: number[];
  tscRuns: number;
  compilers: CompilerName[];
  skipLibCheck: boolean[];
  tscCases: ConsumerCase[];
  heapRuns: number;
  sizeEvents: number | undefined;
  keepTemp: boolean;
  merge: boolean;
  reportOnly: boolean;
}

function settings(argv: string[]): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      'out-dir': { type: 'string' },
      only: { type: 'string' },
      count: { type: 'string' },
      'paired-rounds': { type: 'string' },
      'bus-count': { type: 'string' },
      'bus-min-slots': { type: 'string' },
      'bus-max-slots': { type: 'string' },
      'bus-seconds': { type: 'string' },
      'bus-warmup-checks': { type: 'string' },
      'bus-warmup-rounds': { type: 'string' },
      'cold-runs': { type: 'string' },
      'emulator-seconds': { type: 'string' },
      'emulator-rounds': { type: 'string' },
      'emulator-events': { type: 'string' },
      'generate-runs': { type: 'string' },
      factors: { type: 'string' },
      'tsc-runs': { type: 'string' },
      'keep-temp': { type: 'boolean', default: false },
      merge: { type: 'boolean', default: false },
      'report-only': { type: 'boolean', default: false },
    },
  });
  const quick = values.quick ?? false;
  const int = (text: string | undefined, fallback: number, name: string): number => {
    if (text === undefined) return fallback;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number ≥ 1, got ${text}`);
    return n;
  };
  if (values.merge && values.only === undefined) throw new Error('--merge needs --only: it puts the groups measured into the saved results');
  const groups = values.only === undefined ? [...GROUPS] : (values.only.split(',').map((g) => g.trim()) as Group[]);
  for (const g of groups) if (!GROUPS.includes(g)) throw new Error(`--only: unknown group ${g} (groups: ${GROUPS.join(', ')})`);
  const factors = values.factors === undefined ? (quick ? [1, 2] : [1, 10, 30]) : values.factors.split(',').map((f) => int(f, 1, 'factors'));
  return {
    quick,
    build: !(values['no-build'] ?? false),
    outDir: values['out-dir'],
    groups,
    count: int(values.count, quick ? 300 : 10_000, 'count'),
    busCount: int(values['bus-count'], quick ? 300 : 20_000, 'bus-count'),
    busMinSlots: int(values['bus-min-slots'], quick ? 1 : 5, 'bus-min-slots'),
    busMaxSlots: int(values['bus-max-slots'], quick ? 1 : 15, 'bus-max-slots'),
    busSeconds: int(values['bus-seconds'], quick ? 1 : 240, 'bus-seconds'),
    busWarmupChecks: int(values['bus-warmup-checks'], quick ? 1 : 3000, 'bus-warmup-checks'),
    busWarmupRounds: int(values['bus-warmup-rounds'], 1, 'bus-warmup-rounds'),
    timing: quick ? { minCpuMs: 20, minSamples: 3, warmup: 1, warmupItems: 0 } : { minCpuMs: 1500, minSamples: 20, warmup: 10, warmupItems: 1_000_000 },
    paired: { rounds: int(values['paired-rounds'], quick ? 2 : 31, 'paired-rounds'), blockMs: quick ? 1 : 40 },
    coldRuns: int(values['cold-runs'], quick ? 1 : 25, 'cold-runs'),
    emulator: {
      seconds: int(values['emulator-seconds'], quick ? 1 : 10, 'emulator-seconds'),
      warmupSeconds: quick ? 0 : 3,
      rounds: int(values['emulator-rounds'], quick ? 1 : 3, 'emulator-rounds'),
      connections: 10,
      latencyEvents: int(values['emulator-events'], quick ? 20 : 2000, 'emulator-events'),
    },
    generateRuns: int(values['generate-runs'], quick ? 1 : 5, 'generate-runs'),
    factors: factors.includes(1) ? factors : [1, ...factors],
    tscRuns: int(values['tsc-runs'], quick ? 1 : 5, 'tsc-runs'),
    compilers: ['typescript 5.9', 'typescript 7'],
    skipLibCheck: quick ? [true] : [false, true],
    tscCases: quick ? ['import-only', 'exhaustive-switch', 'create-handler'] : ['import-only', 'exhaustive-switch', 'create-handler', 'exhaustive-handler'],
    heapRuns: quick ? 1 : 7,
    sizeEvents: quick ? 3 : undefined,
    keepTemp: values['keep-temp'] ?? false,
    merge: values.merge ?? false,
    reportOnly: values['report-only'] ?? false,
  };
}

/** Bundles the worker (plain `node`, no loader hooks) once. */
async function bundleWorker(work: string): Promise<string> {
  const outfile = join(work, 'worker.mjs');
  await build({
    entryPoints: [join(ROOT, 'scripts/bench/worker.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    // mitata looks for Bun's and Deno's extras at run time, never under Node.
    external: ['bun:*', 'bun', 'deno:*'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}

function runWorker<R>(worker: string, work: string, nodeArgs: readonly string[], job: WorkerJob): R {
  const jobFile = join(work, `${job.group}-job.json`);
  const resultFile = join(work, `${job.group}-result.json`);
  write(jobFile, JSON.stringify(job));
  mustSpawn(process.execPath, ['--expose-gc', ...nodeArgs, worker, jobFile, resultFile], { cwd: work, timeoutMs: 1_800_000 });
  return readJson<R>(resultFile);
}

async function main(): Promise<void> {
  const started = performance.now();
  const s = settings(process.argv.slice(2));
  const outDir = s.outDir ?? (s.quick ? tempDir('report') : undefined);
  const reportFile = outDir ? join(outDir, 'BENCHMARKS.md') : join(ROOT, 'BENCHMARKS.md');
  const jsonFile = outDir ? join(outDir, 'results.json') : join(ROOT, 'scripts/bench/results.json');
  if (s.reportOnly) {
    const { targets, ...saved } = readJson<BenchResults & { targets: unknown }>(jsonFile);
    void targets;
    const markdown = renderMarkdown(saved);
    write(jsonFile, `${JSON.stringify({ ...saved, targets: markdown.targets }, null, 2)}\n`);
    write(reportFile, markdown.text);
    log(`rendered ${reportFile} again from ${jsonFile}`);
    return;
  }
  const work = tempDir('run');
  const wants = (g: Group) => s.groups.includes(g);
  const groupMs: Record<string, number> = {};
  const timedGroup = async <T>(group: string, run: () => T | Promise<T>): Promise<T> => {
    log(`${group}…`);
    const t0 = performance.now();
    const result = await run();
    groupMs[group] = performance.now() - t0;
    log(`${group} done in ${(groupMs[group]! / 1000).toFixed(1)} s`);
    return result;
  };

  try {
    const machine = machineInfo();
    log(`machine: ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; temp ${work}`);
    const needsPackage = s.groups.some((g) => g !== 'generation' && g !== 'bus');
    const pkg = needsPackage ? await timedGroup('package', () => preparePackage({ work, mode: s.quick ? 'source' : 'dist', build: s.build })) : undefined;
    const schemas = pkg ? loadMessageSchemas(loadManifestEvents(), pkg.kind === 'dist' ? join(pkg.packageDir, 'generated') : join(ROOT, 'generated')) : [];
    const worker = wants('throughput') || wants('error-path') ? await bundleWorker(work) : '';

    const results: BenchResults = {
      quick: s.quick,
      machine,
      package: pkg ? { kind: pkg.kind, description: pkg.description, events: pkg.events.length, ...(pkg.buildMs !== undefined && { buildMs: pkg.buildMs }) } : null,
      settings: { count: s.count, busCount: s.busCount, timing: s.timing, paired: s.paired, coldRuns: s.coldRuns, generateRuns: s.generateRuns, factors: s.factors, tscRuns: s.tscRuns, heapRuns: s.heapRuns },
      groups: s.groups,
      groupMs,
      totalMs: 0,
    };

    if (pkg && wants('throughput')) {
      results.throughput = await timedGroup('throughput', () => {
        const job: ThroughputJob = { group: 'throughput', rootFile: pkg.rootFile, stream: prepareStream(s.count), even: prepareEvenStream(s.count), schemas, timing: s.timing, paired: s.paired };
        return runWorker<ThroughputResult>(worker, work, pkg.nodeArgs, job);
      });
    }
    if (pkg && wants('error-path')) {
      results.errorPath = await timedGroup('error-path', () => {
        const job: ErrorPathJob = { group: 'error-path', rootFile: pkg.rootFile, input: prepareErrorPath(), schemas, timing: s.timing };
        return runWorker<ErrorPathResult>(worker, work, pkg.nodeArgs, job);
      });
    }
    if (pkg && wants('cold-start')) results.coldStart = await timedGroup('cold-start', () => measureColdStart(pkg, schemas, s.coldRuns));
    if (wants('generation')) results.generation = await timedGroup('generation', () => measureGeneration(work, { factors: s.factors, runs: s.generateRuns }));
    if (pkg && wants('type-check')) {
      results.typeCheck = await timedGroup('type-check', () =>
        measureTypeCheck(pkg, { runs: s.tscRuns, compilers: s.compilers, skipLibCheck: s.skipLibCheck, cases: s.tscCases, events: loadManifestEvents() }),
      );
    }
    if (pkg && wants('size')) results.size = await timedGroup('size', () => measureSize(pkg, { heapRuns: s.heapRuns, ...(s.sizeEvents !== undefined && { maxEvents: s.sizeEvents }) }));

    if (wants('bus')) {
      results.bus = await timedGroup('bus', () =>
        measureBus(work, {
          texts: prepareStream(s.busCount, 0).texts,
          minSlots: s.busMinSlots,
          maxSlots: Math.max(s.busMinSlots, s.busMaxSlots),
          seconds: s.busSeconds,
          warmupChecksPerEvent: s.busWarmupChecks,
          warmupRounds: s.busWarmupRounds,
          publishBatch: 100,
        }),
      );
    }

    if (pkg && wants('emulator')) results.emulator = await timedGroup('emulator', () => measureEmulator(pkg, work, s.emulator));

    results.totalMs = performance.now() - started;
    results.machine.loadAverageAfter = loadavg();
    const final = s.merge ? mergeInto(readJson<BenchResults & { targets: unknown }>(jsonFile), results) : results;
    const markdown = renderMarkdown(final);
    write(jsonFile, `${JSON.stringify({ ...final, targets: markdown.targets }, null, 2)}\n`);
    write(reportFile, markdown.text);
    log(`wrote ${reportFile} and ${jsonFile} (${(results.totalMs / 1000).toFixed(0)} s in all)`);
    for (const t of markdown.targets) log(`${t.met ? 'met   ' : 'MISSED'} ${t.text}: ${t.measuredText}`);
  } finally {
    if (!s.keepTemp) rmSync(work, { recursive: true, force: true });
  }
}

/** Where each group's result sits in `BenchResults`. */
const RESULT_KEYS: Record<Group, keyof BenchResults> = {
  throughput: 'throughput',
  'error-path': 'errorPath',
  'cold-start': 'coldStart',
  generation: 'generation',
  'type-check': 'typeCheck',
  size: 'size',
  bus: 'bus',
  emulator: 'emulator',
};

/** The saved results with this run's groups in place of theirs, each marked as measured apart on this run's machine. */
function mergeInto(saved: BenchResults & { targets?: unknown }, run: BenchResults): BenchResults {
  const { targets, ...merged } = structuredClone(saved);
  void targets;
  for (const group of run.groups) {
    const key = RESULT_KEYS[group];
    (merged as Record<string, unknown>)[key] = run[key];
    merged.groupMs[group] = run.groupMs[group]!;
    merged.measuredApart = { ...merged.measuredApart, [group]: run.machine };
  }
  return merged;
}

main().catch((error: unknown) => {
  console.error(`✘ bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});

