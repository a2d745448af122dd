/**
 * `npm run compat [-- --against <git-ref | manifest.json>] [--catalog <dir>] [--json] [--update-baseline]`
 *
 * Compares the catalog (loaded in memory, not the committed generated/) with a baseline:
 * `catalog/baseline/manifest.json` by default, another manifest file, or
 * `generated/manifest.json` at a git ref. Every change to an existing event version is
 * classified from the consumer's side (rules in generator/compat/rules.ts and README.md).
 *
 * Exit status: 0 nothing breaks, 1 a breaking change, 2 usage error, unreadable baseline or
 * a catalog that does not load.
 *
 * `--update-baseline` (when a release is cut) writes the catalog's manifest to the baseline
 * file (default `catalog/baseline/manifest.json`) after printing what changed since the
 * previous one; it exits 0 even when that includes breaking changes, as it is done on purpose.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { formatProblem, type CatalogProblem } from '../catalog/problems.js';
import { baselineManifest, checkCompatibility, DEFAULT_BASELINE, exitCodeOf, formatReport, isManifestPath, loadCurrentCatalog } from '../compat/index.js';
import type { CatalogModel } from '../model.js';
import { HELP_OPTION, parseCliArgs } from './cli-args.js';
import { recoverInterruptedWrite } from '../write/replace-folder.js';

const USAGE = 'usage: npm run compat [-- --against <git-ref|manifest.json>] [--catalog <dir>] [--json] [--update-baseline]';

function fail(error: string, problems: CatalogProblem[] = []): 2 {
  for (const problem of problems) console.error(formatProblem(problem));
  console.error(`✘ ${error}\n${USAGE}`);
  return 2;
}

function writeBaseline(target: string, model: CatalogModel, note = ''): 0 {
  mkdirSync(dirname(resolve(target)), { recursive: true });
  writeFileSync(resolve(target), baselineManifest(model));
  console.error(`✔ wrote ${target}: the baseline is now this catalog (${model.events.length} event versions)${note}`);
  return 0;
}

function main(): number {
  const parsed = parseCliArgs(USAGE, {
    options: {
      against: { type: 'string' },
      catalog: { type: 'string', default: 'catalog' },
      json: { type: 'boolean', default: false },
      'update-baseline': { type: 'boolean', default: false },
      ...HELP_OPTION,
    },
  });
  if ('exit' in parsed) return parsed.exit;
  const args = parsed.values;

  for (const note of recoverInterruptedWrite('generated')) console.error(`↺ ${note}`);
  const against = args.against ?? DEFAULT_BASELINE;
  const update = args['update-baseline'];
  if (update) {
    if (!isManifestPath(against)) return fail(`--update-baseline writes a manifest file, and "${against}" is a git ref`);
    if (!existsSync(resolve(against))) {
      // The first baseline: nothing to compare it with.
      const current = loadCurrentCatalog(args.catalog);
      return 'error' in current ? fail(current.error, current.problems) : writeBaseline(against, current.model);
    }
  }

  const result = checkCompatibility({ catalog: args.catalog, against });
  if (!result.ok) return fail(result.error, result.problems);

  if (args.json) console.log(JSON.stringify(result.report, null, 2));
  else process.stdout.write(formatReport(result.report, { catalog: `${args.catalog.replace(/\/+$/, '')}/` }));

  if (update) return writeBaseline(against, result.model, result.report.breaking ? ', accepting the breaking changes above: say so in the release notes' : '');
  return exitCodeOf(result);
}

process.exit(main());
