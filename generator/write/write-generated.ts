import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { link, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { byCodeUnit } from '../../runtime/contract/code-unit-order.js';
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
 * data of the files it keeps (they keep their modification times too). Folders are made and
 * files placed several at a time, on libuv's threads: each waits on the file system, not on
 * the processor.
 */
export async function writeGenerated(outDir: string, files: EmittedFile[]): Promise<void> {
  await replaceFolder(outDir, async (staging) => {
    for (const level of foldersByDepth(files)) await eachAtOnce(level, (dir) => mkdir(join(staging, dir)));
    await eachAtOnce(files, (file) => placeFile(join(outDir, file.path), join(staging, file.path), file.contents));
  });
}

/** Every folder the files need (their parents included), shallowest first: a level's folders can be made at once. */
function foldersByDepth(files: readonly EmittedFile[]): string[][] {
  const folders = new Set<string>();
  for (const file of files) for (let dir = posix.dirname(file.path); dir !== '.' && !folders.has(dir); dir = posix.dirname(dir)) folders.add(dir);
  const levels: string[][] = [];
  for (const dir of folders) (levels[dir.split('/').length - 1] ??= []).push(dir);
  return levels.filter((level) => level !== undefined);
}

/** Hard-links `current` to `path` when it holds exactly `contents`; otherwise writes `contents` to `path`. */
async function placeFile(current: string, path: string, contents: string): Promise<void> {
  try {
    if ((await readFile(current, 'utf8')) === contents) return await link(current, path);
  } catch {
    // no such file, a folder, or a file system without hard links: written instead
  }
  await writeFile(path, contents);
}

/** Jobs at a time: enough to keep libuv's threads busy, few enough to stay far below the open-file limit. */
const AT_ONCE = 32;

/**
 * Runs `job` for every item, `AT_ONCE` at a time; after a failure no new job starts. Settles
 * only when every started job has, so nothing is still writing when the caller cleans up.
 */
async function eachAtOnce<T>(items: readonly T[], job: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await job(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
  if (failure) throw failure.error;
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
