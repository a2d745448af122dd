/**
 * The browsable catalog (`npm run site` → `site/`): static HTML from the same model as
 * `generated/`, a stylesheet, a search over event types and field names (MiniSearch), and
 * live validators that are the package's own code bundled for the browser by esbuild: the
 * home page's is `decodeEvent` over the whole catalog, each event page's only that event's
 * entry (`generated/events/<type>/<version>.ts`). Every example shown is checked by the same
 * validators first: a refused one stops the build. Scripts are classic (not modules) and data
 * is inlined, so the site works from `file://` as from any static host.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { validateEvent } from '../../runtime/validate-event.js';
import { validateRequest, validateResponse } from '../../runtime/rest/validate.js';
import { retriesNetworkError, retriesStatus } from '../../runtime/rest/retry.js';
import { fullPayload } from '../../scripts/samples/payload-samples.js';
import { reachableSharedTypes } from '../common/shared-types.js';
import { versionHistory, type VersionStep } from '../compat/diff.js';
import { snapshotFromModel } from '../compat/snapshot.js';
import type { EmittedFile } from '../emit/emitted-file.js';
import type { ApiModel, ApiTypeRef, CatalogModel, EventVersionModel, ObjectTypeModel } from '../model.js';
import { paths, renderPage, type Page } from './html.js';
import { eventPage, homePage, operationPage, sharedTypePage, type SiteContext } from './pages.js';

export const SITE_DIR = 'site';

/** The script of an event page's validator, from the site's root. */
const eventScript = (event: EventVersionModel): string => paths.asset(`events/${event.type}/${event.version}.js`);

export interface SiteBuild {
  files: EmittedFile[];
  pages: number;
}

/** Builds every file of the site in memory; `root` is the repository (its runtime and generated code are bundled). */
export async function buildSite(model: CatalogModel, root: string): Promise<SiteBuild> {
  // The shared types each event version reaches, walked once: "used by" and the search both read them.
  const reached = new Map(model.events.map((event) => [event, reachableSharedTypes(model.sharedTypes, event.fields)] as const));
  const ctx: SiteContext = {
    model,
    history: historyByType(model),
    examples: checkedExamples(model),
    usedBy: usedBy(reached),
    retries: { status: retriesStatus, networkError: retriesNetworkError },
    eventScript,
  };
  const pages: Page[] = [
    homePage(ctx),
    ...model.events.map((event) => eventPage(ctx, event)),
    ...model.sharedTypes.map((type) => sharedTypePage(ctx, type)),
    ...(model.api ? model.api.operations.map((op) => operationPage(ctx, op, operationExample(model.api!, op.operationId))) : []),
  ];
  const files: EmittedFile[] = [
    ...pages.map((page) => ({ path: page.path, contents: renderPage(page) })),
    { path: paths.asset('site.css'), contents: readFileSync(join(root, 'generator/site/browser/site.css'), 'utf8') },
    { path: paths.asset('search-index.js'), contents: `window.SEARCH_DOCUMENTS = ${JSON.stringify(searchDocuments(reached))};\n` },
    ...(await bundleScripts(model, root)),
  ];
  return { files, pages: pages.length };
}

function historyByType(model: CatalogModel): Map<string, VersionStep[]> {
  const history = new Map<string, VersionStep[]>();
  for (const step of versionHistory(snapshotFromModel(model))) history.set(step.type, [...(history.get(step.type) ?? []), step]);
  return history;
}

/** A full example message of every event version, each accepted by `validateEvent` (strict) or the build stops. */
function checkedExamples(model: CatalogModel): Map<string, unknown> {
  const examples = new Map<string, unknown>();
  for (const event of model.events) {
    const message = { type: event.type, version: event.version, payload: fullPayload(model, event) };
    const verdict = validateEvent(message, { mode: 'strict' });
    if (!verdict.ok) throw new Error(`site: the example message of ${event.key} is refused by its validator: ${verdict.error.message}`);
    examples.set(event.key, message);
  }
  return examples;
}

type ReachedTypes = ReadonlyMap<EventVersionModel, readonly ObjectTypeModel[]>;

function usedBy(reached: ReachedTypes): Map<string, EventVersionModel[]> {
  const users = new Map<string, EventVersionModel[]>();
  for (const [event, types] of reached) {
    for (const type of types) users.set(type.name, [...(users.get(type.name) ?? []), event]);
  }
  return users;
}

