/**
 * Reads what the package publishes, and nothing else: the manifest and the page model
 * (`generated/docs/pages.json`), the OpenAPI document and the built package's validators
 * (`dist/`). The site is rendered from these and its examples are checked by these, so a page
 * and the checks behind it cannot come from two different generations: `dist/` must have been
 * built from the `generated/` beside it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PUBLISHED_PAGES_PATH, type PageModel } from '../runtime/contract/page-model.js';
import type { Manifest, OpenApiDocument, PackageValidators } from './published.js';
import { readPages } from './read-pages.js';

export interface PublishedPackage {
  /** The repository: `generated/` is read from it. */
  root: string;
  /** The built package (`dist/` unless told otherwise). */
  dist: string;
  manifest: Manifest;
  /** What the pages show, the Markdown reference's model too: `generated/docs/pages.json` with the manifest. */
  pages: PageModel;
  openapi: OpenApiDocument;
  validators: PackageValidators;
  /** The name an event's own entry (`<package>/events/<type>/<version>`) exports its validator as, from its published declarations. */
  entryExport(event: { type: string; version: string }): string;
}

/** A published file that is missing or not what the site can read. */
export class PublishedFileError extends Error {
  override name = 'PublishedFileError';
}

function readText(root: string, path: string, hint: string): string {
  const file = join(root, path);
  if (!existsSync(file)) throw new PublishedFileError(`${path} not found: ${hint}`);
  return readFileSync(file, 'utf8');
}

/** Fails with the JSON Pointer of the first key that is not the kind the site reads. */
function checkManifest(value: unknown): Manifest {
  const fail = (pointer: string, expected: string): never => {
    throw new PublishedFileError(`generated/manifest.json${pointer}: expected ${expected}`);
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const list = (owner: Record<string, unknown>, key: string, pointer: string): unknown[] => {
    const items = owner[key];
    return Array.isArray(items) ? items : fail(`${pointer}/${key}`, 'an array');
  };
  const text = (owner: Record<string, unknown>, key: string, pointer: string): void => {
    if (typeof owner[key] !== 'string') fail(`${pointer}/${key}`, 'a string');
  };
  const fields = (owner: Record<string, unknown>, pointer: string): void => {
    list(owner, 'fields', pointer).forEach((field, i) => {
      const at = `${pointer}/fields/${i}`;
      if (!isObject(field)) return fail(at, 'an object');
      text(field, 'name', at);
      text(field, 'type', at);
      if (typeof field.optional !== 'boolean') fail(`${at}/optional`, 'a boolean');
    });
  };
  if (!isObject(value)) return fail('', 'an object');
  list(value, 'events', '').forEach((event, i) => {
    if (!isObject(event)) return fail(`/events/${i}`, 'an object');
    for (const key of ['type', 'version', 'name', 'tsName', 'schema', 'payloadSchema', 'section']) text(event, key, `/events/${i}`);
    list(event, 'sources', `/events/${i}`);
    fields(event, `/events/${i}`);
  });
  list(value, 'sharedTypes', '').forEach((type, i) => {
    if (!isObject(type)) return fail(`/sharedTypes/${i}`, 'an object');
    for (const key of ['name', 'tsName', 'schema', 'section']) text(type, key, `/sharedTypes/${i}`);
    fields(type, `/sharedTypes/${i}`);
  });
  list(value, 'gaps', '');
  return value as unknown as Manifest;
}

/** Reads the published artifacts; `dist` is the built package, checked to come from the same generation as `root/generated/`. */
export function readPackage(root: string, dist = join(root, 'dist')): PublishedPackage {
  const distName = relative(root, dist) || '.';
  const build = `run npm run build (the site bundles the built package's validators from ${distName}/)`;
  const manifest = checkManifest(JSON.parse(readText(root, 'generated/manifest.json', 'run npm run generate')));
  const pages = readPages(manifest, JSON.parse(readText(root, `generated/${PUBLISHED_PAGES_PATH}`, 'run npm run generate')));
  const openapi = parseYaml(readText(root, 'generated/openapi.yaml', 'run npm run generate')) as OpenApiDocument;
  const registry = readText(root, 'generated/registry.cjs', 'run npm run generate');
  if (readText(dist, 'registry.cjs', build) !== registry) {
    throw new PublishedFileError(`${distName}/ was built from another generation than generated/ (its registry.cjs differs): ${build}`);
  }
  const load = createRequire(join(dist, 'index.cjs'));
  const rootEntry = load(join(dist, 'index.cjs')) as Pick<PackageValidators, 'validateEvent'>;
  const rest = load(join(dist, 'rest.cjs')) as Pick<PackageValidators, 'validateRequest' | 'validateResponse'>;
  return {
    root,
    dist,
    manifest,
    pages,
    openapi,
    validators: { validateEvent: rootEntry.validateEvent, validateRequest: rest.validateRequest, validateResponse: rest.validateResponse },
    entryExport: (event) => {
      const declarations = readText(dist, `events/${event.type}/${event.version}.d.ts`, build);
      const name = /export declare const (\w+): EventValidator</.exec(declarations)?.[1];
      if (!name) throw new PublishedFileError(`${distName}/events/${event.type}/${event.version}.d.ts declares no EventValidator`);
      return name;
    },
  };
}
