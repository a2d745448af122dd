/**
 * runtime/'s folders are what the package build makes of them (runtime/ARCHITECTURE.md): each
 * folder may import only the folders listed for it, and only the packages its build output
 * may load. A broker adapter or the CLI reaches the root's code through `index.ts` alone, the
 * import the build keeps as an import of the built root (scripts/tsup.config.ts): a second
 * path would bundle a second copy of the root's classes. Every import is read
 * (test/support/source-imports.ts), those that leave runtime/ among them; what runtime/ as a
 * whole may import is held in test/generator/layers.test.ts ("the house").
 */
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeFiles, importsOf, ROOT } from '../support/source-imports.js';

/** `root` is the files directly in runtime/ (the package root's modules). */
type Folder = 'contract' | 'root' | 'entries' | 'internal' | 'rest' | 'bus' | 'nats' | 'redis-streams' | 'emulator' | 'cli';

/** What each folder may import inside runtime/: whole folders, or single files (`root:index.ts`). */
const MAY_IMPORT: Record<Folder, readonly string[]> = {
  // What generated code and the runtime agree on, read by the generator too: it imports nothing.
  contract: ['contract'],
  internal: ['internal', 'contract'],
  entries: ['entries', 'internal', 'contract'],
  root: ['root', 'entries', 'internal', 'contract'],
  rest: ['rest', 'internal', 'contract'],
  bus: ['bus', 'internal', 'contract', 'root:index.ts'],
  nats: ['nats', 'bus', 'internal', 'contract', 'root:index.ts'],
  'redis-streams': ['redis-streams', 'bus', 'internal', 'contract', 'root:index.ts'],
  // The emulator reaches the root, the REST entry and the adapters through their index.ts, as the CLI does.
  emulator: ['emulator', 'internal', 'contract', 'root:index.ts', 'rest:index.ts', 'nats:index.ts', 'redis-streams:index.ts'],
  cli: ['cli', 'internal', 'contract', 'root:index.ts', 'nats:index.ts', 'redis-streams:index.ts', 'emulator:index.ts'],
};

/** Packages each folder may load (Node's built-ins aside, which only the emulator and the CLI use). */
const MAY_LOAD: Record<Folder, readonly string[]> = {
  contract: [],
  // Its types only (checked below): the API itself is an optional peer, loaded at run time by `loadOpenTelemetry`.
  internal: ['@opentelemetry/api'],
  entries: [],
  root: [],
  rest: [],
  bus: ['@opentelemetry/api'],
  nats: ['@nats-io/jetstream', '@nats-io/transport-node', 'node:crypto'],
  'redis-streams': ['ioredis'],
  // Its broker clients only by dynamic import(), when --nats or --redis asks for them.
  emulator: ['@nats-io/jetstream', '@nats-io/transport-node', 'ioredis', ...builtinModules.map((name) => `node:${name}`)],
  cli: ['@nats-io/jetstream', '@nats-io/transport-node', 'ioredis', ...builtinModules.map((name) => `node:${name}`)],
};

/** `runtime/rest/validate.ts` → `rest`; the files directly in runtime/ are `root`. */
const folderOf = (path: string): Folder => {
  const inside = path.slice('runtime/'.length);
  return inside.includes('/') ? (inside.split('/')[0] as Folder) : 'root';
};

describe('runtime folders', () => {
  const files = codeFiles('runtime');
  const imports = files.flatMap(importsOf);
  const text = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

  it('are all known folders', () => {
    expect(files.map(folderOf).filter((folder) => !(folder in MAY_IMPORT))).toEqual([]);
  });

  it('import only what their build output may contain: folders of runtime/, and generated/ where the build bundles it', () => {
    const refused: string[] = [];
    for (const { file, target } of imports) {
      if (target === undefined) continue;
      const arrow = `${file} → ${target}`;
      if (target.startsWith('generated/')) {
        // Generated code: the catalog's types, registry and REST tables, for the folders the root and REST build.
        // The emulator reads the REST tables only (the operations' events among them).
        const allowed = ['root', 'entries', 'internal', 'rest'].includes(folderOf(file)) || (folderOf(file) === 'emulator' && target.startsWith('generated/api/'));
        if (!allowed) refused.push(arrow);
      } else if (!target.startsWith('runtime/')) {
        refused.push(`${arrow} (outside runtime/ and generated/)`);
      } else {
        const folder = folderOf(target);
        const name = target.slice(target.lastIndexOf('/') + 1);
        const allowed = MAY_IMPORT[folderOf(file)];
        if (!allowed.includes(folder) && !allowed.includes(`${folder}:${name}`)) refused.push(arrow);
      }
    }
    expect(refused).toEqual([]);
  });

  it('load only their own packages: no build-time tool, and broker clients in their adapters (and the CLI) alone', () => {
    const refused = imports.filter(({ specifier, target, file }) => target === undefined && !MAY_LOAD[folderOf(file)].includes(specifier)).map(({ file, specifier }) => `${file} → ${specifier}`);
    expect(refused).toEqual([]);
  });

  it('take only types from @opentelemetry/api: it is an optional peer, loaded at run time when the application has it', () => {
    const valueImports = files.filter((file) => /^import (?!type )[^;]*'@opentelemetry\/api'/m.test(text(file)));
    expect(valueImports).toEqual([]);
    expect(files.filter((file) => /^import type [^;]*'@opentelemetry\/api'/m.test(text(file))).length).toBeGreaterThan(0);
  });

  it('see every import (the checks would pass vacuously otherwise)', () => {
    expect(imports.filter((i) => i.target !== undefined).length).toBeGreaterThan(100);
    expect(imports.filter((i) => i.target?.startsWith('generated/')).length).toBeGreaterThan(10);
    expect(imports.filter((i) => i.specifier.startsWith('@nats-io/') || i.specifier === 'ioredis').length).toBeGreaterThan(5);
  });
});
