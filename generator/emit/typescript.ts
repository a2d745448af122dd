import { StructureKind, type CodeBlockWriter, type StatementStructures, type WriterFunction } from 'ts-morph';
import { codeBanner } from '../common/banner.js';
import { inlineCode } from '../common/text.js';
import { eventTypeName, MODULE_TYPE_NAMES as NAMES, payloadTypeName } from '../common/ts-names.js';
import type { CatalogModel, EventVersionModel, SharedTypeModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { declareInterfaces, interfaceSchema, typeScriptDialect } from './ts-declarations.js';
import { printModule, propertyName, stringLiteral } from './ts-project.js';

/**
 * `types.ts`: an interface per shared type and per payload, an envelope interface per event,
 * the `CatalogEvent` union and the lookup types, assembled by ts-morph from one structure and
 * printed once. The payload and shared-type interfaces are declared the one way the model's
 * types are (`ts-declarations.ts`, as the REST API's are in `api-types.ts`), shared types
 * referenced by their TypeScript names.
 */

function sharedTypeDoc(shared: SharedTypeModel): string {
  const lines = [`Shared object type ${inlineCode(shared.name)}.`];
  if (shared.description) lines.push('', shared.description);
  lines.push('');
  if (shared.usedBy.length === 0) lines.push('Used by no event shown in the catalog.');
  else lines.push('Used by:', ...shared.usedBy.map((key) => `- ${inlineCode(key)}`));
  return lines.join('\n');
}

function payloadDoc(event: EventVersionModel): string {
  const lines = [`Payload of ${inlineCode(event.type)} ${event.version} (catalog name ${inlineCode(event.name)}).`];
  if (event.description) lines.push('', event.description);
  if (event.extends.length > 0) lines.push('', `Fields reused from: ${event.extends.map(inlineCode).join(', ')}.`);
  if (event.open) {
    lines.push('', `Open: the catalog does not show every field (seed: "${event.open.seed}"), so unlisted properties are accepted.`);
  }
  return lines.join('\n');
}

/** `{ v1: AccountCreatedV1Event; v2: … }`, one line per event type. */
function versionMap(events: readonly EventVersionModel[]): string {
  return `{ ${events.map((e) => `${propertyName(e.version)}: ${eventTypeName(e)}`).join('; ')} }`;
}

/** `CatalogEvent` as one member per line. */
const unionWriter =
  (names: readonly string[]): WriterFunction =>
  (writer: CodeBlockWriter) => {
    writer.write(`export type ${NAMES.union} =`);
    writer.indent(() => {
      names.forEach((name, i) => writer.conditionalNewLine(i > 0).write(`| ${name}${i === names.length - 1 ? ';' : ''}`));
    });
  };

export async function emitTypes(model: CatalogModel): Promise<EmittedFile[]> {
  const tsNames = new Map(model.sharedTypes.map((t) => [t.name, t.tsName]));
  const dialect = typeScriptDialect((sharedType) => tsNames.get(sharedType)!); // the loader has resolved every reference

  const declarations = await declareInterfaces([
    ...model.sharedTypes.map((shared) => ({ name: shared.tsName, schema: interfaceSchema(shared.fields, false, sharedTypeDoc(shared), dialect) })),
    ...model.events.map((event) => ({ name: payloadTypeName(event), schema: interfaceSchema(event.fields, event.open !== false, payloadDoc(event), dialect) })),
  ]);
  const sharedDecls = declarations.slice(0, model.sharedTypes.length);
  const payloadDecls = declarations.slice(model.sharedTypes.length);

  const byType = new Map<string, EventVersionModel[]>();
  for (const event of model.events) byType.set(event.type, [...(byType.get(event.type) ?? []), event]);

  const statements: (string | WriterFunction | StatementStructures)[] = [
    ...sharedDecls,
    ...model.events.flatMap((event, i): (string | StatementStructures)[] => [
      payloadDecls[i]!,
      {
        kind: StructureKind.Interface,
        isExported: true,
        name: eventTypeName(event),
        docs: [`The ${inlineCode(event.type)} ${event.version} message: the envelope around {@link ${payloadTypeName(event)}}.`],
        properties: [
          { name: 'type', type: stringLiteral(event.type) },
          { name: 'version', type: stringLiteral(event.version) },
          { name: 'payload', type: payloadTypeName(event) },
        ],
      },
    ]),
    (writer) => {
      writer.writeLine('/** Every event version in the catalog, discriminated by `type`, then `version`. */');
      unionWriter(model.events.map(eventTypeName))(writer);
    },
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: NAMES.byType,
      docs: ['Events by type, then version: two cheap lookups reach any event.'],
      properties: [...byType].map(([type, events]) => ({ name: stringLiteral(type), type: versionMap(events) })),
    },
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: NAMES.byKey,
      docs: ['Events by `type@version` key.'],
      properties: model.events.map((event) => ({ name: stringLiteral(event.key), type: eventTypeName(event) })),
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: NAMES.eventType,
      docs: ['Every event type in the catalog.'],
      type: `keyof ${NAMES.byType}`,
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: NAMES.eventVersion,
      docs: ['The versions the catalog shows for one event type.'],
      typeParameters: [{ name: 'T', constraint: NAMES.eventType }],
      type: `keyof ${NAMES.byType}[T] & string`,
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: NAMES.eventOf,
      docs: ['The message of one event type and version.'],
      typeParameters: [
        { name: 'T', constraint: NAMES.eventType },
        { name: 'V', constraint: `${NAMES.eventVersion}<T>` },
      ],
      type: `${NAMES.byType}[T][V]`,
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: NAMES.payloadOf,
      docs: ['The payload of one event type and version.'],
      typeParameters: [
        { name: 'T', constraint: NAMES.eventType },
        { name: 'V', constraint: `${NAMES.eventVersion}<T>` },
      ],
      // Not `EventOf<T, V>['payload']`: for generic T and V the checker cannot see that every
      // `EventsByType[T][V]` has a payload (TS2536), so the payload is inferred instead.
      type: `${NAMES.eventOf}<T, V> extends { payload: infer P } ? P : never`,
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: NAMES.eventKey,
      docs: ['Every `type@version` key in the catalog.'],
      type: `keyof ${NAMES.byKey}`,
    },
  ];

  const contents = printModule(codeBanner(model.sourceFiles), { statements });
  return [{ path: 'types.ts', contents }];
}
