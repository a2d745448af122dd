import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import { codeBanner, eventSources } from '../common/banner.js';
import { schemaIds } from '../common/schema-ids.js';
import { eventTypeName, payloadTypeName } from '../common/ts-names.js';
import type { CatalogModel, EventVersionModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { printModule } from './ts-project.js';
import { validatorPaths } from './validator-paths.js';
import { RUNTIME_IMPORTS } from '../common/runtime-imports.js';

/** `events/<type>/<version>.ts`, relative to `generated/`: one importable entry per event version. */
export const eventEntryPath = (event: EventVersionModel): string => `events/${event.type}/${event.version}.ts`;

/** The entry's named export: `account.created` v1 → `accountCreatedV1`. */
export const eventValidatorName = (event: Pick<EventVersionModel, 'tsName'>): string => event.tsName[0]!.toLowerCase() + event.tsName.slice(1);

/**
 * One module per event version wrapping its compiled validators as an `EventValidator`
 * (Standard Schema v1). It imports only that event's validators, so bundling it pulls in
 * no other event.
 */
export function emitEventEntries(model: CatalogModel): EmittedFile[] {
  return model.events.map((event) => {
    const path = eventEntryPath(event);
    const name = eventValidatorName(event);
    const eventType = eventTypeName(event);
    const contents = printModule(codeBanner(eventSources(model, event)), {
      statements: [
        { kind: StructureKind.ImportDeclaration, moduleSpecifier: RUNTIME_IMPORTS.eventEntry, namedImports: ['defineEventValidator'] },
        { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: '../../types.js', namedImports: [eventType] },
        { kind: StructureKind.ImportDeclaration, moduleSpecifier: `../../${validatorPaths.module(event)}`, namespaceImport: 'compiled' },
        {
          kind: StructureKind.VariableStatement,
          isExported: true,
          declarationKind: VariableDeclarationKind.Const,
          docs: [`Validator of \`${event.type}\` ${event.version} messages (Standard Schema v1).${event.open ? ' Open: unlisted payload properties are accepted in every mode.' : ''}`],
          declarations: [
            {
              name,
              initializer: `/*#__PURE__*/ defineEventValidator<${eventType}>(${JSON.stringify(event.type)}, ${JSON.stringify(event.version)}, ${event.open !== false}, ${JSON.stringify(schemaIds.message(event))}, compiled)`,
            },
          ],
        },
        {
          kind: StructureKind.ExportDeclaration,
          isTypeOnly: true,
          moduleSpecifier: '../../types.js',
          namedExports: [
            { name: eventType, alias: 'Event' },
            { name: payloadTypeName(event), alias: 'Payload' },
          ],
        },
      ],
    });
    return { path, contents };
  });
}
