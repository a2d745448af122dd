import { codeBanner } from '../common/banner.js';
import { schemaIds } from '../common/schema-ids.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { validatorPaths } from './validator-paths.js';

/**
 * `registry.cjs` (+ `.d.cts`), plain CommonJS text: what the runtime dispatches on. Type →
 * the slot of its first version, each slot linked to the next version of the same type: one
 * `Map` lookup and (almost always) one string comparison reach any event. A slot's checks are
 * stubs that `require` that event's validator module the first time one is called and then
 * put the module's own checks in their place, so importing the package parses no validator
 * code and a warm call goes straight to the generated function. The `require` paths are
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
    '/** Every event version in the catalog, in catalog order. */',
    'exports.eventCatalog = Object.freeze([',
    ...model.events.map((e) => `  ${catalogEntry(e)}`),
    ']);',
    '/** The `$id` of an event version\'s message schema (`schemas/events/<type>/<version>/message.schema.json`). */',
    `exports.messageSchemaId = function messageSchemaId(type, version) {\n  return ${messageSchemaIdExpression('type', 'version')};\n};`,
  ];

  const declarations = `${banner}import type { AllErrorsValidators, CompiledEventModule } from '../runtime/compiled-validator.js' with { 'resolution-mode': 'import' };

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
