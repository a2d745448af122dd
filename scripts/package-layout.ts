/**
 * What the package build makes of runtime/, by file name in dist/: shared by tsup.config.ts,
 * which builds these files, and build-package.ts, which writes the files that import them.
 */
export type ModuleFormat = 'esm' | 'cjs';

/** The package root (`runtime/index.ts`). */
export const ROOT_MODULE = 'index';

/** The REST API's validators (`generated/api/validators.cjs`, minified): one file, loaded by the REST entry in both formats. */
export const REST_VALIDATORS_MODULE = 'rest-validators';

/** The code every event entry shares (`runtime/entries/index.ts`): `defineEventValidator` and `createEventValidator`. */
export const ENTRIES_MODULE = 'entries';

/** The broker adapters, each an entry of its own that imports the root (`<package>/nats`, `<package>/redis-streams`). */
export const ADAPTER_ENTRIES = { nats: 'runtime/nats/index.ts', 'redis-streams': 'runtime/redis-streams/index.ts' } as const;

/** The contract emulator (`<package>/emulator`, Node only), which imports the root, the REST entry and, when asked, an adapter: never a copy of them. */
export const EMULATOR_ENTRY = { emulator: 'runtime/emulator/index.ts' } as const;

/** A module directly in dist/, as a file imports it from dist/ itself or from an event entry (`dist/events/<type>/<version>.*`). */
export const distImport = (module: string, format: ModuleFormat, from: 'dist' | 'event' = 'dist'): string =>
  `${from === 'event' ? '../../' : './'}${module}.${format === 'cjs' ? 'cjs' : 'js'}`;

/** esbuild's `format` option, as one of ours. */
export const formatOf = (format: string | undefined): ModuleFormat => (format === 'cjs' ? 'cjs' : 'esm');
