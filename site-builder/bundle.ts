/**
 * The site's scripts, bundled by esbuild as classic scripts (so pages work from `file://`):
 * the page scripts of `browser/`, and the validators, which are the built package itself
 * (`dist/`): the whole catalog's `decodeEvent` for the validator page, and for each event page
 * only that event's entry. The code every entry shares (`dist/entries.js`) is one script,
 * `event-runtime.js`, which each event's script loads first (in a Web Worker by
 * `importScripts`, on a page as a script before it), as a bundler splitting chunks would.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { ManifestEvent } from './published.js';
import { relativeLink, sitePaths } from './site-paths.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const BROWSER = join(HERE, 'browser');
const RUNTIME = join(HERE, '..', 'runtime');

export interface SiteFile {
  /** From the site's root. */
  path: string;
  contents: string | Uint8Array;
}

/** The global through which event scripts reach the shared event runtime. */
const RUNTIME_GLOBAL = 'siteEventRuntime';

const quoted = (path: string): string => JSON.stringify(path);

const VIRTUAL = 'site-entry:';
/** A virtual module loading the shared runtime, in a worker, from the URL that follows (relative to the event's script). */
const LOADER = 'load-runtime:';
const loaderSource = (url: string): string =>
  `if (!self.${RUNTIME_GLOBAL} && typeof importScripts === 'function') importScripts(new URL(${JSON.stringify(url)}, self.location.href).href);\n`;

/** Virtual modules: the entry code of each validator script, keyed by its output path. */
function validatorSources(dist: string, events: readonly ManifestEvent[]): Map<string, string> {
  const service = quoted(join(BROWSER, 'validation-service.ts'));
  const sources = new Map<string, string>();
  sources.set(
    sitePaths.catalogValidator,
    `import { decodeEvent } from ${quoted(join(dist, 'index.js'))};\nimport { serveValidation } from ${service};\n` +
      `serveValidation((text, strict) => decodeEvent(text, { mode: strict ? 'strict' : 'tolerant' }));\n`,
  );
  // Text that is not JSON is refused as decodeEvent refuses it (the same reading), without the rest of the catalog.
  sources.set(
    sitePaths.eventRuntime,
    `import { defineEventValidator } from ${quoted(join(dist, 'entries.js'))};\nimport { parseMessageText } from ${quoted(join(RUNTIME, 'internal', 'message-text.ts'))};\nimport { serveValidation } from ${service};\n` +
      `self.${RUNTIME_GLOBAL} = {\n  defineEventValidator,\n  serve(validator) {\n    serveValidation((text, strict) => {\n      const read = parseMessageText(text);\n      return read.ok ? validator.validate(read.message, { mode: strict ? 'strict' : 'tolerant' }) : read;\n    });\n  },\n};\n`,
  );
  for (const event of events) {
    const path = sitePaths.eventValidator(event.type, event.version);
    // The loader comes first: imports run in order, and the entry needs the runtime as it loads.
    sources.set(
      path,
      `import ${quoted(`${VIRTUAL}${LOADER}${relativeLink(path, sitePaths.eventRuntime)}`)};\n` +
        `import * as entry from ${quoted(join(dist, 'events', event.type, `${event.version}.js`))};\n` +
        `self.${RUNTIME_GLOBAL}.serve(Object.values(entry).find((v) => typeof v === 'object' && v !== null && 'validate' in v));\n`,
    );
  }
  return sources;
}

/** Resolves the virtual entries, and points each event entry's import of `entries.js` at the shared runtime. */
function sitePlugin(dist: string, sources: ReadonlyMap<string, string>): Plugin {
  const eventsFolder = join(dist, 'events');
  return {
    name: 'site-validators',
    setup(builder) {
      builder.onResolve({ filter: /^site-entry:/ }, (args) => ({ path: args.path.slice(VIRTUAL.length), namespace: 'site-entry' }));
      builder.onLoad({ filter: /.*/, namespace: 'site-entry' }, (args) => ({
        contents: args.path.startsWith(LOADER) ? loaderSource(args.path.slice(LOADER.length)) : sources.get(args.path)!,
        loader: 'js',
        resolveDir: HERE,
      }));
      builder.onResolve({ filter: /\/entries\.js$/ }, (args) => (args.importer.startsWith(eventsFolder) ? { path: 'entries', namespace: 'shared-entries' } : undefined));
      builder.onLoad({ filter: /.*/, namespace: 'shared-entries' }, () => ({ contents: `export const defineEventValidator = (...args) => self.${RUNTIME_GLOBAL}.defineEventValidator(...args);\n`, loader: 'js' }));
    },
  };
}

export async function bundleScripts(dist: string, events: readonly ManifestEvent[]): Promise<SiteFile[]> {
  const sources = validatorSources(dist, events);
  const result = await build({
    entryPoints: [
      ...[...sources.keys()].map((out) => ({ in: `${VIRTUAL}${out}`, out: out.replace(/\.js$/, '') })),
      { in: join(BROWSER, 'site.ts'), out: sitePaths.asset('site') },
      { in: join(BROWSER, 'search.ts'), out: sitePaths.asset('search') },
      { in: join(BROWSER, 'validator-box.ts'), out: sitePaths.asset('validator') },
    ],
    outdir: '/site',
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
    plugins: [sitePlugin(dist, sources)],
  });
  return result.outputFiles.map((file) => ({ path: file.path.slice('/site/'.length), contents: file.text }));
}
