/**
 * Arrows point one way, in the house and inside the generator. The house: each top-level part
 * imports only the parts below it (generator/ARCHITECTURE.md, "The house", draws the same
 * map). The generator: each folder imports only the folders below it. Every import is read
 * (test/support/source-imports.ts): those that leave their folder, type-only ones, `import()`
 * and `require()`, and those of `.mjs` files.
 */
import { describe, expect, it } from 'vitest';
import { circlesAmong, codeFiles, importsOf, type SourceImport } from '../support/source-imports.js';

/**
 * The parts of the house: the top-level code folders, with `generated/` cut in two (the
 * per-event entries import the runtime's `defineEventValidator`; the rest of it only the
 * runtime's contract) and `runtime/contract/` apart (what generated code and the runtime agree
 * on and the generator reads: it imports nothing).
 */
type Part = 'test' | 'scripts' | 'site-builder' | 'generator' | 'generated/events' | 'runtime' | 'generated' | 'runtime/contract' | 'dist';

/** What each part may import besides itself. `dist` is the built package, which the site bundles for the browser. */
const MAY_IMPORT: Record<Part, readonly Part[]> = {
  test: ['scripts', 'site-builder', 'generator', 'generated/events', 'runtime', 'generated', 'runtime/contract', 'dist'],
  scripts: ['generator', 'generated/events', 'runtime', 'generated', 'runtime/contract'],
  // The site reads what the package publishes: the runtime, generated/ and dist/; never the generator or the scripts.
  'site-builder': ['runtime', 'generated/events', 'generated', 'runtime/contract', 'dist'],
  // The generator reads the contract it writes code against, and nothing else of the runtime.
  generator: ['runtime/contract'],
  'generated/events': ['runtime', 'generated', 'runtime/contract'],
  runtime: ['generated', 'runtime/contract'],
  generated: ['runtime/contract'],
  'runtime/contract': [],
  dist: [],
};

const TOP_FOLDERS = ['test', 'scripts', 'site-builder', 'generator', 'generated', 'runtime'] as const;

function partOf(path: string): Part | undefined {
  if (path.startsWith('runtime/contract/')) return 'runtime/contract';
  if (path.startsWith('generated/events/')) return 'generated/events';
  const top = path.split('/')[0]!;
  return top in MAY_IMPORT ? (top as Part) : undefined;
}

describe('the house', () => {
  const files = TOP_FOLDERS.flatMap((folder) => codeFiles(folder));
  const imports = files.flatMap(importsOf);
  const relative = imports.filter((i): i is SourceImport & { target: string } => i.target !== undefined);

  it('has one direction: no part reaches itself through the parts it may import', () => {
    const reaches = (from: Part, seen = new Set<Part>()): Set<Part> => {
      for (const next of MAY_IMPORT[from]) if (!seen.has(next)) reaches(next, seen.add(next));
      return seen;
    };
    expect((Object.keys(MAY_IMPORT) as Part[]).filter((part) => reaches(part).has(part))).toEqual([]);
  });

  it('imports only downward: each import stays in its part or names a part below it', () => {
    const upward = relative.flatMap(({ file, target }) => {
      const from = partOf(file)!;
      const to = partOf(target);
      const arrow = `${file} → ${target}`;
      if (to === undefined) return [`${arrow} (outside the house's code)`];
      return to === from || MAY_IMPORT[from].includes(to) ? [] : [arrow];
    });
    expect(upward).toEqual([]);
  });

  it('has no import circle, file to file', () => {
    expect(circlesAmong(files)).toEqual([]);
  });

  it('sees every import: across parts, in .mjs files, dynamic ones (the checks would pass vacuously otherwise)', () => {
    expect(relative.filter(({ file, target }) => partOf(file) !== partOf(target)).length).toBeGreaterThan(500);
    expect(imports.filter((i) => i.file.endsWith('.mjs')).length).toBeGreaterThan(3);
    expect(relative.filter((i) => partOf(i.file) === 'generator' && partOf(i.target) === 'runtime/contract').length).toBeGreaterThan(5);
    expect(relative.filter((i) => partOf(i.file) === 'site-builder' && partOf(i.target) !== 'site-builder').length).toBeGreaterThan(0);
  });
});

/** Highest first. A file may import from its own layer and any layer below it. */
const LAYERS = ['cli', 'generate', 'write', 'emit', 'compat', 'catalog', 'common', 'samples', 'model'];

/** `generator/cli/generate.ts` → `cli`; the two root files are their own layers. */
const layerOf = (path: string): string => {
  const inside = path.slice('generator/'.length);
  return inside.includes('/') ? inside.split('/')[0]! : inside.replace(/\.ts$/, '');
};

describe('generator folders', () => {
  const files = codeFiles('generator');
  const inside = files.flatMap(importsOf).filter((i): i is SourceImport & { target: string } => i.target?.startsWith('generator/') === true);

  it('are all placed in a layer', () => {
    expect(files.map(layerOf).filter((layer) => !LAYERS.includes(layer))).toEqual([]);
  });

  it('import only from their own layer or a lower one: no arrow points back up', () => {
    const upward = inside.filter(({ file, target }) => LAYERS.indexOf(layerOf(target)) < LAYERS.indexOf(layerOf(file))).map(({ file, target }) => `${file} → ${target}`);
    expect(upward).toEqual([]);
  });

  it('see every import (the check would pass vacuously otherwise)', () => {
    expect(inside.length).toBeGreaterThan(150);
    expect(files.filter((f) => f.endsWith('.mjs')).length).toBeGreaterThan(0);
  });
});
