import { codeBanner } from '../common/banner.js';
import { schemaIds } from '../common/schema-ids.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { validatorPaths } from './validator-paths.js';
import { RUNTIME_IMPORTS } from '../../runtime/contract/runtime-imports.js';

/**
 * `registry.cjs` (+ `.d.cts`), plain CommonJS text: what the runtime dispatches on. Type →
 * the slot of its first version, each slot linked to the next version of the same type: one
 * `Map` lookup and (almost always) one string comparison reach any event. A slot's checks are
 * stubs that `require` that event's validator module the first time one is called and then
 * put the module's own checks in their place, so importing the package parses no validator
 * code and a warm call goes straight to the generated function. `firstSlotOf` finds a type's
 * slot without hashing the string (see `typeDispatch`). The `require` paths are
 * string literals, so bundlers still find every module. Also the public `eventCatalog`
 * list, and `messageSchemaId`, the one place the runtime learns how message schemas are named.
 */
export function emitRegistry(model: CatalogModel): EmittedFile[] {
  const byType = new Map<string, CatalogModel['events'][number][]>();
  for (const event of model.events) byType.set(event.type, [...(byType.get(event.type) ?? []), event]);
  const slotChain = (versions: CatalogModel['events'][number][]): string =>
    versions.reduceRight(
      (next, event) =>
        `slot(${JSON.stringify(event.version)}, () => require(${JSON.stringify(`./${validatorPaths.module(event)}`)}), () => require(${JSON.stringify(`./${validatorPaths.errorsModule(event)}`)}), ${next})`,
      'undefined',
    );
  const banner = codeBanner(model.sourceFiles);
  const catalogEntry = (e: CatalogModel['events'][number]): string =>
    `Object.freeze({ type: ${JSON.stringify(e.type)}, version: ${JSON.stringify(e.version)}, name: ${JSON.stringify(e.name)}, open: ${e.open !== false} }),`;

  const module = [
    "'use strict';",
    '/** One event version: its checks (stubs until its module is loaded), its modules, and the next version of its type. */',
    'function slot(version, load, loadErrors, next) {',
    '  let loaded;',
    '  let errors;',
    '  const module = () => {',
    '    if (loaded === undefined) {',
    '      loaded = load();',
    '      self.tolerant = loaded.accepts.tolerant;',
    '      self.strict = loaded.accepts.strict;',
    '    }',
    '    return loaded;',
    '  };',
    '  const self = {',
    '    version,',
    '    tolerant: (payload) => module().accepts.tolerant(payload),',
    '    strict: (payload) => module().accepts.strict(payload),',
    '    module,',
    '    errors: () => (errors ??= loadErrors()),',
    '    next,',
    '  };',
    '  return self;',
    '}',
    '',
    '/** Event type → the slot of its first version; the others follow through `next`. A `Map`: safe for any string a message carries. */',
    'exports.compiledEvents = new Map([',
    ...[...byType].map(([type, versions]) => `  [${JSON.stringify(type)}, ${slotChain(versions)}],`),
    ']);',
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

  const declarations = `${banner}import type { AllErrorsValidators, CompiledEventModule } from '${RUNTIME_IMPORTS.registryTypes}' with { 'resolution-mode': 'import' };

/** One event version of the registry. */
export interface CompiledEventSlot {
  readonly version: string;
  /** The event's payload checks (\`accepts\` of its module); the first call loads the module. */
  readonly tolerant: (payload: unknown) => boolean;
  readonly strict: (payload: unknown) => boolean;
  /** The event's validator module, loaded on first call. */
  readonly module: () => CompiledEventModule;
  /** ajv's all-errors validators of the event, loaded on its first rejection. */
  readonly errors: () => AllErrorsValidators;
  /** The next version of the same event type. */
  readonly next: CompiledEventSlot | undefined;
}
/** Event type → the slot of its first version; the others follow through \`next\`. */
export declare const compiledEvents: ReadonlyMap<string, CompiledEventSlot>;
/** \`compiledEvents.get(type)\`, without hashing \`type\`: the fast way for a string just parsed from a message. */
export declare function firstSlotOf(type: string): CompiledEventSlot | undefined;
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
 * `firstSlotOf(type)`: the same answer as `compiledEvents.get(type)`, for the string a message
 * has just been parsed into. A `Map` first hashes the whole string (a new string has no hash
 * yet); this reads its length and a few of its characters, in a decision tree written here for
 * the catalog's types, then compares the whole string once with the one type it can be.
 */
function typeDispatch(types: readonly string[]): string[] {
  const index = new Map(types.map((type, i) => [type, i]));
  const byLength = groupBy(types, (type) => type.length);
  const lines = [
    '/** The catalog\'s event types and their first slots, in the order of `compiledEvents`. */',
    'const eventTypes = [...exports.compiledEvents.keys()];',
    'const firstSlots = [...exports.compiledEvents.values()];',
    '',
    '/** Where `type` would be in `eventTypes`, read from its length and some of its characters only (a decision tree over the catalog\'s types); -1 for none. */',
    'function typeIndex(type) {',
    '  switch (type.length) {',
  ];
  for (const [length, group] of [...byLength].sort(([a], [b]) => a - b)) {
    lines.push(`    case ${length}:`, ...decide(group, index, '      '));
  }
  lines.push(
    '  }',
    '  return -1;',
    '}',
    '',
    '/** `compiledEvents.get(type)`, without hashing `type`: the decision tree, then one comparison of the whole string. */',
    'exports.firstSlotOf = function firstSlotOf(type) {',
    '  const i = typeIndex(type);',
    '  return i >= 0 && eventTypes[i] === type ? firstSlots[i] : undefined;',
    '};',
  );
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
