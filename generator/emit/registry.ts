import type { Project } from 'ts-morph';
import type { CatalogModel } from '../model.js';
import { codeBanner } from './banner.js';
import type { EmittedFile } from './emitted-file.js';
import { printModule } from './ts-project.js';
import { validatorPaths } from './validator-paths.js';

/**
 * `registry.cjs` (+ `.d.cts`): what the runtime dispatches on. Type → version → a loader
 * that `require`s that event's validator module the first time it is called, then keeps it:
 * importing the package parses no validator code, and two `Map` lookups reach any event.
 * The `require` paths are string literals, so bundlers still find every module.
 * Also the public `eventCatalog` list.
 */
export function emitRegistry(model: CatalogModel, project: Project): EmittedFile[] {
  const byType = new Map<string, string[]>();
  for (const event of model.events) {
    const loader = `[${JSON.stringify(event.version)}, lazy(() => require(${JSON.stringify(`./${validatorPaths.module(event)}`)}))]`;
    byType.set(event.type, [...(byType.get(event.type) ?? []), loader]);
  }
  const banner = codeBanner(model.sourceFiles);

  const module = printModule(project, 'registry.cjs', banner, {
    statements: [
      "'use strict';",
      '/** Loads a module on first call, then returns the same one. */',
      'function lazy(load) {\n  let loaded;\n  return () => (loaded ??= load());\n}',
      '/** Compiled validators by event type, then version: two `Map` lookups, safe for any string a message carries. */',
      (writer) => {
        writer.write('exports.compiledEvents = new Map([').newLine();
        writer.indent(() => {
          for (const [type, loaders] of byType) writer.write(`[${JSON.stringify(type)}, new Map([${loaders.join(', ')}])],`).newLine();
        });
        writer.write(']);');
      },
      '/** Every event version in the catalog, in catalog order. */',
      (writer) => {
        writer.write('exports.eventCatalog = Object.freeze([').newLine();
        writer.indent(() => {
          for (const e of model.events) {
            writer.write(`Object.freeze({ type: ${JSON.stringify(e.type)}, version: ${JSON.stringify(e.version)}, name: ${JSON.stringify(e.name)}, open: ${e.open !== false} }),`).newLine();
          }
        });
        writer.write(']);');
      },
    ],
  });

  const declarations = `${banner}import type { CompiledEventModule } from '../runtime/compiled-validator.js' with { 'resolution-mode': 'import' };

/** Compiled validators by event type, then version; each loads its module on first call. */
export declare const compiledEvents: ReadonlyMap<string, ReadonlyMap<string, () => CompiledEventModule>>;
/** Every event version in the catalog, in catalog order. */
export declare const eventCatalog: readonly { readonly type: string; readonly version: string; readonly name: string; readonly open: boolean }[];
`;
  return [
    { path: 'registry.cjs', contents: module },
    { path: 'registry.d.cts', contents: declarations },
  ];
}
