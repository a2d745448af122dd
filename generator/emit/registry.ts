import { StructureKind, VariableDeclarationKind, type Project } from 'ts-morph';
import type { CatalogModel } from '../model.js';
import { codeBanner } from './banner.js';
import type { EmittedFile } from './emitted-file.js';
import { printModule } from './ts-project.js';

/** Module path of an event's compiled validators, relative to `generated/`. */
export const validatorModulePath = (type: string, version: string): string => `validators/${type}/${version}.js`;

/**
 * `registry.ts`: what the runtime dispatches on: type → version → compiled validators,
 * plus the public `eventCatalog` list. Two plain object lookups reach any validator.
 */
export function emitRegistry(model: CatalogModel, project: Project): EmittedFile {
  const importName = (i: number): string => `event${i}`;
  const byType = new Map<string, [string, string][]>();
  model.events.forEach((event, i) => {
    byType.set(event.type, [...(byType.get(event.type) ?? []), [event.version, importName(i)]]);
  });

  const contents = printModule(project, 'registry.ts', codeBanner(model.sourceFiles), {
    statements: [
      { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: '../runtime/compiled-validator.js', namedImports: ['CompiledEventModule'] },
      ...model.events.map((event, i) => ({
        kind: StructureKind.ImportDeclaration as const,
        moduleSpecifier: `./${validatorModulePath(event.type, event.version)}`,
        namespaceImport: importName(i),
      })),
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ['Compiled validators by event type, then version: two `Map` lookups, safe for any string a message carries.'],
        declarations: [
          {
            name: 'compiledEvents',
            type: 'ReadonlyMap<string, ReadonlyMap<string, CompiledEventModule>>',
            initializer: (writer) => {
              writer.write('new Map([').newLine();
              writer.indent(() => {
                for (const [type, versions] of byType) {
                  writer.write(`[${JSON.stringify(type)}, new Map([${versions.map(([v, name]) => `[${JSON.stringify(v)}, ${name}]`).join(', ')}])],`).newLine();
                }
              });
              writer.write('])');
            },
          },
        ],
      },
      {
        kind: StructureKind.VariableStatement,
        isExported: true,
        declarationKind: VariableDeclarationKind.Const,
        docs: ['Every event version in the catalog, in catalog order.'],
        declarations: [
          {
            name: 'eventCatalog',
            type: 'readonly { readonly type: string; readonly version: string; readonly name: string; readonly open: boolean }[]',
            initializer: (writer) => {
              writer.write('[').newLine();
              writer.indent(() => {
                for (const e of model.events) {
                  writer.write(`{ type: ${JSON.stringify(e.type)}, version: ${JSON.stringify(e.version)}, name: ${JSON.stringify(e.name)}, open: ${e.open !== false} },`).newLine();
                }
              });
              writer.write(']');
            },
          },
        ],
      },
    ],
  });
  return { path: 'registry.ts', contents };
}
