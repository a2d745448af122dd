/**
 * The package as consumers meet it: built, packed, installed from the tarball into
 * throwaway projects, then imported, required, type-checked and bundled.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packedTarball } from '../support/packed-package.js';
import { BUILDS, SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = '@data-import/event-catalog';
const work = mkdtempSync(join(tmpdir(), 'consumer-'));
let tarballPath = '';
let installLog = '';
const consumer = join(work, 'consumer');
const compilers = {
  'typescript 5.9': join(ROOT, 'node_modules/typescript/bin/tsc'),
  'typescript 7': join(ROOT, 'node_modules/typescript-7/bin/tsc'),
};

const run = (command: string, args: string[], cwd: string) => spawnSync(command, args, { cwd, encoding: 'utf8' });
const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};

beforeAll(() => {
  // Packed from sources without dist/: `npm pack` builds it itself (prepack), as `npm publish` from a clean clone does.
  tarballPath = packedTarball();
  write(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
  // Beside the package: Node's types and the broker clients (its optional peers), at the versions this repository tests with.
  const companions = ['@types/node', '@nats-io/jetstream', '@nats-io/transport-node', 'ioredis'].map((name) => `${name}@${installedVersion(name)}`);
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarballPath, ...companions], { cwd: consumer, encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  installLog = install.stdout + install.stderr;
}, BUILDS);
afterAll(() => rmSync(work, { recursive: true, force: true }));

function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

const MESSAGE = `{ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } }`;

describe('the packed tarball', () => {
  it('installs into an empty project without a warning', () => {
    expect(installLog).not.toMatch(/npm warn/i);
  });

  it('comes from a repository whose own install warns of nothing: every dependency install script is approved or denied', () => {
    const pending = run('npm', ['install-scripts', 'ls'], ROOT);
    expect(pending.status, pending.stderr).toBe(0);
    expect(pending.stdout + pending.stderr).not.toMatch(/not yet covered/i);
    expect(pending.stdout).toContain('No packages with unreviewed install scripts');
  }, SPAWNS);

  it('holds the built code, the licence and every generated file the README sends users to', () => {
    const files = new Set(execFileSync('tar', ['-tzf', tarballPath], { encoding: 'utf8' }).split('\n').map((line) => line.replace(/^package\//, '')));
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = ['generated/api/README.md', 'generated/api/schemas/', 'generated/docs/README.md', 'generated/openapi.yaml', 'generated/asyncapi.yaml'];
    for (const path of linked) expect(readme, `README names ${path}`).toContain(path);
    const missing = ['dist/index.js', 'dist/index.cjs', 'dist/cli.js', 'LICENSE', ...linked].filter((path) => !(path.endsWith('/') ? [...files].some((file) => file.startsWith(path)) : files.has(path)));
    expect(missing).toEqual([]);
  });

  it('an uncaught EventValidationError prints a readable stack, and under --enable-source-maps names the runtime source', () => {
    write(join(consumer, 'uncaught.cjs'), `require('${PACKAGE}').createHandler({})({ type: 'account.created', version: 'v1', payload: {} });`);
    const plain = run(process.execPath, ['uncaught.cjs'], consumer);
    expect(plain.status).toBe(1);
    const firstLines = plain.stderr.split('\n').slice(0, 4);
    expect(Math.max(...firstLines.map((line) => line.length)), firstLines.join('\n')).toBeLessThan(200);
    expect(plain.stderr).toMatch(/EventValidationError: invalid account\.created v1 payload/);
    const mapped = run(process.execPath, ['--enable-source-maps', 'uncaught.cjs'], consumer);
    expect(mapped.stderr).toMatch(/at dispatch \(.*runtime\/create-handler\.ts:\d+:\d+\)/);
  }, SPAWNS);

  it('passes publint with warnings treated as errors', () => {
    const result = run(process.execPath, [join(ROOT, 'node_modules/publint/src/cli.js'), 'run', '--strict', tarballPath], ROOT);
    expect(result.stdout + result.stderr).toContain('All good!');
    expect(result.status).toBe(0);
  }, SPAWNS);

  it('has no type resolution problems (are the types wrong?) for the root and event entries', () => {
    const entrypoints = ['.', './events/account.created/v1', './events/contract-groups.memberships-changed/v-alpha1', './create-event-validator', './manifest.json', './package.json'];
    const result = run(process.execPath, [join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarballPath, '--entrypoints', ...entrypoints, '--format', 'json'], ROOT);
    const report = JSON.parse(result.stdout) as { problems?: unknown[]; analysis?: { problems?: unknown[] } };
    expect(report.analysis?.problems ?? report.problems).toEqual([]);
    expect(result.status).toBe(0);
  }, SPAWNS);
});

describe('JavaScript consumers', () => {
  it('ESM import validates a message, at the root and through an event entry', () => {
    write(
      join(consumer, 'esm.mjs'),
      `import { validateEvent, eventCatalog } from '${PACKAGE}';
import { accountCreatedV1 as accountCreated } from '${PACKAGE}/events/account.created/v1';
const ok = validateEvent(${MESSAGE});
const bad = validateEvent({ type: 'account.created', version: 'v1', payload: {} });
console.log(JSON.stringify([ok.ok, bad.ok, bad.error.issues[0].path, accountCreated.is(${MESSAGE}), eventCatalog.length]));`,
    );
    const result = run(process.execPath, ['esm.mjs'], consumer);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([true, false, '/payload/account_number', true, 228]);
  }, SPAWNS);

  it('CommonJS require validates a message, at the root and through an event entry', () => {
    write(
      join(consumer, 'cjs.cjs'),
      `const { validateEvent, EventValidationError, parseEvent } = require('${PACKAGE}');
const { accountCreatedV1 } = require('${PACKAGE}/events/account.created/v1');
let thrown;
try { parseEvent({ type: 'nope', version: 'v1', payload: {} }); } catch (e) { thrown = e instanceof EventValidationError && e.code; }
console.log(JSON.stringify([validateEvent(${MESSAGE}).ok, accountCreatedV1.validate(${MESSAGE}).ok, thrown]));`,
    );
    const result = run(process.execPath, ['cjs.cjs'], consumer);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([true, true, 'unknown_event_type']);
  }, SPAWNS);

  it('every event entry is the same validator through require and import', () => {
    write(
      join(consumer, 'both-forms.mjs'),
      `import { createRequire } from 'node:module';
import manifest from '${PACKAGE}/manifest.json' with { type: 'json' };
const require = createRequire(import.meta.url);
const differing = [];
for (const e of manifest.events) {
  const specifier = '${PACKAGE}/events/' + e.type + '/' + e.version;
  const [cjs] = Object.values(require(specifier));
  const [esm] = Object.values(await import(specifier));
  const describe = (v) => JSON.stringify([v.type, v.version, v.open, v.schemaId, v.validate({ type: e.type, version: e.version, payload: {} })]);
  if (describe(cjs) !== describe(esm) || cjs.type !== e.type || cjs.version !== e.version || cjs.open !== e.open || cjs.schemaId !== e.schemaId) differing.push(e.name);
}
console.log(JSON.stringify({ events: manifest.events.length, differing }));`,
    );
    const result = run(process.execPath, ['both-forms.mjs'], consumer);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ events: 228, differing: [] });
  }, SPAWNS);

  it('ships the JSON Schemas and the manifest', () => {
    write(
      join(consumer, 'schemas.mjs'),
      `import schema from '${PACKAGE}/schemas/events/account.created/v1/message.schema.json' with { type: 'json' };
import manifest from '${PACKAGE}/manifest.json' with { type: 'json' };
console.log(JSON.stringify([schema.$id, manifest.events.length]));`,
    );
    const result = run(process.execPath, ['schemas.mjs'], consumer);
    expect(JSON.parse(result.stdout)).toEqual(['urn:data-import-events:event:account.created:v1:message', 228]);
  }, SPAWNS);

  it('installs a working `event-catalog` command', () => {
    write(join(consumer, 'dump.jsonl'), `${JSON.stringify({ type: 'account.occupied', version: 'v1', payload: { account_number: 'A-1' } })}\n{ not json\n`);
    const result = run(join(consumer, 'node_modules/.bin/event-catalog'), ['validate', 'dump.jsonl', '--json'], consumer);
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ lines: 2, valid: 1, malformed: 1 });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(run(join(consumer, 'node_modules/.bin/event-catalog'), ['--version'], consumer).stdout).toBe(`${version}\n`);
  }, SPAWNS);
});

const TYPED_CONSUMER = `import { createHandler, validateEvent, type CatalogEvent, type EventOf, type PayloadOf } from '${PACKAGE}';
import { accountCreatedV1 } from '${PACKAGE}/events/account.created/v1';

export function describeEvent(e: CatalogEvent): string {
  switch (e.type) {
    case 'agreement.revoked':
      switch (e.version) {
        case 'v1': return String(e.payload.agreement_id);
        case 'v2': return e.payload.account_number;
        default: { const never: never = e; return never; }
      }
    default:
      return e.type;
  }
}
const created: EventOf<'account.created', 'v1'> = { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } };
const payload: PayloadOf<'agreement.updated', 'v2'> = { agreement_id: 1, changes: {}, account_number: 'A-1' };
const handle = createHandler({ 'account.created': { v1: (p) => p.account_number.toUpperCase() } });
const result = validateEvent(created);
if (result.ok && result.event.type === 'account.created') result.event.payload.account_user_emails.map((s) => s.trim());
const fromEntry = accountCreatedV1.validate(created);
if (fromEntry.ok) fromEntry.event.payload.account_number.toLowerCase();
export { handle, payload };
`;

const WRONG_CONSUMER = `import type { EventOf } from '${PACKAGE}';
export const wrong: EventOf<'account.created', 'v1'> = { type: 'account.created', version: 'v1', payload: { account_number: 42, account_user_emails: [] } };
`;

function typeCheck(compiler: string, resolution: string, file: string) {
  const project = join(consumer, `ts-${resolution}`);
  const moduleKind = resolution === 'bundler' ? 'esnext' : resolution;
  write(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  write(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: moduleKind, moduleResolution: resolution, skipLibCheck: false, types: [] }, files: [file] }));
  write(join(project, 'consumer.ts'), TYPED_CONSUMER);
  write(join(project, 'wrong.ts'), WRONG_CONSUMER);
  return run(process.execPath, [compiler, '-p', project], project);
}

describe.each(Object.entries(compilers))('TypeScript consumers with %s', (_name, compiler) => {
  it.each(['node16', 'nodenext', 'bundler'])('type-check cleanly under moduleResolution %s', (resolution) => {
    const result = typeCheck(compiler, resolution, 'consumer.ts');
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, SPAWNS);

  it('report a wrong field type on EventOf<…>', () => {
    const result = typeCheck(compiler, 'nodenext', 'wrong.ts');
    expect(result.status).not.toBe(0);
    expect(result.stdout).toMatch(/wrong\.ts\(2,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
  }, SPAWNS);
});

describe('createEventValidator', () => {
  const modules = [
    ['selectModule', 'create-event-validator'],
    ['createdModule', 'events/account.created/v1'],
    ['revokedModule', 'events/agreement.revoked/v1'],
  ] as const;
  const consumerOf = (load: (binding: string, specifier: string) => string) => `${modules.map(([binding, specifier]) => load(binding, specifier)).join('\n')}
const some = selectModule.createEventValidator([createdModule.accountCreatedV1, revokedModule.agreementRevokedV1]);
const unknown = some.validateEvent({ type: 'account.closed', version: 'v1', payload: {} });
let thrown = '';
try { some.parseEvent({ type: 'account.created', version: 'v1', payload: {} }); } catch (error) { thrown = error.name; }
console.log(JSON.stringify([some.validateEvent(${MESSAGE}).ok, unknown.error.code, thrown]));`;

  it.each([
    ['ESM import', 'selected.mjs', (binding: string, specifier: string) => `import * as ${binding} from '${PACKAGE}/${specifier}';`],
    ['CommonJS require', 'selected.cjs', (binding: string, specifier: string) => `const ${binding} = require('${PACKAGE}/${specifier}');`],
  ])('%s: validates the events named, and only those', (_how, file, load) => {
    write(join(consumer, file), consumerOf(load));
    const result = run(process.execPath, [file], consumer);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([true, 'unknown_event_type', 'EventValidationError']);
  }, SPAWNS);

  it('bundled with esbuild, pulls in the named events and no other', async () => {
    write(
      join(consumer, 'selected-bundle.mjs'),
      `import { createEventValidator } from '${PACKAGE}/create-event-validator';
import { accountCreatedV1 } from '${PACKAGE}/events/account.created/v1';
console.log(createEventValidator([accountCreatedV1]).isEvent({}));\n`,
    );
    const result = await build({ entryPoints: [join(consumer, 'selected-bundle.mjs')], bundle: true, write: false, metafile: true, minify: true, format: 'esm', platform: 'node', absWorkingDir: consumer });
    const inputs = Object.keys(result.metafile.inputs).filter((path) => path.includes('node_modules/@data-import/event-catalog/'));
    expect(inputs.sort()).toEqual([
      'node_modules/@data-import/event-catalog/dist/create-event-validator.js',
      'node_modules/@data-import/event-catalog/dist/entries.js',
      'node_modules/@data-import/event-catalog/dist/events/account.created/v1.js',
      'node_modules/@data-import/event-catalog/dist/validators/account.created/v1.cjs',
    ]);
    expect(result.outputFiles[0]!.text).not.toContain('agreement_id');
  }, SPAWNS);
});

it('bundling one event entry with esbuild pulls in no other event', async () => {
  write(join(consumer, 'one-event.mjs'), `import { accountCreatedV1 } from '${PACKAGE}/events/account.created/v1';\nconsole.log(accountCreatedV1.is({}));\n`);
  const result = await build({ entryPoints: [join(consumer, 'one-event.mjs')], bundle: true, write: false, metafile: true, minify: true, format: 'esm', platform: 'node', absWorkingDir: consumer });
  const inputs = Object.keys(result.metafile.inputs).filter((path) => path.includes('node_modules/@data-import/event-catalog/'));
  // The entry, its own validator module (shipped once, shared with the root's registry) and the shared code around it.
  expect(inputs.sort()).toEqual([
    'node_modules/@data-import/event-catalog/dist/entries.js',
    'node_modules/@data-import/event-catalog/dist/events/account.created/v1.js',
    'node_modules/@data-import/event-catalog/dist/validators/account.created/v1.cjs',
  ]);
  const text = result.outputFiles[0]!.text;
  expect(text).not.toContain('account_user_emails_');
  expect(text).not.toContain('agreement_id');
  const allEvents = readdirSync(join(consumer, 'node_modules/@data-import/event-catalog/dist/events'));
  expect(allEvents.length).toBeGreaterThan(200);
  void readFileSync;
}, SPAWNS);
