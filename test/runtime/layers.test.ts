/**
 * runtime/'s folders are what the package build makes of them (generator/ARCHITECTURE.md,
 * "The runtime"): each folder may import only the folders listed for it, and only the
 * packages its build output may load. A broker adapter or the CLI reaches the root's code
 * through `index.ts` alone, the import the build keeps as an import of the built root
 * (scripts/tsup.config.ts): a second path would bundle a second copy of the root's classes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUNTIME = fileURLToPath(new URL('../../runtime/', import.meta.url));

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

const folderOf = (path: string): Folder => (path.includes('/') ? (path.split('/')[0] as Folder) : 'root');

const sourceFiles = (): string[] =>
  readdirSync(RUNTIME, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(RUNTIME, join(entry.parentPath, entry.name)).split('\\').join('/'));

/** Every import of a file (static, re-exports and dynamic `import()`), as written. */
const specifiersOf = (file: string): string[] =>
  [...readFileSync(join(RUNTIME, file), 'utf8').matchAll(/(?:^(?:import|export)[^'"]*from |^import |\bimport\()'([^']+)'/gm)].map((m) => m[1]!);

describe('runtime folders', () => {
  const files = sourceFiles();

  it('are all known folders', () => {
    expect(files.map(folderOf).filter((folder) => !(folder in MAY_IMPORT))).toEqual([]);
  });

  it('import inside runtime/ only what their build output may contain', () => {
    const refused: string[] = [];
    for (const file of files) {
      const allowed = MAY_IMPORT[folderOf(file)];
      for (const specifier of specifiersOf(file).filter((s) => s.startsWith('.'))) {
        const target = relative(RUNTIME, resolve(RUNTIME, dirname(file), specifier)).split('\\').join('/').replace(/\.js$/, '.ts');
        if (target.startsWith('../generated/')) {
          // Generated code: the catalog's types, registry and REST tables, for the folders the root and REST build.
          // The emulator reads the REST tables only (the operations' events among them).
          const allowed = ['root', 'entries', 'internal', 'rest'].includes(folderOf(file)) || (folderOf(file) === 'emulator' && target.startsWith('../generated/api/'));
          if (!allowed) refused.push(`${file} → ${target}`);
          continue;
        }
        if (target.startsWith('..')) {
          refused.push(`${file} → ${target} (outside runtime/ and generated/)`);
          continue;
        }
        const folder = folderOf(target);
        const name = target.slice(target.lastIndexOf('/') + 1);
        if (!allowed.includes(folder) && !allowed.includes(`${folder}:${name}`)) refused.push(`${file} → ${target}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('load only their own packages: no build-time tool, and broker clients in their adapters (and the CLI) alone', () => {
    const refused = files.flatMap((file) =>
      specifiersOf(file)
        .filter((s) => !s.startsWith('.') && !MAY_LOAD[folderOf(file)].includes(s))
        .map((s) => `${file} → ${s}`),
    );
    expect(refused).toEqual([]);
  });

  it('take only types from @opentelemetry/api: it is an optional peer, loaded at run time when the application has it', () => {
    const valueImports = files.filter((file) => /^import (?!type )[^;]*'@opentelemetry\/api'/m.test(readFileSync(join(RUNTIME, file), 'utf8')));
    expect(valueImports).toEqual([]);
    expect(files.filter((file) => /^import type [^;]*'@opentelemetry\/api'/m.test(readFileSync(join(RUNTIME, file), 'utf8'))).length).toBeGreaterThan(0);
  });

  it('see every import (the checks would pass vacuously otherwise)', () => {
    const all = files.flatMap(specifiersOf);
    expect(all.filter((s) => s.startsWith('.')).length).toBeGreaterThan(100);
    expect(all.filter((s) => s.startsWith('@nats-io/') || s === 'ioredis').length).toBeGreaterThan(5);
  });
});
