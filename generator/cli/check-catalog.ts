/** `npm run catalog:check [-- <dir>]`: checks the catalog alone and prints a one-line summary. */
import { loadCatalogFromDisk } from '../catalog/load-catalog.js';
import { formatProblem } from '../catalog/problems.js';
import { formatSummary, summarizeCatalog } from '../catalog/summary.js';
import { recoverInterruptedWrite } from '../write/replace-folder.js';

const dir = process.argv[2] ?? 'catalog';
for (const note of recoverInterruptedWrite('generated')) console.error(`↺ ${note}`);
const result = loadCatalogFromDisk(dir);
for (const problem of [...result.errors, ...result.warnings]) console.error(formatProblem(problem));
if (!result.model) {
  console.error(`✘ catalog has ${result.errors.length} error(s); nothing written`);
  process.exit(1);
}
const warnings = result.warnings.length > 0 ? ` (${result.warnings.length} warning(s))` : '';
console.log(`✔ catalog: ${formatSummary(summarizeCatalog(result.model))}${warnings}`);
