/**
 * tsup part of the package build (run through `npm run build`, see build-package.ts):
 * - the root API as CommonJS (`index.cjs`), with bundled declarations (`index.d.ts`,
 *   `index.d.cts`); its validator modules stay separate files, `require`d on first use, and
 *   so does the search of a rejected payload for its errors (`payload-errors.cjs`);
 * - one entry per event version (`events/<type>/<version>.js|.cjs`), each importing only its
 *   own validator module (in `validators/`, shared with the root) and `entries.js|.cjs`
 *   (`runtime/entries/`), which also holds `createEventValidator` (the `create-event-validator` entry);
 * - the CLI (`cli.js`), which imports the root rather than carrying a second copy;
 * - the REST entry (`rest.js|.cjs`), carrying its own validators;
 * - the broker adapters (`nats`, `redis-streams`), ES module and CommonJS, which import the
 *   root too, and their broker client (a peer dependency, so tsup leaves it external);
 * - the emulator (`emulator.js|.cjs`), which imports the root, the REST entry and (only when
 *   it publishes to a broker) an adapter.
 */
import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { RUNTIME_IMPORTS } from '../runtime/contract/runtime-imports.js';
import { eventEntry, eventEntryPath, type EventEntrySource } from '../generator/emit/event-entries.js';
import { ADAPTER_ENTRIES, distImport, EMULATOR_ENTRY, ENTRIES_MODULE, formatOf, REST_VALIDATORS_MODULE, ROOT_MODULE } from './package-layout.js';

const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as { events: EventEntrySource[] };
const packageVersion = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const eventEntries = Object.fromEntries(manifest.events.map((e) => [`events/${e.type}/${e.version}`, `generated/${eventEntryPath(e)}`]));
/** The validator modules the generated entries import, as the generator writes them. */
const validatorModules = new Set(manifest.events.map((e) => eventEntry(e).validatorModule));

const common: Options = {
  outDir: 'dist',
  target: 'node20',
  platform: 'node',
  // esbuild already drops unused code; tsup's extra rollup pass only adds time and warnings.
  treeshake: false,
  // Maps without the sources' text: a stack under `node --enable-source-maps` names
  // runtime/**/*.ts and its lines, for a fraction of the size of maps that embed the code.
  sourcemap: true,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
  splitting: false,
  clean: false,
  // Syntax only: a line per statement, so an uncaught error prints its own line, not a whole
  // file on one line (whitespace cost about 37 KB installed); bundlers minify for the browser.
  minifyWhitespace: false,
  minifySyntax: true,
  // The tracer's and meter's version (runtime/internal/telemetry.ts).
  define: { __EVENT_CATALOG_VERSION__: JSON.stringify(packageVersion) },
};

/** `../index.js` (the root) stays an import of the built root, in the adapter's own format: one copy of the root's code and classes. */
const adaptersUseRoot: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'adapters-use-root',
  setup(build) {
    const root = distImport(ROOT_MODULE, formatOf(build.initialOptions.format));
    build.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: root, external: true }));
  },
};

/** The emulator's imports of the root, the REST entry and the adapters stay imports of those built entries, in its own format. */
const emulatorUsesEntries: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'emulator-uses-entries',
  setup(build) {
    const format = formatOf(build.initialOptions.format);
    build.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: distImport(ROOT_MODULE, format), external: true }));
    build.onResolve({ filter: /^\.\.\/(rest|nats|redis-streams)\/index\.js$/ }, (args) => ({ path: distImport(args.path.split('/')[1]!, format), external: true }));
  },
};

/**
 * An event entry's validator module (`../../validators/<type>/<version>.cjs`) stays an import
 * of that file, and the code around it (`defineEventValidator`) an import of the one
 * entries module of the entry's format: an entry is a few lines, not a copy of both.
 */
const entriesShareCode: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'entries-share-code',
  setup(build) {
    const entries = distImport(ENTRIES_MODULE, formatOf(build.initialOptions.format), 'event');
    build.onResolve({ filter: /\.cjs$/ }, (args) => (validatorModules.has(args.path) ? { path: args.path, external: true } : undefined));
    build.onResolve({ filter: /\.js$/ }, (args) => (args.path === RUNTIME_IMPORTS.eventEntry ? { path: entries, external: true } : undefined));
  },
};

