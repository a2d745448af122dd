import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { byCodeUnit } from '../common/text.js';
import type { EmittedFile } from '../emit/emitted-file.js';
import { replaceFolder } from './replace-folder.js';

/** Every file under a directory, as `/`-separated paths relative to it, sorted. */
export function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(relative(dir, full).split('\\').join('/'));
    }
  };
  walk(dir);
  return out.sort(byCodeUnit);
}

/**
 * Replaces `outDir` with exactly `files`, all or nothing: everything is written to a
 * sibling folder first, then swapped in by renames (see `replaceFolder` for what a kill at
 * any step leaves, and how the next run finishes it). Stale files vanish with the old folder.
 *
 * A file whose text is already in `outDir` is hard-linked into the new folder instead of
 * written again: its old copy is never modified (only unlinked with the old folder), so the
 * guarantee holds, and regenerating a mostly unchanged catalog neither writes nor frees the
 * data of the files it keeps (they keep their modification times too).
 */
export function writeGenerated(outDir: string, files: EmittedFile[]): void {
  replaceFolder(outDir, (staging) => {
    for (const dir of new Set(files.map((file) => dirname(join(staging, file.path))))) mkdirSync(dir, { recursive: true });
    for (const file of files) {
      const path = join(staging, file.path);
      if (!linkIfUnchanged(join(outDir, file.path), path, file.contents)) writeFileSync(path, file.contents);
    }
  });
}

/** Hard-links `current` to `path` when it holds exactly `contents`; false when it does not exist, differs, or cannot be linked. */
function linkIfUnchanged(current: string, path: string, contents: string): boolean {
  try {
    if (readFileSync(current, 'utf8') !== contents) return false;
    linkSync(current, path);
    return true;
  } catch {
    return false; // no such file, a folder, or a file system without hard links: written instead
  }
}

export interface Staleness {
  /** On disk but different from a fresh generation. */
  stale: string[];
  /** Generated but not on disk. */
  missing: string[];
  /** On disk but no longer generated. */
  extra: string[];
  /** Unified diff of stale files (and of missing/extra ones against nothing). */
  diff: string;
}

/** Compares `outDir` with a fresh generation, writing nothing. */
export function compareGenerated(outDir: string, files: EmittedFile[], label = 'generated'): Staleness {
  const onDisk = new Set(listFiles(outDir));
  const result: Staleness = { stale: [], missing: [], extra: [], diff: '' };
  const patches: string[] = [];
  for (const file of files) {
    const name = `${label}/${file.path}`;
    if (!onDisk.has(file.path)) {
      result.missing.push(file.path);
      patches.push(createTwoFilesPatch('/dev/null', name, '', file.contents));
      continue;
    }
    onDisk.delete(file.path);
    const current = readFileSync(join(outDir, file.path), 'utf8');
    if (current !== file.contents) {
      result.stale.push(file.path);
      patches.push(createTwoFilesPatch(name, name, current, file.contents));
    }
  }
  for (const path of onDisk) {
    result.extra.push(path);
    patches.push(createTwoFilesPatch(`${label}/${path}`, '/dev/null', readFileSync(join(outDir, path), 'utf8'), ''));
  }
  result.diff = patches.join('');
  return result;
}
