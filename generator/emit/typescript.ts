import { compile, type JSONSchema, type Options } from 'json-schema-to-typescript';
import { StructureKind, type CodeBlockWriter, type StatementStructures, type WriterFunction } from 'ts-morph';
import type { CatalogModel, EventVersionModel, ObjectTypeModel } from '../model.js';
import { codeBanner } from './banner.js';
import type { EmittedFile } from './emitted-file.js';
import { payloadSchema, sharedTypeSchema, type JsonSchema } from './json-schema.js';
import { createTsProject, printModule } from './ts-project.js';

/**
 * `types.ts`: an interface per shared type and per payload (declaration text from
 * json-schema-to-typescript), an envelope interface per event, the `CatalogEvent` union and
 * the lookup types, assembled by ts-morph from one structure and printed once.
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

const payloadName = (e: EventVersionModel): string => `${e.tsName}Payload`;
const eventName = (e: EventVersionModel): string => `${e.tsName}Event`;
const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const code = (text: string): string => `\`${text}\``;

/**
 * The schema variant json-schema-to-typescript sees: the published schema with references to
 * shared types replaced by `tsType` (their interface name), opaque objects as
 * `Record<string, unknown>`, no `$defs`/`$id`/`title` (nothing else to declare or name), the
 * root closed unless the event is open, and the TSDoc as the root description.
 */
function typingSchema(schema: JsonSchema, tsNames: ReadonlyMap<string, string>, open: boolean, doc: string): JSONSchema {
  const { $schema, $id, $defs, title, description, ...body } = schema;
  void [$schema, $id, $defs, title, description];
  return { ...toTyping(body, tsNames), description: doc, additionalProperties: open };
}

function toTyping(schema: JsonSchema, tsNames: ReadonlyMap<string, string>): JSONSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref') {
      const name = String(value).replace(/^#\/\$defs\//, '').replace(/~1/g, '/').replace(/~0/g, '~');
      const tsName = tsNames.get(name);
      if (tsName === undefined) throw new Error(`types: reference to unknown shared type "${name}"`);
      out.tsType = tsName;
    } else if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, toTyping(v as JsonSchema, tsNames)]));
    } else if (key === 'items') {
      out.items = toTyping(value as JsonSchema, tsNames);
    } else if (key === 'anyOf') {
      out.anyOf = (value as JsonSchema[]).map((v) => toTyping(v, tsNames));
    } else {
      out[key] = value;
    }
  }
  const isOpaqueObject = (out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'))) && out.properties === undefined;
  if (isOpaqueObject) {
    // `object`, or `object` that may be null (`type: ['object', 'null']`): a record, or a record or null.
    const nullable = Array.isArray(out.type) && out.type.includes('null');
    delete out.type;
    if (nullable) out.anyOf = [{ tsType: OPAQUE_OBJECT }, { type: 'null' }];
    else out.tsType = OPAQUE_OBJECT;
  }
  return out as JSONSchema;
}

/**
 * json-schema-to-typescript without Prettier writes members flush left and without `;`.
 * Lay its declaration out like the rest of the module: two-space indent, `;` after members,
 * no trailing white space. Only the layout changes, never a token.
 */
export function layOutDeclaration(text: string, name: string): string {
  const out: string[] = [];
  let depth = 0;
  let inComment = false;
  for (const raw of text.trim().split('\n')) {
    const line = raw.trimEnd();
    const trimmed = line.trim();
    if (inComment || trimmed.startsWith('/**')) {
      // json-schema-to-typescript already writes ` * ` continuation lines; only indent them.
      inComment = !trimmed.endsWith('*/');
      out.push('  '.repeat(depth) + line);
      continue;
    }
    if (trimmed === '') continue; // the body of an empty interface
    if (trimmed.startsWith('}')) depth--;
    if (depth < 0 || depth > 1) throw new Error(`types: unexpected nesting in the declaration of ${name}:\n${text}`);
    const isMember = depth === 1 && !trimmed.endsWith('{') && !trimmed.endsWith(';');
    out.push('  '.repeat(depth) + trimmed + (isMember ? ';' : ''));
    if (trimmed.endsWith('{')) depth++;
  }
  if (depth !== 0 || inComment) throw new Error(`types: unbalanced declaration of ${name}:\n${text}`);
  return out.join('\n');
}

/** Runs json-schema-to-typescript and checks it declared exactly the one interface asked for. */
async function declare(name: string, schema: JSONSchema): Promise<string> {
  const text = await compile(schema, name, JSSTT_OPTIONS);
  const declared = [...text.matchAll(/^export (?:interface|type|enum|const enum) (\w+)/gm)].map((m) => m[1]);
  if (declared.length !== 1 || declared[0] !== name) {
    throw new Error(`types: json-schema-to-typescript declared [${declared.join(', ')}] for ${name}; expected exactly ${name}`);
  }
  return layOutDeclaration(text, name);
}

