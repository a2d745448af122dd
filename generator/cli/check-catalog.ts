/**
 * `npm run catalog:check [-- <dir>] [--verbose]`: checks the catalog alone and prints a
 * one-line summary. Errors are listed each with its position; warnings (facts of the seed,
 * such as shared types no event uses) are one line per kind unless `--verbose`.
 *
 * Exit status: 0 the catalog loads, 1 it has errors, 2 usage error or no such folder.
 */
import { existsSync, statSync } from 'node:fs';
import { loadCatalogFromDisk } from '../catalog/load-catalog.js';
import { formatProblem, formatWarnings } from '../catalog/problems.js';
import { formatSummary, summarizeCatalog } from '../catalog/summary.js';
import { recoverInterruptedWrite } from '../write/replace-folder.js';
import { HELP_OPTION, parseCliArgs, printUsage } from './cli-args.js';

const USAGE = 'usage: npm run catalog:check [-- <catalog-dir>] [--verbose]';

function main(): number {
  const args = parseCliArgs(USAGE, { options: { verbose: { type: 'boolean', default: false }, ...HELP_OPTION }, allowPositionals: true });
  if ('exit' in args) return args.exit;
  if (args.positionals.length > 1) return printUsage(USAGE, `✘ one catalog folder at most, got ${args.positionals.length}`);
  const dir = args.positionals[0] ?? 'catalog';
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return printUsage(USAGE, `✘ catalog folder not found: ${dir}`);

  for (const note of recoverInterruptedWrite('generated')) console.error(`↺ ${note}`);
  const result = loadCatalogFromDisk(dir);
  for (const line of [...result.errors.map(formatProblem), ...formatWarnings(result.warnings, args.values.verbose)]) console.error(line);
  if (!result.model) {
    console.error(`✘ catalog has ${result.errors.length} error(s); nothing written`);
    return 1;
  }
  const warnings = result.warnings.length > 0 ? ` (${result.warnings.length} warning(s))` : '';
  console.log(`✔ catalog: ${formatSummary(summarizeCatalog(result.model))}${warnings}`);
  return 0;
}

process.exit(main());