/** `generated/api/validators.cjs` stays an import of the one `rest-validators.cjs` beside both REST entries, not a copy in each. */
const restValidatorsStayAFile: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'rest-validators-stay-a-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/validators\.cjs$/ }, (args) => (args.importer.includes('generated/api/') ? { path: `./${REST_VALIDATORS_MODULE}.cjs`, external: true } : undefined));
  },
};

export default defineConfig([
  {
    ...common,
    entry: { [ROOT_MODULE]: 'runtime/index.ts' },
    format: ['cjs'],
    esbuildPlugins: [
      {
        // The registry stays a file of its own next to index.cjs, and so do the validator
        // modules it requires on first use. Node's ES-module loader scans a CommonJS module
        // imported from ESM for its export names; keeping the 228-entry tables out of
        // index.cjs keeps that scan short.
        name: 'registry-and-validators-stay-files',
        setup(build) {
          build.onResolve({ filter: /(^|\/)generated\/registry\.cjs$/ }, () => ({ path: './registry.cjs', external: true }));
          // The search of a rejected payload is a file of its own too: with it inside, importing
          // index.cjs from an ES module took ~30 ms longer in Node 20.20 (its module-syntax
          // detection: gone with --no-experimental-detect-module), although no valid message runs it.
          build.onResolve({ filter: /^\.\/payload-errors\.js$/ }, () => ({ path: './payload-errors.cjs', external: true }));
        },
      },
    ],
  },
  { ...common, entry: { [ROOT_MODULE]: 'runtime/index.ts' }, format: ['esm', 'cjs'], dts: { only: true } },
  // Required by index.cjs (see above).
  { ...common, entry: { 'payload-errors': 'runtime/internal/payload-errors.ts' }, format: ['cjs'] },
  // Each entry imports its event's validator module, the one file in dist/validators that the
  // registry loads too (the same relative path from dist/events/<type>/<version>.js as from
  // generated/events/<type>/<version>.ts): every validator ships once.
  // (CommonJS entries are three lines each, written by build-package.ts: bundled, each carried
  // esbuild's ES-module interop, about six times the size of the call it wraps.)
  { ...common, entry: eventEntries, format: ['esm'], minifyWhitespace: false, esbuildPlugins: [entriesShareCode] },
  // Shared by every event entry, and re-exported by `create-event-validator` (see build-package.ts).
  { ...common, entry: { [ENTRIES_MODULE]: 'runtime/entries/index.ts' }, format: ['esm', 'cjs'] },
  { ...common, entry: ADAPTER_ENTRIES, format: ['esm', 'cjs'], esbuildPlugins: [adaptersUseRoot] },
  { ...common, entry: ADAPTER_ENTRIES, format: ['esm', 'cjs'], dts: { only: true }, external: [/^\.\.\/index\.js$/] },
  // Not minified either: the entry inlines its CommonJS validator module (see above).
  // The REST validators stay one file (rest-validators.cjs, written by build-package.ts) that the ES module and the CommonJS entry both load.
  { ...common, entry: { rest: 'runtime/rest/index.ts' }, format: ['esm', 'cjs'], dts: true, esbuildPlugins: [restValidatorsStayAFile] },
  // Node only: one implementation, CommonJS; its ES module entry re-exports it (written by build-package.ts), as the root's does.
  { ...common, entry: EMULATOR_ENTRY, format: ['cjs'], esbuildPlugins: [emulatorUsesEntries] },
  { ...common, entry: EMULATOR_ENTRY, format: ['esm', 'cjs'], dts: { only: true }, external: [/^\.\.\/index\.js$/, /^\.\.\/rest\/index\.js$/] },
  {
    ...common,
    entry: { cli: 'runtime/cli/main.ts' },
    format: ['esm'],
    esbuildPlugins: [
      {
        name: 'cli-uses-root',
        setup(build) {
          build.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: './index.js', external: true }));
          // The dead-letters command loads a broker adapter (and so its client) only when run;
          // emulate imports the emulator entry.
          build.onResolve({ filter: /^\.\.\/(nats|redis-streams|emulator)\/index\.js$/ }, (args) => ({ path: `./${args.path.split('/')[1]}.js`, external: true }));
        },
      },
    ],
  },
]);
