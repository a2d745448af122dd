import { StructureKind, VariableDeclarationKind } from 'ts-morph';
import { codeBanner, eventSources } from '../common/banner.js';
import { schemaIds } from '../common/schema-ids.js';
import { eventTypeName, payloadTypeName } from '../common/ts-names.js';
import type { CatalogModel, EventVersionModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { printModule } from './ts-project.js';
import { validatorPaths } from './validator-paths.js';
import { RUNTIME_IMPORTS } from '../../runtime/contract/runtime-imports.js';

/** `events/<type>/<version>.ts`, relative to `generated/`: one importable entry per event version. */
export const eventEntryPath = (event: Pick<EventVersionModel, 'type' | 'version'>): string => `events/${event.type}/${event.version}.ts`;

/** The entry's named export: `account.created` v1 → `accountCreatedV1`. */
export const eventValidatorName = (event: Pick<EventVersionModel, 'tsName'>): string => event.tsName[0]!.toLowerCase() + event.tsName.slice(1);

/** What an event entry needs to know of its event: a model event, or the same fields of `generated/manifest.json`. */
export type EventEntrySource = Pick<EventVersionModel, 'type' | 'version' | 'tsName'> & { open: boolean; schemaId: string };

/**
 * One event entry, described once: the generated TypeScript entry (`generated/events/…`) and
 * the package build's CommonJS entry and declarations (`scripts/build-package.ts`) are all
 * written from it, so they cannot disagree on a name, a type or `defineEventValidator`'s arguments.
 */
export interface EventEntry {
  /** The validator's export name (`accountCreatedV1`). */
  readonly name: string;
  /** The event's and payload's type names in `generated/types.ts` (and the package root). */
  readonly eventType: string;
  readonly payloadType: string;
  /** The export's declared type, written in terms of the root's types. */
  readonly validatorType: string;
  /** `defineEventValidator`'s arguments before the compiled module, as JavaScript. */
  readonly defineArguments: string;
  /** The event's compiled validator module, relative to the entry (`../../validators/<type>/<version>.cjs`). */
  readonly validatorModule: string;
  /** The export's documentation. */
  readonly doc: string;
}

export function eventEntry(event: EventEntrySource): EventEntry {
  const eventType = eventTypeName(event);
  return {
    name: eventValidatorName(event),
    eventType,
    payloadType: payloadTypeName(event),
    validatorType: `EventValidator<${eventType}>`,
    defineArguments: [event.type, event.version, event.open, event.schemaId].map((argument) => JSON.stringify(argument)).join(', '),
    validatorModule: `../../${validatorPaths.module(event)}`,
    doc: `Validator of \`${event.type}\` ${event.version} messages (Standard Schema v1).${event.open ? ' Open: unlisted payload properties are accepted in every mode.' : ''}`,
  };
}

/**
 * One module per event version wrapping its compiled validators as an `EventValidator`
 * (Standard Schema v1). It imports only that event's validators, so bundling it pulls in
 * no other event.
 */
export function emitEventEntries(model: CatalogModel): EmittedFile[] {
  return model.events.map((event) => {
    const entry = eventEntry({ ...event, open: event.open !== false, schemaId: schemaIds.message(event) });
    const contents = printModule(codeBanner(eventSources(model, event)), {
      statements: [
        { kind: StructureKind.ImportDeclaration, moduleSpecifier: RUNTIME_IMPORTS.eventEntry, namedImports: ['defineEventValidator', { name: 'EventValidator', isTypeOnly: true }] },
        { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: '../../types.js', namedImports: [entry.eventType] },
        { kind: StructureKind.ImportDeclaration, moduleSpecifier: entry.validatorModule, namespaceImport: 'compiled' },
        {
          kind: StructureKind.VariableStatement,
          isExported: true,
          declarationKind: VariableDeclarationKind.Const,
          docs: [entry.doc],
          declarations: [{ name: entry.name, type: entry.validatorType, initializer: `/*#__PURE__*/ defineEventValidator<${entry.eventType}>(${entry.defineArguments}, compiled)` }],
        },
        {
          kind: StructureKind.ExportDeclaration,
          isTypeOnly: true,
          moduleSpecifier: '../../types.js',
          namedExports: [
            { name: entry.eventType, alias: 'Event' },
            { name: entry.payloadType, alias: 'Payload' },
          ],
        },
      ],
    });
    return { path: eventEntryPath(event), contents };
  });
}

/**
 * The package's CommonJS form of an event entry: what the ES module one (bundled from the
 * generated entry) does, as `require`s of the shared entries module and the validator module.
 */
export function eventEntryCommonJs(entry: EventEntry, entriesModule: string): string {
  return (
    "'use strict';\n" +
    `/** ${entry.doc} */\n` +
    `exports.${entry.name} = require(${JSON.stringify(entriesModule)}).defineEventValidator(${entry.defineArguments}, require(${JSON.stringify(entry.validatorModule)}));\n`
  );
}

/** The package's declarations of an event entry, in terms of the root's (`root`: its `index.js` or `index.cjs`). */
export function eventEntryDeclarations(entry: EventEntry, root: string): string {
  return (
    `import type { EventValidator, ${entry.eventType} } from '${root}';\n` +
    `export type { ${entry.eventType} as Event, ${entry.payloadType} as Payload } from '${root}';\n` +
    `/** ${entry.doc} */\n` +
    `export declare const ${entry.name}: ${entry.validatorType};\n`
  );
}
