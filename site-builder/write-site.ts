/**
 * Writes the site atomically: every file into a side folder, which then replaces the old
 * site in two renames, so a failed or killed build leaves the previous site whole. Side
 * folders of processes no longer running are removed first.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { SiteFile } from './bundle.js';

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function removeLeftovers(out: string): void {
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  const side = new RegExp(`^${basename(out).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(?:writing|previous)-(\\d+)$`);
  for (const name of readdirSync(parent)) {
    const match = side.exec(name);
    if (match && !isRunning(Number(match[1]))) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

export function writeSite(out: string, files: readonly SiteFile[]): void {
  removeLeftovers(out);
  const writing = `${out}.writing-${process.pid}`;
  const previous = `${out}.previous-${process.pid}`;
  rmSync(writing, { recursive: true, force: true });
  for (const file of files) {
    const target = join(writing, file.path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, file.contents);
  }
  const hadSite = existsSync(out);
  if (hadSite) renameSync(out, previous);
  renameSync(writing, out);
  if (hadSite) rmSync(previous, { recursive: true, force: true });
}
