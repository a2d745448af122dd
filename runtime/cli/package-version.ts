import { readFileSync } from 'node:fs';

const PACKAGE_NAME = '@data-import/event-catalog';

/**
 * Where package.json is from the module that asks: `dist/cli.js` (the published bin, one
 * level down) or `runtime/cli/*.ts` (the sources, two levels down).
 */
const PACKAGE_JSON_CANDIDATES = ['../package.json', '../../package.json'];

/** The version in this package's package.json, or `unknown`; `from` is the asking module's URL. */
export function packageVersion(from: string | URL = import.meta.url): string {
  for (const relative of PACKAGE_JSON_CANDIDATES) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, from), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Try the next place the package root may be.
    }
  }
  return 'unknown';
}
