/**
 * What the package build makes of runtime/, by file name in dist/: shared by tsup.config.ts,
 * which builds these files, and build-package.ts, which writes the files that import them.
 */
export type ModuleFormat = 'esm' | 'cjs';

const extension = (format: ModuleFormat): string => (format === 'cjs' ? 'cjs' : 'js');

/** The package root (`runtime/index.ts`), from a file directly in dist/. */
export const rootModule = (format: ModuleFormat): string => `./index.${extension(format)}`;

/** The code every event entry shares (`runtime/entries/index.ts`): `defineEventValidator` and `createEventValidator`. */
export const ENTRIES_MODULE = 'entries';

/** The shared entries module, from a file directly in dist/. */
export const entriesModule = (format: ModuleFormat): string => `./${ENTRIES_MODULE}.${extension(format)}`;

/** The shared entries module, from an event entry (`dist/events/<type>/<version>.js`). */
export const entriesModuleFromEvent = (format: ModuleFormat): string => `../../${ENTRIES_MODULE}.${extension(format)}`;

/** The package root, from an event entry. */
export const rootModuleFromEvent = (format: ModuleFormat): string => `../../index.${extension(format)}`;

/** The broker adapters, each an entry of its own that imports the root (`<package>/nats`, `<package>/redis-streams`). */
export const ADAPTER_ENTRIES = { nats: 'runtime/nats/index.ts', 'redis-streams': 'runtime/redis-streams/index.ts' } as const;