/** What the search finds an event version by: its type (whole and at its dots) and every field name it carries, at any depth. */
function searchDocuments(reached: ReachedTypes) {
  return [...reached].map(([event, types]) => {
    const fields = new Set([...event.fields, ...types.flatMap((t) => t.fields)].map((f) => f.name));
    return {
      id: event.key,
      title: `${event.type} ${event.version}`,
      type: [event.type, ...event.type.split(/[._]/)].join(' '),
      fields: [...fields].join(' '),
      url: paths.event(event.type, event.version),
    };
  });
}

// ---------------------------------------------------------------------------------------
// REST examples
// ---------------------------------------------------------------------------------------

/** A value of an API type: every field, one array item, the first listed value or example. */
function apiExample(api: ApiModel, type: ApiTypeRef, seen: readonly string[] = []): unknown {
  switch (type.kind) {
    case 'primitive':
      return type.name === 'string' ? 'text' : type.name === 'boolean' ? true : type.name === 'integer' ? 1 : 12.5;
    case 'format':
      return type.name === 'date' ? '2024-02-29' : type.name === 'datetime' ? '2024-02-29T13:45:00Z' : '125.50';
    case 'array':
      return [apiExample(api, type.items, seen)];
    case 'named': {
      const object = api.types.find((t) => t.name === type.name)!;
      if (seen.includes(type.name)) return {};
      return Object.fromEntries(
        object.fields.map((f) => [f.name, f.enum ? f.enum[0] : f.examples && f.type.kind === 'primitive' && f.type.name === 'string' ? f.examples[0] : apiExample(api, f.type, [...seen, type.name])]),
      );
    }
  }
}

/** An example request body and first successful response of an operation, each accepted by the package's validators or the build stops. */
function operationExample(api: ApiModel, operationId: string): { request?: unknown; response?: { status: number; body: unknown } } {
  const op = api.operations.find((o) => o.operationId === operationId)!;
  const params = Object.fromEntries(op.params.map((p) => [p.name, 'ACME']));
  const request = op.request ? apiExample(api, op.request) : undefined;
  const requestVerdict = validateRequest(operationId, { ...(op.params.length > 0 && { params }), ...(request !== undefined && { body: request }) });
  if (!requestVerdict.ok) throw new Error(`site: the example request of ${operationId} is refused: ${requestVerdict.error.message}`);
  const success = op.responses.find((r) => r.status < 300 && (r.json?.length ?? 0) > 0);
  if (!success) return { request };
  const body = apiExample(api, success.json![0]!);
  const responseVerdict = validateResponse(operationId, success.status, body);
  if (!responseVerdict.ok) throw new Error(`site: the example response of ${operationId} is refused: ${responseVerdict.error.message}`);
  return { request, response: { status: success.status, body } };
}

// ---------------------------------------------------------------------------------------
// Scripts
// ---------------------------------------------------------------------------------------

/** Each page's scripts, bundled by esbuild as classic scripts: the validators, the search, the validator box. */
async function bundleScripts(model: CatalogModel, root: string): Promise<EmittedFile[]> {
  const entries = mkdtempSync(join(tmpdir(), 'site-entries-'));
  try {
    const entryPoints: Record<string, string> = {};
    const entry = (name: string, code: string): void => {
      const file = join(entries, `${Object.keys(entryPoints).length}.ts`);
      writeFileSync(file, code);
      entryPoints[name] = file;
    };
    const from = (path: string) => JSON.stringify(join(root, path));
    entry('catalog-validator', `import { decodeEvent } from ${from('runtime/decode-event.ts')};\nwindow.catalogValidate = (text) => decodeEvent(text);\n`);
    for (const event of model.events) {
      // The entry exports one validator; a text that is not JSON is refused as decodeEvent refuses it (the same reading), without the whole catalog.
      entry(
        `events/${event.type}/${event.version}`,
        `import * as entry from ${from(`generated/events/${event.type}/${event.version}.ts`)};\n` +
          `import { parseMessageText } from ${from('runtime/internal/message-text.ts')};\n` +
          `const validator = Object.values(entry).find((v) => typeof v === 'object' && v !== null && 'validate' in v);\n` +
          `window.catalogValidate = (text) => {\n  const read = parseMessageText(text);\n  return read.ok ? validator.validate(read.message) : read;\n};\n`,
      );
    }
    entryPoints['search'] = join(root, 'generator/site/browser/search.ts');
    entryPoints['validate-box'] = join(root, 'generator/site/browser/validate-box.ts');
    const result = await build({
      entryPoints,
      outdir: join(entries, 'out'),
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      legalComments: 'none',
      logLevel: 'silent',
    });
    const outDir = join(entries, 'out');
    return result.outputFiles.map((file) => ({ path: paths.asset(file.path.slice(outDir.length + 1)), contents: file.text }));
  } finally {
    rmSync(entries, { recursive: true, force: true });
  }
}
