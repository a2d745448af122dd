import { codeBanner } from '../common/banner.js';
import { schemaIds } from '../common/schema-ids.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { validatorPaths } from './validator-paths.js';

/**
 * `registry.cjs` (+ `.d.cts`), plain CommonJS text: what the runtime dispatches on. Type →
 * version → a loader that `require`s that event's validator module the first time it is
 * called, then keeps it: importing the package parses no validator code, and two `Map`
 * lookups reach any event. The `require` paths are string literals, so bundlers still find
 * every module. Also the public `eventCatalog` list, and `messageSchemaId`, the one place the
 * runtime learns how message schemas are named.
 */
export function emitRegistry(model: CatalogModel): EmittedFile[] {
  const byType = new Map<string, string[]>();
  for (const event of model.events) {
    const loader = `[${JSON.stringify(event.version)}, lazy(() => require(${JSON.stringify(`./${validatorPaths.module(event)}`)}))]`;
    byType.set(event.type, [...(byType.get(event.type) ?? []), loader]);
  }
  const banner = codeBanner(model.sourceFiles);
  const catalogEntry = (e: CatalogModel['events'][number]): string =>
    `Object.freeze({ type: ${JSON.stringify(e.type)}, version: ${JSON.stringify(e.version)}, name: ${JSON.stringify(e.name)}, open: ${e.open !== false} }),`;

  const module = [
    "'use strict';",
    '/** Loads a module on first call, then returns the same one. */',
    'function lazy(load) {\n  let loaded;\n  return () => (loaded ??= load());\n}',
    '',
    '/** Compiled validators by event type, then version: two `Map` lookups, safe for any string a message carries. */',
    'exports.compiledEvents = new Map([',
    ...[...byType].map(([type, loaders]) => `  [${JSON.stringify(type)}, new Map([${loaders.join(', ')}])],`),
    ']);',
    '/** Every event version in the catalog, in catalog order. */',
    'exports.eventCatalog = Object.freeze([',
    ...model.events.map((e) => `  ${catalogEntry(e)}`),
    ']);',
    '/** The `$id` of an event version\'s message schema (`schemas/events/<type>/<version>/message.schema.json`). */',
    `exports.messageSchemaId = function messageSchemaId(type, version) {\n  return ${messageSchemaIdExpression('type', 'version')};\n};`,
  ];

  const declarations = `${banner}import type { CompiledEventModule } from '../runtime/compiled-validator.js' with { 'resolution-mode': 'import' };

/** Compiled validators by event type, then version; each loads its module on first call. */
export declare const compiledEvents: ReadonlyMap<string, ReadonlyMap<string, () => CompiledEventModule>>;
/** Every event version in the catalog, in catalog order. */
export declare const eventCatalog: readonly { readonly type: string; readonly version: string; readonly name: string; readonly open: boolean }[];
/** The \`$id\` of an event version's message schema (\`schemas/events/<type>/<version>/message.schema.json\`). */
export declare function messageSchemaId(type: string, version: string): string;
`;
  return [
    { path: 'registry.cjs', contents: banner + module.join('\n') + '\n' },
    { path: 'registry.d.cts', contents: declarations },
  ];
}

/** `schemaIds.message` as a JavaScript expression of two variables: built from it, so the two cannot disagree. */
function messageSchemaIdExpression(type: string, version: string): string {
  const [head, middle, tail] = schemaIds.message({ type: '\u0000', version: '\u0000' }).split('\u0000') as [string, string, string];
  return [JSON.stringify(head), type, JSON.stringify(middle), version, JSON.stringify(tail)].filter((part) => part !== '""').join(' + ');
}
