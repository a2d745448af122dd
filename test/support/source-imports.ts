/**
 * Every import of the project's code as the TypeScript compiler's own pre-processor reads it:
 * static imports and re-exports (type-only ones too), side-effect imports, `import()` and
 * `require()` with a literal specifier, in TypeScript and in JavaScript (`.mjs`, `.cjs`) files,
 * never a word inside a comment or a string. The layering tests read the house through it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The package root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const CODE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;

/** Every code file below `folder` (a path from the root), as paths from the root; fixtures (files of fixture catalogs' outputs) left out. */
export function codeFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && CODE.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((path) => !path.split('/').includes('fixtures') && !path.split('/').includes('node_modules'));
}

export interface SourceImport {
  /** The importing file, from the root. */
  file: string;
  /** As written. */
  specifier: string;
  /** For a relative specifier: the file it names, from the root (`.js` read as the `.ts` beside it); `../` first when it leaves the root. */
  target?: string;
}

/** The imports of one file (a path from the root). */
export function importsOf(file: string): SourceImport[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return importedFiles.map(({ fileName: specifier }) => {
    if (!specifier.startsWith('.')) return { file, specifier };
    let target = posix.normalize(posix.join(posix.dirname(file), specifier));
    if (target.endsWith('.js') && existsSync(join(ROOT, target.replace(/\.js$/, '.ts')))) target = target.replace(/\.js$/, '.ts');
    return { file, specifier, target };
  });
}

/** Import circles among `files`: each a list of files, the first imported again by the last. */
export function circlesAmong(files: readonly string[]): string[][] {
  const inside = new Set(files);
  const arrows = new Map(files.map((file) => [file, [...new Set(importsOf(file).flatMap((i) => (i.target !== undefined && inside.has(i.target) ? [i.target] : [])))]]));
  const circles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of arrows.get(file) ?? []) {
      if (state.get(next) === 'open') circles.push(path.slice(path.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return circles;
}

/** The folder a root-relative path is in, for messages: `runtime/rest/validate.ts` → `runtime`. */
export const topFolderOf = (path: string): string => path.split('/')[0]!;
