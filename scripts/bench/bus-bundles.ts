/**
 * The code the bus group's run processes load, bundled by esbuild into a folder of the run:
 *
 * - `bus-run.mjs`: the process that times one run (`bus-run.ts`), with the hand-written loops;
 * - `adapter-current.mjs`: the adapters and the package root of the working tree;
 * - `adapter-before.mjs`: the same entry points as they were at `BEFORE_COMMIT`, from
 *   `git archive <commit> runtime generated`, bundled with the same options;
 * - `bus-tracing.mjs`: the OpenTelemetry SDK set-up, loaded only by the "tracing on" runs.
 *
 * The broker clients and `@opentelemetry/*` stay outside every bundle and are loaded from the
 * repository's `node_modules` (linked into the folder): every process and both adapters use
 * the same client code, and a run that hides OpenTelemetry (`opentelemetry-hook.mjs`) hides
 * the one package an application would have installed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import { BEFORE_COMMIT } from './bus-variants.js';
import { ROOT } from './common.js';

export interface BusBundles {
  /** Where the bundles are; its `node_modules` is the repository's. */
  dir: string;
  run: string;
  tracing: string;
  hook: string;
  current: string;
  before: string;
}

const EXTERNAL = ['@nats-io/*', 'ioredis', '@opentelemetry/*'];

const common: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'error',
  external: EXTERNAL,
  // Generated validators of older commits require ajv's helpers: found in the repository's node_modules.
  nodePaths: [join(ROOT, 'node_modules')],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
};

/** What a run process imports of an adapter tree (the same names at every commit since the adapters exist). */
const ADAPTER_ENTRY = [
  "export { consumeEvents as consumeNats, publishEvent as publishNats } from './runtime/nats/index.js';",
  "export { consumeEvents as consumeRedis, publishEvent as publishRedis } from './runtime/redis-streams/index.js';",
  "export { decodeEvent, validateEvent } from './runtime/index.js';",
].join('\n');

async function bundleAdapter(tree: string, outfile: string): Promise<void> {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  await build({
    ...common,
    stdin: { contents: ADAPTER_ENTRY, resolveDir: tree, sourcefile: 'bench-adapter-entry.ts', loader: 'ts' },
    outfile,
    // As the package build writes it in.
    define: { __EVENT_CATALOG_VERSION__: JSON.stringify(version) },
  });
}

export async function bundleBus(work: string): Promise<BusBundles> {
  const dir = join(work, 'bus');
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const beforeTree = join(dir, `tree-${BEFORE_COMMIT}`);
  mkdirSync(beforeTree);
  const archive = execFileSync('git', ['archive', '--format=tar', BEFORE_COMMIT, 'runtime', 'generated'], { cwd: ROOT, maxBuffer: 512 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', beforeTree], { input: archive });
  const bundles: BusBundles = {
    dir,
    run: join(dir, 'bus-run.mjs'),
    tracing: join(dir, 'bus-tracing.mjs'),
    hook: join(ROOT, 'scripts/bench/opentelemetry-hook.mjs'),
    current: join(dir, 'adapter-current.mjs'),
    before: join(dir, 'adapter-before.mjs'),
  };
  await Promise.all([
    build({ ...common, entryPoints: [join(ROOT, 'scripts/bench/bus-run.ts')], outfile: bundles.run }),
    build({ ...common, entryPoints: [join(ROOT, 'scripts/bench/bus-tracing.ts')], outfile: bundles.tracing }),
    bundleAdapter(ROOT, bundles.current),
    bundleAdapter(beforeTree, bundles.before),
  ]);
  return bundles;
}
