/**
 * `npm run build`: the package in `dist/`.
 * 1. tsup builds the root, the event entries and the CLI (scripts/tsup.config.ts);
 * 2. the registry and the validator modules (minified) are copied next to `index.cjs`: the
 *    registry `require`s each validator module the first time its event is seen, and each
 *    event entry imports its own;
 * 3. `index.js`, the ES module entry, re-exports `index.cjs`: one implementation, so no
 *    state or class is duplicated between `import` and `require` users;
 * 4. each event entry gets its CommonJS form (three lines: bundled, each carried esbuild's
 *    ES-module interop) and declarations pointing at the root's (bundling declarations for
 *    228 entries is slow and memory-hungry, and each needs only a few lines);
 * 5. `create-event-validator` re-exports the function from `event-validator.js|.cjs`, with
 *    declarations pointing at the root's;
 * 6. the broker adapters' CommonJS declarations import the root's CommonJS declarations.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { transformSync } from 'esbuild';
import { eventValidatorName } from '../generator/emit/event-entries.js';
import { validatorPaths } from '../generator/emit/validator-paths.js';

interface ManifestEvent {
  type: string;
  version: string;
  tsName: string;
  open: boolean;
  schemaId: string;
}

rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, ['node_modules/tsup/dist/cli-default.js', '--config', 'scripts/tsup.config.ts'], { stdio: ['ignore', 'ignore', 'inherit'] });

cpSync('generated/registry.cjs', 'dist/registry.cjs');
// Each validator module once, shared by the registry and its event's entry, and the all-errors
// modules the registry alone loads; minified, names included (ajv's counter names, validate10
// and schema11, say nothing in a stack trace anyway).
const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as { events: ManifestEvent[] };
cpSync('generated/validators', 'dist/validators', { recursive: true, filter: (source) => !source.endsWith('.d.cts') });
for (const event of manifest.events) {
  for (const path of [validatorPaths.module(event), validatorPaths.errorsModule(event)]) {
    const file = join('dist', path);
    writeFileSync(file, transformSync(readFileSync(file, 'utf8'), { format: 'cjs', target: 'node20', minify: true, legalComments: 'none' }).code);
  }
}

writeFileSync('dist/index.js', "// The ES module entry: the implementation is index.cjs, shared with require() users.\nexport * from './index.cjs';\n");

const banner = '// Declarations of one event entry, written by scripts/build-package.ts.\n';
for (const event of manifest.events) {
  const name = eventValidatorName(event);
  const declarations = (root: string): string =>
    banner +
    `import type { EventValidator, ${event.tsName}Event } from '${root}';\n` +
    `export type { ${event.tsName}Event as Event, ${event.tsName}Payload as Payload } from '${root}';\n` +
    `/** Validator of \`${event.type}\` ${event.version} messages (Standard Schema v1). */\n` +
    `export declare const ${name}: EventValidator<${event.tsName}Event>;\n`;
  const base = join('dist', 'events', event.type, event.version);
  mkdirSync(dirname(base), { recursive: true });
  // The CommonJS entry: what the ES module one (built by tsup from generated/events) does, as `require`s.
  writeFileSync(
    `${base}.cjs`,
    "'use strict';\n" +
      `// Validator of ${event.type} ${event.version} messages, written by scripts/build-package.ts (the code is shared by every event entry).\n` +
      `exports.${name} = require('../../event-validator.cjs').defineEventValidator(${[event.type, event.version, event.open, event.schemaId].map((arg) => JSON.stringify(arg)).join(', ')}, require(${JSON.stringify(`../../${validatorPaths.module(event)}`)}));\n`,
  );
  writeFileSync(`${base}.d.ts`, declarations('../../index.js'));
  writeFileSync(`${base}.d.cts`, declarations('../../index.cjs'));
}
// `create-event-validator`: the function lives in event-validator.js|.cjs, beside the code every
// event entry shares; its declarations use the root's types, as the event entries' do.
writeFileSync('dist/create-event-validator.js', "// createEventValidator: shared with the event entries, in event-validator.js.\nexport { createEventValidator } from './event-validator.js';\n");
writeFileSync('dist/create-event-validator.cjs', "'use strict';\n// createEventValidator: shared with the event entries, in event-validator.cjs.\nexports.createEventValidator = require('./event-validator.cjs').createEventValidator;\n");
const selectedDeclarations = (root: string): string =>
  '// Declarations of the create-event-validator entry, written by scripts/build-package.ts.\n' +
  `import type { CatalogEvent, EventValidator, SelectedEventValidator } from '${root}';\n` +
  `export type { SelectedEventValidator } from '${root}';\n` +
  '/** `validateEvent`, `isEvent` and `parseEvent` for the events whose per-event validators are given (`<package>/events/<type>/<version>`). */\n' +
  'export declare function createEventValidator<const V extends readonly EventValidator<CatalogEvent>[]>(validators: V): SelectedEventValidator<V[number] extends EventValidator<infer E> ? E : never>;\n';
writeFileSync('dist/create-event-validator.d.ts', selectedDeclarations('./index.js'));
writeFileSync('dist/create-event-validator.d.cts', selectedDeclarations('./index.cjs'));

// tsup keeps the adapters' import of the root as written (`./index.js`); a `.d.cts` must
// import `.d.cts` declarations, or TypeScript sees a CommonJS file importing an ES module.
for (const file of readdirSync('dist').filter((name) => name.endsWith('.d.cts') && !name.startsWith('index.') && !name.startsWith('create-event-validator.'))) {
  const path = join('dist', file);
  writeFileSync(path, readFileSync(path, 'utf8').replaceAll(" from './index.js';", " from './index.cjs';"));
}
console.log(`✔ built dist/: root, CLI and ${manifest.events.length} event entries`);
