/**
 * Package build (`npm run build`):
 * - the root API as ESM (`index.js`) and CommonJS (`index.cjs`), with bundled declarations;
 * - one entry per event version (`events/<type>/<version>.js|.cjs`), each carrying only its
 *   own validators (declarations for these are written by `write-event-declarations.ts`);
 * - the CLI (`cli.js`), which imports the root bundle rather than carrying a second copy.
 */
import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as { events: { type: string; version: string }[] };
const eventEntries = Object.fromEntries(manifest.events.map((e) => [`events/${e.type}/${e.version}`, `generated/events/${e.type}/${e.version}.ts`]));

const common: Options = {
  outDir: 'dist',
  target: 'node20',
  platform: 'node',
  treeshake: true,
  sourcemap: false,
  splitting: false,
  // Whitespace and syntax only: names stay readable in stack traces.
  minifyWhitespace: true,
  minifySyntax: true,
};

export default defineConfig([
  { ...common, entry: { index: 'runtime/index.ts', ...eventEntries }, format: ['esm', 'cjs'], clean: true },
  { ...common, entry: { index: 'runtime/index.ts' }, format: ['esm', 'cjs'], dts: { only: true } },
  {
    ...common,
    entry: { cli: 'runtime/cli/main.ts' },
    format: ['esm'],
    esbuildPlugins: [
      {
        name: 'cli-uses-root-bundle',
        setup(build) {
          build.onResolve({ filter: /^\.\.\/index\.js$/ }, () => ({ path: './index.js', external: true }));
        },
      },
    ],
  },
]);
