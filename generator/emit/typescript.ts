import { compile, type JSONSchema, type Options } from 'json-schema-to-typescript';
import { StructureKind, type CodeBlockWriter, type InterfaceDeclarationStructure, type StatementStructures, type WriterFunction } from 'ts-morph';
import { codeBanner } from '../common/banner.js';
import { inlineCode } from '../common/text.js';
import { eventTypeName, MODULE_TYPE_NAMES as NAMES, payloadTypeName } from '../common/ts-names.js';
import type { CatalogModel, EventVersionModel, FieldModel, ObjectTypeModel, TypeRef } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { printModule, propertyName, stringLiteral, statementsOf } from './ts-project.js';

/**
 * `types.ts`: an interface per shared type and per payload, an envelope interface per event,
 * the `CatalogEvent` union and the lookup types, assembled by ts-morph from one structure and
 * printed once. The payload and shared-type interfaces come from json-schema-to-typescript,
 * given a schema built from the model (the REST API's types are `api-types.ts`'s own): shared
 * types are referenced by the model's TypeScript names, and its declaration is read back as a
 * ts-morph structure, so it is laid out like the rest of the module.
 */

/** json-schema-to-typescript renders one declaration; it never formats, resolves or names anything else. */
const JSSTT_OPTIONS: Partial<Options> = {
  bannerComment: '',
  format: false,
  declareExternallyReferenced: false,
  unreachableDefinitions: false,
  additionalProperties: false,
  strictIndexSignatures: false,
  unknownAny: true,
  ignoreMinAndMaxItems: true,
};

/** How `object` fields (content not shown) are typed. */
const OPAQUE_OBJECT = 'Record<string, unknown>';

function typeSchema(type: TypeRef, tsNameOf: (sharedType: string) => string): JSONSchema {
  switch (type.kind) {
    case 'primitive':
      return type.name === 'object' ? { tsType: OPAQUE_OBJECT } : { type: type.name };
    case 'array':
      return { type: 'array', items: typeSchema(type.items, tsNameOf) };
    case 'named':
      return { tsType: tsNameOf(type.name) };
  }
}

function fieldSchema(field: FieldModel, tsNameOf: (sharedType: string) => string): JSONSchema {
  let schema = typeSchema(field.type, tsNameOf);
  if (field.nullable) schema = typeof schema.type === 'string' ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };
  return field.description === undefined ? schema : { description: field.description, ...schema };
}

/** The schema json-schema-to-typescript sees for one interface: its fields, closed unless open, the TSDoc as description. */
function interfaceSchema(fields: readonly FieldModel[], open: boolean, doc: string, tsNameOf: (sharedType: string) => string): JSONSchema {
  const required = fields.filter((f) => !f.optional).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f, tsNameOf)])),
    ...(required.length > 0 && { required }),
    description: doc,
    additionalProperties: open,
  };
}

/**
 * Runs json-schema-to-typescript once per interface (concurrently; it is asynchronous) and
 * reads the declarations back as structures, in the order given: one parse for all of them.
 */
async function declareAll(interfaces: readonly { name: string; schema: JSONSchema }[]): Promise<InterfaceDeclarationStructure[]> {
  const texts = await Promise.all(interfaces.map(({ name, schema }) => compile(schema, name, JSSTT_OPTIONS)));
  const statements = statementsOf(texts);
  return interfaces.map(({ name }, i) => {
    const declaration = statements[i];
    if (statements.length !== interfaces.length || declaration?.kind !== StructureKind.Interface || declaration.name !== name) {
      throw new Error(`types: json-schema-to-typescript did not declare exactly one interface ${name}`);
    }
    return declaration;
  });
}

function sharedTypeDoc(shared: ObjectTypeModel): string {
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
  const tsNameOf = (sharedType: string): string => tsNames.get(sharedType)!; // the loader has resolved every reference

  const declarations = await declareAll([
    ...model.sharedTypes.map((shared) => ({ name: shared.tsName, schema: interfaceSchema(shared.fields, false, sharedTypeDoc(shared), tsNameOf) })),
    ...model.events.map((event) => ({ name: payloadTypeName(event), schema: interfaceSchema(event.fields, event.open !== false, payloadDoc(event), tsNameOf) })),
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
