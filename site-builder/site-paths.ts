/**
 * Where each page and file of the site is, from the site's root. Links are relative and name
 * `index.html`, so the site works from `file://` as from any static host. Pure: the browser
 * scripts use it too.
 */
export const sitePaths = {
  home: 'index.html',
  validator: 'validator/index.html',
  event: (type: string, version: string): string => `events/${type}/${version}/index.html`,
  sharedType: (name: string): string => `types/${name}/index.html`,
  operation: (operationId: string): string => `api/${operationId}/index.html`,
  asset: (name: string): string => `assets/${name}`,
  /** A published file, kept at its path in the package (`generated/…`). */
  published: (path: string): string => `package/${path}`,
  /** The validator script of one event version, or of the whole catalog. */
  eventValidator: (type: string, version: string): string => `assets/validators/events/${type}/${version}.js`,
  catalogValidator: 'assets/validators/catalog.js',
  /** What every event's validator script shares (the package's `entries` module), loaded before it. */
  eventRuntime: 'assets/validators/event-runtime.js',
};

/** A link from the page at `from` to the file at `to` (both from the site's root). */
export function relativeLink(from: string, to: string): string {
  const depth = from.split('/').length - 1;
  return `${'../'.repeat(depth)}${to}`;
}
