/**
 * `node generator/cli/run-compiled.mjs <entry.ts> [args…]`: runs a TypeScript command
 * compiled ahead into one JavaScript module, the way `node --import tsx <entry.ts>` would.
 *
 * Why: on Node 20, tsx's loader hooks run on a separate thread that every module load waits
 * for, and a generator command loads hundreds (ts-morph, ajv, json-schema-to-typescript):
 * about 300 ms of each `npm run generate`. Here the entry and the project files it imports
 * are bundled once by esbuild (what tsx compiles with; packages stay imports, loaded by Node
 * itself) into `.cache/compiled/`, and rebuilt whenever the content of any file the bundle
 * was built from (or of this file) changes. Plain JavaScript so that it needs no loader.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

const [entryArg, ...args] = process.argv.slice(2);
if (!entryArg) {
  console.error('usage: node generator/cli/run-compiled.mjs <entry.ts> [args…]');
  process.exit(2);
}
const entry = resolve(entryArg);
const cacheDir = join(ROOT, '.cache/compiled');
const name = `${basename(entry, '.ts')}-${createHash('sha256').update(entry).digest('hex').slice(0, 12)}`;
const bundlePath = join(cacheDir, `${name}.mjs`);
const stampPath = join(cacheDir, `${name}.inputs.json`);

/** One digest of the content of every file the bundle depends on (this launcher included). */
function digestOf(inputs) {
  const hash = createHash('sha256');
  for (const input of [SELF, ...inputs]) hash.update(input).update('\0').update(readFileSync(input)).update('\0');
  return hash.digest('hex');
}

function isFresh() {
  try {
    const stamp = JSON.parse(readFileSync(stampPath, 'utf8'));
    return digestOf(stamp.inputs) === stamp.digest && readFileSync(bundlePath).length > 0;
  } catch {
    return false; // never built, a source gone, or a broken stamp: build
  }
}

async function build() {
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    sourcemap: 'inline',
    write: false,
    metafile: true,
    outfile: bundlePath,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs).map((input) => resolve(ROOT, input));
  // Bundle first, stamp last, each by rename: a stamp never vouches for a half-written bundle.
  mkdirSync(cacheDir, { recursive: true });
  const write = (path, text) => {
    const partial = `${path}.${process.pid}.partial`;
    writeFileSync(partial, text);
    renameSync(partial, path);
  };
  write(bundlePath, result.outputFiles[0].contents);
  write(stampPath, `${JSON.stringify({ digest: digestOf(inputs), inputs }, null, 2)}\n`);
}

if (!isFresh()) await build();
// Stack traces point into the TypeScript sources, as under tsx.
process.setSourceMapsEnabled(true);
process.argv = [process.argv[0], entry, ...args];
await import(pathToFileURL(bundlePath).href);
