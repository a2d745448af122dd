/**
 * 6. Size and memory:
 * - each event's entry bundled with esbuild into a consumer that validates one message
 *   (minified; and gzip, zlib default level 6);
 * - the root entry bundled the same way (everything);
 * - `createEventValidator` (`create-event-validator`) bundled with one event entry, and with ten;
 * - the installed package on disk, and the packed tarball;
 * - V8 heap after importing the root or one event entry (child processes with `--expose-gc`,
 *   `heapUsed` after two `gc()`), minus that of a child that imports nothing.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { eventValidatorName } from '../../generator/emit/event-entries.js';
import { summarize, timedSpawn, write, type Summary } from './common.js';
import { SAMPLE_MESSAGE } from './cold-start.js';
import { oneFolderDown, type PackageUnderTest } from './package.js';

export interface BundleSize {
  entry: string;
  minBytes: number;
  gzipBytes: number;
}

export interface SizeResult {
  /** The example event (account.created v1). */
  exampleEvent: BundleSize;
  /** Every event entry bundled on its own (min+gz). */
  events: { count: number; gzip: Summary; min: Summary; largest: BundleSize; overTarget: number };
  root: BundleSize;
  /** `createEventValidator` over one event entry (account.created v1), and over the first ten of the catalog. */
  selected: { one: BundleSize; ten: BundleSize };
  disk: { files: number; bytes: number; jsBytes: number; declarationBytes: number; schemaBytes: number; tarballBytes?: number };
  /** Heap (bytes) above a child that imports nothing: median of `runs` children each. */
  heap: { runs: number; baselineBytes: number; rootImport: number; rootImportAndValidate: number; eventImport: number };
}

/** "3 KB", read the stricter way: 3,000 bytes. */
export const EVENT_TARGET_GZIP_BYTES = 3000;
/** The most `createEventValidator` and the code it shares with the event entries may add to a bundle: 15 KB, read as 15,000 bytes. */
export const SELECTED_TARGET_GZIP_BYTES = 15000;
/** "6 MB" for the unpacked package, read the stricter way: 6,000,000 bytes. */
export const INSTALLED_TARGET_BYTES = 6_000_000;

async function bundleSize(consumerDir: string, name: string, source: string): Promise<BundleSize> {
  const entry = join(consumerDir, 'size', `${name.replace(/[^a-z0-9.-]+/gi, '_')}.mjs`);
  write(entry, source);
  const result = await build({ entryPoints: [entry], bundle: true, minify: true, write: false, format: 'esm', platform: 'node', target: 'node20', absWorkingDir: consumerDir, logLevel: 'error' });
  const bytes = result.outputFiles[0]!.contents;
  return { entry: name, minBytes: bytes.length, gzipBytes: gzipSync(bytes).length };
}

function walk(dir: string): { path: string; bytes: number }[] {
  const out: { path: string; bytes: number }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) out.push(...walk(path));
    else out.push({ path, bytes: stat.size });
  }
  return out;
}

const importLine = (specifier: string, name: string) => `import { ${name} } from ${JSON.stringify(oneFolderDown(specifier))};`;
const message = JSON.stringify(SAMPLE_MESSAGE);


