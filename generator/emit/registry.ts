import { codeBanner } from '../common/banner.js';
import { schemaIds } from '../common/schema-ids.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { validatorPaths } from './validator-paths.js';
import { RUNTIME_IMPORTS } from '../../runtime/contract/runtime-imports.js';

/**
 * `registry.cjs` (+ `.d.cts`), plain CommonJS text: what the run time dispatches on, as data.
 * Each event type with its versions in catalog order, each version with loaders of its
 * validator module and its ajv all-errors module: literal `require` calls, so bundlers still
 * find every module, that the run time makes only when an event first needs them. The code
 * around them (the slots that load a module on first call and then hold its checks) is the
 * runtime's own, `runtime/internal/event-slots.ts`, compiled once. Also `typeIndex`, a
 * decision tree on a type's length and characters written for the catalog's types (see
 * `typeDispatch`), the public `eventCatalog` list, and `messageSchemaId`, the one place the
 * runtime learns how message schemas are named.
 */
export function emitRegistry(model: CatalogModel): EmittedFile[] {
  const byType = new Map<string, CatalogModel['events'][number][]>();
  for (const event of model.events) byType.set(event.type, [...(byType.get(event.type) ?? []), event]);
  const version = (event: CatalogModel['events'][number]): string =>
    `[${JSON.stringify(event.version)}, () => require(${JSON.stringify(`./${validatorPaths.module(event)}`)}), () => require(${JSON.stringify(`./${validatorPaths.errorsModule(event)}`)})]`;
  const banner = codeBanner(model.sourceFiles);
  const catalogEntry = (e: CatalogModel['events'][number]): string =>
    `Object.freeze({ type: ${JSON.stringify(e.type)}, version: ${JSON.stringify(e.version)}, name: ${JSON.stringify(e.name)}, open: ${e.open !== false} }),`;

  const module = [
    "'use strict';",
    '/** Each event type and its versions, in catalog order: a version, then loaders of its validator module and of its all-errors module. */',
    'exports.eventTypes = [',
    ...[...byType].map(([type, versions]) => `  [${JSON.stringify(type)}, [${versions.map(version).join(', ')}]],`),
    '];',
    '',
    ...typeDispatch([...byType.keys()]),
    '',
    '/** Every event version in the catalog, in catalog order. */',
    'exports.eventCatalog = Object.freeze([',
    ...model.events.map((e) => `  ${catalogEntry(e)}`),
    ']);',
    '/** The `$id` of an event version\'s message schema (`schemas/events/<type>/<version>/message.schema.json`). */',
    `exports.messageSchemaId = function messageSchemaId(type, version) {\n  return ${messageSchemaIdExpression('type', 'version')};\n};`,
  ];

  const declarations = `${banner}import type { RegistryEventType } from '${RUNTIME_IMPORTS.registryTypes}' with { 'resolution-mode': 'import' };

/** Each event type and its versions, in catalog order: a version, then loaders of its validator module and of its all-errors module. */
export declare const eventTypes: readonly RegistryEventType[];
/** Where \`type\` is in \`eventTypes\`, read from its length and a few of its characters (compare the whole string to be sure); -1 for none. */
export declare function typeIndex(type: string): number;
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

/**
 * `typeIndex(type)`: where a type is in `eventTypes`, for the string a message has just been
 * parsed into. A `Map` first hashes the whole string (a new string has no hash yet); this
 * reads its length and a few of its characters, in a decision tree written here for the
 * catalog's types. The run time compares the whole string once with the one type it can be.
 */
function typeDispatch(types: readonly string[]): string[] {
  const index = new Map(types.map((type, i) => [type, i]));
  const byLength = groupBy(types, (type) => type.length);
  const lines = [
    '/** Where `type` is in `eventTypes`, read from its length and some of its characters only (a decision tree over the catalog\'s types); -1 for none. */',
    'exports.typeIndex = function typeIndex(type) {',
    '  switch (type.length) {',
  ];
  for (const [length, group] of [...byLength].sort(([a], [b]) => a - b)) {
    lines.push(`    case ${length}:`, ...decide(group, index, '      '));
  }
  lines.push('  }', '  return -1;', '};');
  return lines;
}

/** Statements that return the index of the one type of `group` (all of one length) a string can be, reading as few characters as it takes. */
function decide(group: readonly string[], index: ReadonlyMap<string, number>, indent: string): string[] {
  if (group.length === 1) return [`${indent}return ${index.get(group[0]!)};`];
  // The position that splits the group into the most parts (the first such); distinct strings of one length differ somewhere.
  let best = { position: 0, parts: new Map<number, string[]>() };
  for (let position = 0; position < group[0]!.length; position++) {
    const parts = groupBy(group, (type) => type.charCodeAt(position));
    if (parts.size > best.parts.size) best = { position, parts };
  }
  const lines = [`${indent}switch (type.charCodeAt(${best.position})) {`];
  for (const [code, part] of [...best.parts].sort(([a], [b]) => a - b)) lines.push(`${indent}  case ${code}:`, ...decide(part, index, `${indent}    `));
  lines.push(`${indent}}`, `${indent}return -1;`);
  return lines;
}

function groupBy<K>(items: readonly string[], key: (item: string) => K): Map<K, string[]> {
  const groups = new Map<K, string[]>();
  for (const item of items) {
    const k = key(item);
    groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}
