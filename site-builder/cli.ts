/**
 * `npm run site [-- --out <dir>] [--dist <dir>]`: the browsable catalog, from what the
 * package publishes (`generated/` and the built `dist/`; run `npm run build` first), written
 * atomically to `site/` (not committed).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildSite } from './build-site.js';
import { readPackage } from './read-package.js';
import { writeSite } from './write-site.js';

const USAGE = 'usage: npm run site [-- --out <dir>] [--dist <dir>]';

async function main(): Promise<number> {
  let values: { out: string; dist: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { out: { type: 'string', default: 'site' }, dist: { type: 'string', default: 'dist' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    console.error(`✘ ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(`${USAGE}\n\nBuilds the browsable catalog from generated/ and the built package (dist/, from npm run build).\n  --out   where to write the site (default site/)\n  --dist  the built package to bundle the validators from (default dist/)`);
    return 0;
  }
  const started = performance.now();
  const root = process.cwd();
  let site;
  try {
    site = await buildSite(readPackage(root, resolve(root, values.dist)));
  } catch (error) {
    console.error(`✘ site: ${(error as Error).message}; ${values.out}/ left unchanged`);
    return 1;
  }
  writeSite(resolve(root, values.out), site.files);
  const bytes = site.files.reduce((sum, file) => sum + (typeof file.contents === 'string' ? Buffer.byteLength(file.contents) : file.contents.byteLength), 0);
  console.log(`✔ wrote ${values.out}/: ${site.pages} pages, ${site.files.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${Math.round(performance.now() - started)} ms; open ${values.out}/index.html`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✘ site failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