export async function measureSize(pkg: PackageUnderTest, options: { heapRuns: number; maxEvents?: number }): Promise<SizeResult> {
  const isExample = (e: { type: string; version: string }) => e.type === 'account.created' && e.version === 'v1';
  const events = options.maxEvents === undefined ? pkg.events : [...pkg.events.filter(isExample), ...pkg.events.filter((e) => !isExample(e))].slice(0, options.maxEvents);
  // esbuild takes paths, not the file URLs quick mode imports.
  const eventSpecifier = (type: string, version: string) => (pkg.kind === 'source' ? pkg.eventFile(type, version) : pkg.eventSpecifier(type, version));
  const rootSpecifier = pkg.kind === 'source' ? pkg.rootFile : pkg.rootSpecifier;
  const sizes: BundleSize[] = [];
  for (const e of events) {
    const name = eventValidatorName(e);
    sizes.push(await bundleSize(pkg.consumerDir, `${e.type}@${e.version}`, `${importLine(eventSpecifier(e.type, e.version), name)}\nconsole.log(${name}.validate(globalThis.message).ok);\n`));
  }
  const example = sizes.find((s) => s.entry === 'account.created@v1') ?? sizes[0]!;
  const largest = sizes.reduce((a, b) => (b.gzipBytes > a.gzipBytes ? b : a));
  const root = await bundleSize(pkg.consumerDir, 'root', `${importLine(rootSpecifier, 'validateEvent')}\nconsole.log(validateEvent(globalThis.message).ok);\n`);
  const selectedSpecifier = pkg.kind === 'source' ? join(dirname(pkg.rootFile), 'entries', 'create-event-validator.ts') : `${pkg.rootSpecifier}/create-event-validator`;
  const selectedBundle = (name: string, chosen: readonly { type: string; version: string; tsName: string }[]) =>
    bundleSize(
      pkg.consumerDir,
      name,
      [importLine(selectedSpecifier, 'createEventValidator'), ...chosen.map((e) => importLine(eventSpecifier(e.type, e.version), eventValidatorName(e))), `console.log(createEventValidator([${chosen.map(eventValidatorName).join(', ')}]).validateEvent(globalThis.message).ok);`, ''].join('\n'),
    );
  const selected = { one: await selectedBundle('selected-one', pkg.events.filter(isExample)), ten: await selectedBundle('selected-ten', pkg.events.slice(0, 10)) };

  const files = walk(pkg.packageDir);
  const sum = (filter: (path: string) => boolean) => files.filter((f) => filter(f.path)).reduce((n, f) => n + f.bytes, 0);
  const disk: SizeResult['disk'] = {
    files: files.length,
    bytes: sum(() => true),
    jsBytes: sum((p) => /\.(c|m)?js$/.test(p)),
    declarationBytes: sum((p) => /\.d\.(c|m)?ts$/.test(p)),
    schemaBytes: sum((p) => p.endsWith('.json') && p.includes('/schemas/')),
  };
  if (pkg.tarball) disk.tarballBytes = statSync(pkg.tarball).size;

  // Heap: one child per measurement, interleaved.
  const heapDir = join(pkg.consumerDir, 'heap');
  const report = `globalThis.gc(); globalThis.gc(); console.log(process.memoryUsage().heapUsed);`;
  const spec = (s: string) => JSON.stringify(oneFolderDown(s));
  const scripts = {
    baseline: report,
    rootImport: `await import(${spec(pkg.rootSpecifier)});\n${report}`,
    rootImportAndValidate: `const { validateEvent } = await import(${spec(pkg.rootSpecifier)});\nif (!validateEvent(${message}).ok) process.exit(1);\n${report}`,
    eventImport: `await import(${spec(pkg.eventSpecifier('account.created', 'v1'))});\n${report}`,
  };
  const heap: Record<keyof typeof scripts, number[]> = { baseline: [], rootImport: [], rootImportAndValidate: [], eventImport: [] };
  for (const [name, text] of Object.entries(scripts)) write(join(heapDir, `${name}.mjs`), text);
  for (let round = 0; round < options.heapRuns; round++) {
    for (const name of Object.keys(scripts) as (keyof typeof scripts)[]) {
      const run = timedSpawn(process.execPath, ['--expose-gc', ...pkg.nodeArgs, join(heapDir, `${name}.mjs`)], { cwd: pkg.consumerDir });
      if (run.status !== 0) throw new Error(`heap ${name} failed: ${run.stderr.slice(0, 2000)}`);
      heap[name].push(Number(run.stdout.trim()));
    }
  }
  const median = (name: keyof typeof scripts) => summarize(heap[name]).median;
  const baselineBytes = median('baseline');
  return {
    exampleEvent: example,
    events: {
      count: sizes.length,
      gzip: summarize(sizes.map((s) => s.gzipBytes)),
      min: summarize(sizes.map((s) => s.minBytes)),
      largest,
      overTarget: sizes.filter((s) => s.gzipBytes > EVENT_TARGET_GZIP_BYTES).length,
    },
    root,
    selected,
    disk,
    heap: {
      runs: options.heapRuns,
      baselineBytes,
      rootImport: median('rootImport') - baselineBytes,
      rootImportAndValidate: median('rootImportAndValidate') - baselineBytes,
      eventImport: median('eventImport') - baselineBytes,
    },
  };
}
