/** `npm run catalog:check [-- <dir>]`: checks the catalog alone and prints a one-line summary. */
import { loadCatalogFromDisk } from '../catalog/load-catalog.js';
import { formatProblem } from '../catalog/problems.js';
import { formatSummary, summarizeCatalog } from '../catalog/summary.js';

const dir = process.argv[2] ?? 'catalog';
const result = loadCatalogFromDisk(dir);
for (const problem of [...result.errors, ...result.warnings]) console.error(formatProblem(problem));
if (!result.model) {
  console.error(`✘ catalog has ${result.errors.length} error(s); nothing written`);
  process.exit(1);
}
const warnings = result.warnings.length > 0 ? ` (${result.warnings.length} warning(s))` : '';
console.log(`✔ catalog: ${formatSummary(summarizeCatalog(result.model))}${warnings}`);