function sharedTypeDoc(shared: ObjectTypeModel): string {
  const lines = [`Shared object type ${code(shared.name)}.`];
  if (shared.description) lines.push('', shared.description);
  lines.push('');
  if (shared.usedBy.length === 0) lines.push('Used by no event shown in the catalog.');
  else lines.push('Used by:', ...shared.usedBy.map((key) => `- ${code(key)}`));
  return lines.join('\n');
}

function payloadDoc(event: EventVersionModel): string {
  const lines = [`Payload of ${code(event.type)} ${event.version} (catalog name ${code(event.name)}).`];
  if (event.description) lines.push('', event.description);
  if (event.extends.length > 0) lines.push('', `Fields reused from: ${event.extends.map(code).join(', ')}.`);
  if (event.open) {
    lines.push('', `Open: the catalog does not show every field (seed: "${event.open.seed}"), so unlisted properties are accepted.`);
  }
  return lines.join('\n');
}

/** A property name: bare when it is an identifier (`v1`), quoted otherwise (`'v-alpha1'`). */
const propertyName = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name));

/** `{ v1: AccountCreatedV1Event; v2: … }`, one line per event type. */
function versionMap(events: readonly EventVersionModel[]): string {
  return `{ ${events.map((e) => `${propertyName(e.version)}: ${eventName(e)}`).join('; ')} }`;
}

/** `CatalogEvent` as one member per line. */
const unionWriter =
  (names: readonly string[]): WriterFunction =>
  (writer: CodeBlockWriter) => {
    writer.write('export type CatalogEvent =');
    writer.indent(() => {
      names.forEach((name, i) => writer.conditionalNewLine(i > 0).write(`| ${name}${i === names.length - 1 ? ';' : ''}`));
    });
  };

export async function emitTypes(model: CatalogModel): Promise<EmittedFile[]> {
  const tsNames = new Map(model.sharedTypes.map((t) => [t.name, t.tsName]));

  // json-schema-to-typescript is the slow part: run every compile concurrently; order is kept by Promise.all.
  const [sharedDecls, payloadDecls] = await Promise.all([
    Promise.all(
      model.sharedTypes.map((shared) =>
        declare(shared.tsName, typingSchema(sharedTypeSchema(model, shared), tsNames, false, sharedTypeDoc(shared))),
      ),
    ),
    Promise.all(
      model.events.map((event) =>
        declare(payloadName(event), typingSchema(payloadSchema(model, event), tsNames, event.open !== false, payloadDoc(event))),
      ),
    ),
  ]);

  const byType = new Map<string, EventVersionModel[]>();
  for (const event of model.events) byType.set(event.type, [...(byType.get(event.type) ?? []), event]);

  const statements: (string | WriterFunction | StatementStructures)[] = [
    ...sharedDecls,
    ...model.events.flatMap((event, i): (string | StatementStructures)[] => [
      payloadDecls[i]!,
      {
        kind: StructureKind.Interface,
        isExported: true,
        name: eventName(event),
        docs: [`The ${code(event.type)} ${event.version} message: the envelope around {@link ${payloadName(event)}}.`],
        properties: [
          { name: 'type', type: quote(event.type) },
          { name: 'version', type: quote(event.version) },
          { name: 'payload', type: payloadName(event) },
        ],
      },
    ]),
    (writer) => {
      writer.writeLine('/** Every event version in the catalog, discriminated by `type`, then `version`. */');
      unionWriter(model.events.map(eventName))(writer);
    },
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: 'EventsByType',
      docs: ['Events by type, then version: two cheap lookups reach any event.'],
      properties: [...byType].map(([type, events]) => ({ name: quote(type), type: versionMap(events) })),
    },
    {
      kind: StructureKind.Interface,
      isExported: true,
      name: 'EventMap',
      docs: ['Events by `type@version` key.'],
      properties: model.events.map((event) => ({ name: quote(event.key), type: eventName(event) })),
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'EventType',
      docs: ['Every event type in the catalog.'],
      type: 'keyof EventsByType',
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'EventVersion',
      docs: ['The versions the catalog shows for one event type.'],
      typeParameters: [{ name: 'T', constraint: 'EventType' }],
      type: 'keyof EventsByType[T] & string',
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'EventOf',
      docs: ['The message of one event type and version.'],
      typeParameters: [
        { name: 'T', constraint: 'EventType' },
        { name: 'V', constraint: 'EventVersion<T>' },
      ],
      type: 'EventsByType[T][V]',
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'PayloadOf',
      docs: ['The payload of one event type and version.'],
      typeParameters: [
        { name: 'T', constraint: 'EventType' },
        { name: 'V', constraint: 'EventVersion<T>' },
      ],
      // Not `EventOf<T, V>['payload']`: for generic T and V the checker cannot see that every
      // `EventsByType[T][V]` has a payload (TS2536), so the payload is inferred instead.
      type: 'EventOf<T, V> extends { payload: infer P } ? P : never',
    },
    {
      kind: StructureKind.TypeAlias,
      isExported: true,
      name: 'EventKey',
      docs: ['Every `type@version` key in the catalog.'],
      type: 'keyof EventMap',
    },
  ];

  const contents = printModule(createTsProject(), 'types.ts', codeBanner(model.sourceFiles), { statements });
  return [{ path: 'types.ts', contents }];
}
