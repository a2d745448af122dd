/**
 * `npm run build`: the package in `dist/`.
 * 1. tsup builds the root, the event entries and the CLI (scripts/tsup.config.ts);
 * 2. the registry and the validator modules (minified) are copied next to `index.cjs`: the
 *    registry `require`s each validator module the first time its event is seen, and each
 *    event entry imports its own;
 * 3. `index.js`, the ES module entry, re-exports `index.cjs`: one implementation, so no
 *    state or class is duplicated between `import` and `require` users;
 * 4. each event entry gets its CommonJS form and declarations pointing at the root's, written
 *    from the generator's description of the entry (`eventEntry`), as the ES module one was
 *    (bundling declarations for 228 entries is slow and memory-hungry, and each needs a few lines);
 * 5. `create-event-validator` re-exports the function from the shared entries module, declared
 *    by the root's `CreateEventValidator` type;
 * 6. the broker adapters' CommonJS declarations import the root's CommonJS declarations;
 * 7. the emulator's declarations import the root's and the REST entry's, in their format.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transformSync } from 'esbuild';
import { eventEntry, eventEntryCommonJs, eventEntryDeclarations, type EventEntrySource } from '../generator/emit/event-entries.js';
import { validatorPaths } from '../generator/emit/validator-paths.js';
import { ADAPTER_ENTRIES, distImport, EMULATOR_ENTRY, ENTRIES_MODULE, REST_VALIDATORS_MODULE, ROOT_MODULE, type ModuleFormat } from './package-layout.js';

rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, ['node_modules/tsup/dist/cli-default.js', '--config', 'scripts/tsup.config.ts'], { stdio: ['ignore', 'ignore', 'inherit'] });

cpSync('generated/registry.cjs', 'dist/registry.cjs');
// Each validator module once, shared by the registry and its event's entry, and the all-errors
// modules the registry alone loads; minified, names included (ajv's counter names, validate10
// and schema11, say nothing in a stack trace anyway).
const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as { events: EventEntrySource[] };
cpSync('generated/validators', 'dist/validators', { recursive: true, filter: (source) => !source.endsWith('.d.cts') });
for (const event of manifest.events) {
  for (const path of [validatorPaths.module(event), validatorPaths.errorsModule(event)]) {
    const file = join('dist', path);
    writeFileSync(file, transformSync(readFileSync(file, 'utf8'), { format: 'cjs', target: 'node20', minify: true, legalComments: 'none' }).code);
  }
}

writeFileSync('dist/index.js', "// The ES module entry: the implementation is index.cjs, shared with require() users.\nexport * from './index.cjs';\n");

// The REST validators, once for both REST entries (see tsup.config.ts), minified like the event validators.
writeFileSync(`dist/${REST_VALIDATORS_MODULE}.cjs`, transformSync(readFileSync('generated/api/validators.cjs', 'utf8'), { format: 'cjs', target: 'node20', minify: true, legalComments: 'none' }).code);

const written = (what: string): string => `// ${what}, written by scripts/build-package.ts.\n`;
for (const event of manifest.events) {
  const entry = eventEntry(event);
  const base = join('dist', 'events', event.type, event.version);
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(`${base}.cjs`, eventEntryCommonJs(entry, distImport(ENTRIES_MODULE, 'cjs', 'event')));
  for (const format of ['esm', 'cjs'] as const) {
    writeFileSync(`${base}.d.${format === 'cjs' ? 'cts' : 'ts'}`, written('Declarations of one event entry') + eventEntryDeclarations(entry, distImport(ROOT_MODULE, format, 'event')));
  }
}
// `create-event-validator`: the function lives in the shared entries module; its declaration
// is the root's `CreateEventValidator`, the function's own type.
writeFileSync('dist/create-event-validator.js', `${written('The create-event-validator entry')}export { createEventValidator } from '${distImport(ENTRIES_MODULE, 'esm')}';\n`);
writeFileSync('dist/create-event-validator.cjs', `'use strict';\n${written('The create-event-validator entry')}exports.createEventValidator = require('${distImport(ENTRIES_MODULE, 'cjs')}').createEventValidator;\n`);
const selectedDeclarations = (format: ModuleFormat): string =>
  written('Declarations of the create-event-validator entry') +
  `import type { CreateEventValidator } from '${distImport(ROOT_MODULE, format)}';\n` +
  `export type { SelectedEventValidator } from '${distImport(ROOT_MODULE, format)}';\n` +
  '/** `validateEvent`, `isEvent` and `parseEvent` for the events whose per-event validators are given (`<package>/events/<type>/<version>`). */\n' +
  'export declare const createEventValidator: CreateEventValidator;\n';
writeFileSync('dist/create-event-validator.d.ts', selectedDeclarations('esm'));
writeFileSync('dist/create-event-validator.d.cts', selectedDeclarations('cjs'));

// tsup keeps the adapters' import of the root as written (`./index.js`); a `.d.cts` must
// import `.d.cts` declarations, or TypeScript sees a CommonJS file importing an ES module.
// Every adapter's declarations import the root; one that does not means the build changed: say so.
for (const adapter of Object.keys(ADAPTER_ENTRIES)) {
  const path = join('dist', `${adapter}.d.cts`);
  const declarations = readFileSync(path, 'utf8');
  const esmRoot = ` from '${distImport(ROOT_MODULE, 'esm')}';`;
  if (!declarations.includes(esmRoot)) throw new Error(`build: ${path} does not import the root as${esmRoot}; the adapters' CommonJS declarations would not share the root's types`);
  writeFileSync(path, declarations.replaceAll(esmRoot, ` from '${distImport(ROOT_MODULE, 'cjs')}';`));
}
for (const module of Object.keys(EMULATOR_ENTRY)) {
  writeFileSync(join('dist', `${module}.js`), `${written('The emulator\'s ES module entry: the implementation is the CommonJS module, shared with require() users')}export * from './${module}.cjs';\n`);
}
// The emulator's declarations name the root's and the REST entry's types by their source paths
// (tsup keeps them as written); in dist/ those are the built entries' declarations.
for (const module of Object.keys(EMULATOR_ENTRY)) {
  for (const format of ['esm', 'cjs'] as const) {
    const path = join('dist', `${module}.d.${format === 'cjs' ? 'cts' : 'ts'}`);
    let declarations = readFileSync(path, 'utf8');
    for (const [source, entry] of [['../index.js', ROOT_MODULE], ['../rest/index.js', 'rest']] as const) {
      const from = ` from '${source}';`;
      if (!declarations.includes(from)) throw new Error(`build: ${path} does not import${from}; the emulator's declarations would not share the ${entry} entry's types`);
      declarations = declarations.replaceAll(from, ` from '${distImport(entry, format)}';`);
    }
    writeFileSync(path, declarations);
  }
}
console.log(`✔ built dist/: root, CLI and ${manifest.events.length} event entries`);
