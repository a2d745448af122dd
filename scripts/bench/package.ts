/**
 * The package under test, as a consumer meets it.
 *
 * - `dist` (the real benchmark): the working tree is copied to a private folder and built
 *   there with the project's own `npm run build` (so a rebuild of `dist/` running elsewhere
 *   cannot change the files mid-benchmark, and whatever the runtime and build config are at
 *   bench time is what gets measured); the result is packed with `npm pack` and unpacked into
 *   `node_modules/` of a throwaway consumer project. With `--no-build`, the existing `dist/`
 *   of the repository is packed instead.
 * - `source` (`--quick`, the smoke test): no build; consumers import the TypeScript sources
 *   through tsx's loader. Numbers from it only prove the harness works.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_NAME, ROOT, log, mustSpawn, npmCommand, readJson, write } from './common.js';

export interface ManifestEvent {
  type: string;
  version: string;
  tsName: string;
  open: boolean;
  schema: string;
  payloadSchema: string;
  fields: { name: string; type: string; optional: boolean }[];
}

export interface PackageUnderTest {
  kind: 'dist' | 'source';
  /** How it was obtained, for the report. */
  description: string;
  /** A project folder (`"type": "module"`) whose files can import the package by name (`dist`) or by `rootSpecifier`. */
  consumerDir: string;
  /** What consumer code imports for the root. */
  rootSpecifier: string;
  /** What consumer code imports for one event entry. */
  eventSpecifier(type: string, version: string): string;
  /** Absolute file of the root ESM entry. */
  rootFile: string;
  /** Absolute file of one event's ESM entry. */
  eventFile(type: string, version: string): string;
  /** Arguments `node` needs before a script that imports the package (tsx's loader in quick mode). */
  nodeArgs: string[];
  /** Folder of the installed package (`dist`), or `generated/` (`source`). */
  packageDir: string;
  /** The packed tarball (`dist` only). */
  tarball?: string;
  /** Wall time of `npm run build`, when the harness built it. */
  buildMs?: number;
  /** Events with an entry. */
  events: ManifestEvent[];
}

/** A specifier of the package as written in a file one folder below the consumer project (`./pkg/…` becomes `../pkg/…`). */
export const oneFolderDown = (specifier: string): string => (specifier.startsWith('./') ? `.${specifier}` : specifier);

export const loadManifestEvents = (): ManifestEvent[] => readJson<{ events: ManifestEvent[] }>(join(ROOT, 'generated/manifest.json')).events;

type ExportTarget = string | { [condition: string]: ExportTarget };

/** The ESM file an `exports` entry points at (`import` → `default`). */
function esmTarget(target: ExportTarget | undefined): string {
  if (typeof target === 'string') return target;
  if (target === undefined) throw new Error('no such export');
  for (const condition of ['import', 'node', 'default']) {
    const next = target[condition];
    if (next !== undefined) {
      const resolved = esmTarget(next);
      if (!resolved.endsWith('.d.ts')) return resolved;
    }
  }
  throw new Error(`no ESM target in ${JSON.stringify(target)}`);
}

const consumerPackageJson = JSON.stringify({ name: 'bench-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2);

/** Copies the working tree (not node_modules, dist, .git, caches) to `dir`, with node_modules linked. */
function snapshotWorkingTree(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(ROOT)) {
    if (name.startsWith('.') || name === 'node_modules' || name === 'dist') continue;
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}

export async function preparePackage(options: { work: string; mode: 'dist' | 'source'; build: boolean }): Promise<PackageUnderTest> {
  const manifestEvents = loadManifestEvents();
  const consumerDir = join(options.work, 'consumer');
  write(join(consumerDir, 'package.json'), consumerPackageJson);

  if (options.mode === 'source') {
    // Quick mode: the TypeScript sources themselves, through tsx's loader (no build at all).
    const tsx = import.meta.resolve('tsx');
    const fileUrl = (path: string) => pathToFileURL(path).href;
    const eventFile = (type: string, version: string) => join(ROOT, 'generated/events', type, `${version}.ts`);
    return {
      kind: 'source',
      description: 'the TypeScript sources run through tsx\'s loader (quick mode: not the published build)',
      consumerDir,
      nodeArgs: ['--import', tsx],
      rootSpecifier: fileUrl(join(ROOT, 'runtime/index.ts')),
      eventSpecifier: (type, version) => fileUrl(eventFile(type, version)),
      rootFile: join(ROOT, 'runtime/index.ts'),
      eventFile,
      packageDir: join(ROOT, 'generated'),
      events: manifestEvents,
    };
  }

  const npm = npmCommand();
  let packFrom = ROOT;
  let buildMs: number | undefined;
  let description: string;
  if (options.build) {
    packFrom = join(options.work, 'snapshot');
    log(`copying the working tree to ${packFrom} and running npm run build there…`);
    snapshotWorkingTree(packFrom);
    buildMs = mustSpawn(npm.command, [...npm.prefix, 'run', '-s', 'build'], { cwd: packFrom, timeoutMs: 900_000 }).ms;
    description = 'a snapshot of the working tree, built with `npm run build`, packed with `npm pack` and unpacked into a throwaway project';
  } else {
    if (!existsSync(join(ROOT, 'dist/index.js'))) throw new Error('--no-build, but dist/ has not been built: run npm run build first');
    description = 'the existing dist/ (--no-build), packed with `npm pack` and unpacked into a throwaway project';
  }
  const packed = mustSpawn(npm.command, [...npm.prefix, 'pack', '--silent', '--pack-destination', options.work], { cwd: packFrom });
  const tarball = join(options.work, packed.stdout.trim().split('\n').pop()!);
  const packageDir = join(consumerDir, 'node_modules', ...PACKAGE_NAME.split('/'));
  mkdirSync(packageDir, { recursive: true });
  mustSpawn('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1'], { cwd: options.work });
  writeFileSync(join(consumerDir, '.installed-from'), tarball);

  const exportsMap = readJson<{ exports: Record<string, ExportTarget> }>(join(packageDir, 'package.json')).exports;
  const rootFile = join(packageDir, esmTarget(exportsMap['.']));
  const eventPattern = esmTarget(exportsMap['./events/*']);
  const eventFile = (type: string, version: string) => join(packageDir, eventPattern.replace('*', `${type}/${version}`));
  if (!existsSync(rootFile)) throw new Error(`the packed package has no root entry ${rootFile}`);
  const events = manifestEvents.filter((e) => existsSync(eventFile(e.type, e.version)));
  if (events.length !== manifestEvents.length) throw new Error(`the packed package has ${events.length} of ${manifestEvents.length} event entries`);
  return {
    kind: 'dist',
    description,
    nodeArgs: [],
    consumerDir,
    rootSpecifier: PACKAGE_NAME,
    eventSpecifier: (type, version) => `${PACKAGE_NAME}/events/${type}/${version}`,
    rootFile,
    eventFile,
    packageDir,
    tarball,
    ...(buildMs !== undefined && { buildMs }),
    events,
  };
}
