/**
 * `npm run generate [-- --check] [--catalog <dir>] [--out <dir>] [--verbose]`
 *
 * Compiles the catalog into `generated/`. With `--check`, writes nothing, and exits 1 with
 * a unified diff when `generated/` is not exactly what the catalog produces. Warnings are one
 * line per kind unless `--verbose`.
 */
import { existsSync } from 'node:fs';
import { readCatalogDir } from '../catalog/load-catalog.js';
import { formatProblem, formatWarnings } from '../catalog/problems.js';
import { formatSummary, summarizeCatalog } from '../catalog/summary.js';
import { generate } from '../generate.js';
import { interruptedWriteLeftovers, recoverInterruptedWrite } from '../write/replace-folder.js';
import { compareGenerated, writeGenerated } from '../write/write-generated.js';
import { HELP_OPTION, parseCliArgs, printUsage } from './cli-args.js';

const USAGE = 'usage: npm run generate [-- --check] [--catalog <dir>] [--out <dir>] [--verbose]';
const MAX_DIFF_LINES = 400;

async function main(): Promise<number> {
  const parsed = parseCliArgs(USAGE, {
    options: {
      check: { type: 'boolean', default: false },
      catalog: { type: 'string', default: 'catalog' },
      out: { type: 'string', default: 'generated' },
      verbose: { type: 'boolean', default: false },
      ...HELP_OPTION,
    },
  });
  if ('exit' in parsed) return parsed.exit;
  const args = parsed.values;
  if (!existsSync(args.catalog)) return printUsage(USAGE, `✘ catalog folder not found: ${args.catalog}`);
  if (args.check) {
    // --check writes nothing: what a killed run left is reported, and left for the next run to finish or undo.
    const leftovers = interruptedWriteLeftovers(args.out);
    if (leftovers.length > 0) console.error(`↺ ${args.out}: a killed run left ${leftovers.join(', ')}; not touched (--check writes nothing): the next npm run generate finishes or undoes it`);
  } else {
    for (const note of recoverInterruptedWrite(args.out)) console.error(`↺ ${note}`);
  }
  const started = performance.now();
  const result = await generate(readCatalogDir(args.catalog));
  for (const line of [...(result.ok ? [] : result.errors.map(formatProblem)), ...formatWarnings(result.warnings, args.verbose)]) console.error(line);
  if (!result.ok) {
    console.error(`✘ catalog has ${result.errors.length} error(s); ${args.out}/ left unchanged`);
    return 1;
  }

  const summary = `${result.files.length} files from ${formatSummary(summarizeCatalog(result.model))}`;
  if (args.check) {
    const { stale, missing, extra, diff } = compareGenerated(args.out, result.files, args.out);
    if (stale.length + missing.length + extra.length === 0) {
      console.log(`✔ ${args.out}/ is up to date: ${summary}`);
      return 0;
    }
    const lines = diff.split('\n');
    console.log(lines.slice(0, MAX_DIFF_LINES).join('\n'));
    if (lines.length > MAX_DIFF_LINES) console.log(`… diff cut at ${MAX_DIFF_LINES} of ${lines.length} lines`);
    for (const path of stale) console.error(`stale:   ${args.out}/${path}`);
    for (const path of missing) console.error(`missing: ${args.out}/${path}`);
    for (const path of extra) console.error(`extra:   ${args.out}/${path}`);
    console.error(`✘ ${args.out}/ is out of date (${stale.length} stale, ${missing.length} missing, ${extra.length} extra): run npm run generate`);
    return 1;
  }

  const writeStart = performance.now();
  await writeGenerated(args.out, result.files);
  const timings = [...result.timings, { stage: 'write', ms: performance.now() - writeStart }];
  const total = performance.now() - started;
  console.log(`✔ wrote ${args.out}/: ${summary} in ${total.toFixed(0)} ms (${timings.map((t) => `${t.stage} ${t.ms.toFixed(0)} ms`).join(', ')})`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✘ generation failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    console.error('✘ nothing was written');
    process.exit(1);
  },
);
