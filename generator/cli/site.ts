/**
 * `npm run site [-- --catalog <dir>] [--out <dir>]`
 *
 * Builds the browsable catalog (`site/`, not committed) from the catalog: a page per event
 * version, shared type and REST operation, search and live validators. Reads the runtime and
 * `generated/` (bundled for the browser), so it runs after `npm run generate`. Written
 * atomically, as `generated/` is: a failed build leaves the previous site as it was.
 */
import { existsSync } from 'node:fs';
import { loadCatalogFromDisk } from '../catalog/load-catalog.js';
import { formatProblem } from '../catalog/problems.js';
import { buildSite, SITE_DIR } from '../site/build-site.js';
import { recoverInterruptedWrite } from '../write/replace-folder.js';
import { writeGenerated } from '../write/write-generated.js';
import { HELP_OPTION, parseCliArgs, printUsage } from './cli-args.js';

const USAGE = 'usage: npm run site [-- --catalog <dir>] [--out <dir>]';

async function main(): Promise<number> {
  const parsed = parseCliArgs(USAGE, {
    options: {
      catalog: { type: 'string', default: 'catalog' },
      out: { type: 'string', default: SITE_DIR },
      ...HELP_OPTION,
    },
  });
  if ('exit' in parsed) return parsed.exit;
  const args = parsed.values;
  if (!existsSync(args.catalog)) return printUsage(USAGE, `✘ catalog folder not found: ${args.catalog}`);
  for (const note of recoverInterruptedWrite(args.out)) console.error(`↺ ${note}`);
  const started = performance.now();
  const loaded = loadCatalogFromDisk(args.catalog);
  if (!loaded.model) {
    for (const problem of loaded.errors) console.error(formatProblem(problem));
    console.error(`✘ catalog has ${loaded.errors.length} error(s); ${args.out}/ left unchanged`);
    return 1;
  }
  let site;
  try {
    site = await buildSite(loaded.model, process.cwd());
  } catch (error) {
    console.error(`✘ ${error instanceof Error ? error.message : String(error)}; ${args.out}/ left unchanged`);
    return 1;
  }
  await writeGenerated(args.out, site.files);
  const bytes = site.files.reduce((sum, file) => sum + Buffer.byteLength(file.contents), 0);
  console.log(`✔ wrote ${args.out}/: ${site.pages} pages, ${site.files.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms; open ${args.out}/index.html`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✘ site failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
