/**
 * Arrows point one way between the generator's folders: each may import only from folders
 * below it. generator/ARCHITECTURE.md draws the same order.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const GENERATOR = fileURLToPath(new URL('../../generator/', import.meta.url));

/** Highest first. A file may import from its own layer and any layer below it. */
const LAYERS = ['cli', 'generate', 'write', 'emit', 'compat', 'catalog', 'common', 'samples', 'model'];

/** `cli/generate.ts` → `cli`; the two root files are their own layers. */
const layerOf = (path: string): string => (path.includes('/') ? path.split('/')[0]! : path.replace(/\.ts$/, ''));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(GENERATOR, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

/** Every relative import of a file, as a path inside generator/ (imports leaving generator/ are not arrows between its folders). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(GENERATOR, file), 'utf8');
  return [...text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)]
    .map((m) => relative(GENERATOR, resolve(GENERATOR, dirname(file), m[1]!)).split('\\').join('/').replace(/\.js$/, '.ts'))
    .filter((target) => !target.startsWith('..'));
}

describe('generator folders', () => {
  const files = sourceFiles(GENERATOR);

  it('are all placed in a layer', () => {
    expect(files.map(layerOf).filter((layer) => !LAYERS.includes(layer))).toEqual([]);
  });

  it('import only from their own layer or a lower one: no arrow points back up', () => {
    const upward: string[] = [];
    for (const file of files) {
      for (const target of importsOf(file)) {
        if (LAYERS.indexOf(layerOf(target)) < LAYERS.indexOf(layerOf(file))) upward.push(`${file} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('see every import (the check would pass vacuously otherwise)', () => {
    expect(files.flatMap(importsOf).length).toBeGreaterThan(50);
  });
});
