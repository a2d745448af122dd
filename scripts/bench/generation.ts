/**
 * 4. Generation: `npm run generate -- --catalog <dir> --out <tmp>` (a separate process, wall
 * time) on the real catalog and on synthetic catalogs N times larger (`synthetic-catalog.ts`).
 * Runs are interleaved across sizes. Output goes to a temporary folder, never to generated/.
 * The generator's own stage timings (its summary line) are kept too.
 */
import { join } from 'node:path';
import { loadCatalog, readCatalogDir } from '../../generator/catalog/load-catalog.js';
import { ROOT, log, npmCommand, summarize, timedSpawn, type Summary } from './common.js';
import { writeSyntheticCatalog } from './synthetic-catalog.js';

export interface GenerationRow {
  factor: number;
  catalogFiles: number;
  eventVersions: number;
  /** Wall time of `npm run generate`, ms. */
  ms: Summary;
  /** The generator's own total (`… in N ms`), ms, and its stages: medians over runs. */
  internalMs: number;
  stagesMs: Record<string, number>;
}

export interface GenerationResult {
  runs: number;
  command: string;
  /** `npm run -s generate -- --help`: npm, the compiled generator's freshness check (`generator/cli/run-compiled.mjs`) and loading its modules, then exit without generating; ms. */
  startupMs: Summary;
  rows: GenerationRow[];
}

const SUMMARY = /in (\d+) ms \(([^)]*)\)/;

export function measureGeneration(work: string, options: { factors: readonly number[]; runs: number }): GenerationResult {
  const npm = npmCommand();
  const catalogs = options.factors.map((factor) => {
    const dir = factor === 1 ? join(ROOT, 'catalog') : join(work, `catalog-x${factor}`);
    if (factor !== 1) writeSyntheticCatalog(dir, factor);
    const files = readCatalogDir(dir);
    const loaded = loadCatalog(files);
    if (!loaded.model) throw new Error(`synthetic catalog ×${factor} does not load: ${loaded.errors.slice(0, 5).map((e) => `${e.position.file}:${e.position.line} ${e.message}`).join('; ')}`);
    return { factor, dir, files: files.length, events: loaded.model.events.length, wall: [] as number[], internal: [] as number[], stages: new Map<string, number[]>() };
  });

  const startup: number[] = [];
  for (let round = 0; round < options.runs; round++) {
    const help = timedSpawn(npm.command, [...npm.prefix, 'run', '-s', 'generate', '--', '--help'], { cwd: ROOT });
    if (help.status !== 0) throw new Error(`npm run generate -- --help failed: ${help.stderr.slice(-2000)}`);
    startup.push(help.ms);
    for (const c of catalogs) {
      const out = join(work, `generated-x${c.factor}`);
      const run = timedSpawn(npm.command, [...npm.prefix, 'run', '-s', 'generate', '--', '--catalog', c.dir, '--out', out], { cwd: ROOT, timeoutMs: 900_000 });
      if (run.status !== 0) throw new Error(`npm run generate (×${c.factor}) failed: ${run.stderr.slice(-3000)}`);
      c.wall.push(run.ms);
      const match = SUMMARY.exec(run.stdout);
      if (match) {
        c.internal.push(Number(match[1]));
        for (const part of match[2]!.split(', ')) {
          const [stage, ms] = part.split(' ');
          if (stage && ms) c.stages.set(stage, [...(c.stages.get(stage) ?? []), Number(ms)]);
        }
      }
      log(`generate ×${c.factor} run ${round + 1}/${options.runs}: ${run.ms.toFixed(0)} ms`);
    }
  }

  return {
    runs: options.runs,
    command: 'npm run -s generate -- --catalog <dir> --out <tmp>',
    startupMs: summarize(startup),
    rows: catalogs.map((c) => ({
      factor: c.factor,
      catalogFiles: c.files,
      eventVersions: c.events,
      ms: summarize(c.wall),
      internalMs: c.internal.length > 0 ? summarize(c.internal).median : Number.NaN,
      stagesMs: Object.fromEntries([...c.stages].map(([stage, values]) => [stage, summarize(values).median])),
    })),
  };
}
