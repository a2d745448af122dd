/**
 * Replacing a whole folder so that a process killed at any moment (SIGKILL, an out-of-memory
 * kill, a closed terminal) leaves something the next run can finish or undo.
 *
 * Linux's renameat2(RENAME_EXCHANGE) would swap two folders in one step, but Node has no
 * binding for it (and other systems have no such call), so the swap takes two renames, and
 * between them the folder does not exist. Every step is therefore a rename to a name that
 * says how far the write got, and every command that reads or writes the folder first calls
 * `recoverInterruptedWrite`:
 *
 *   1. write every file into `<out>.writing-<pid>`     (a kill here: the old folder stays)
 *   2. rename it to `<out>.ready-<pid>`                (complete; the old folder stays)
 *   3. rename `<out>` to `<out>.previous-<pid>`        (a kill here: no `<out>`, see below)
 *   4. rename `<out>.ready-<pid>` to `<out>`           (the new folder is in place)
 *   5. rename `<out>.previous-<pid>` to `<out>.discarded-<pid>`, then delete it
 *
 * A kill between 3 and 4 leaves no `<out>` but a complete `ready` folder: recovery renames it
 * in (the run had finished its work). With no `ready` folder, a `previous` one is put back.
 * Every other leftover is deleted. Power loss is not covered: files are not fsynced.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** What a side folder's name says about it. `staging` is the partial folder of earlier versions. */
type SideState = 'writing' | 'staging' | 'ready' | 'previous' | 'discarded';

const sideFolder = (outDir: string, state: SideState, pid = process.pid): string => `${resolve(outDir)}.${state}-${pid}`;

const removeFolder = (path: string): void => rmSync(path, { recursive: true, force: true });

/**
 * Replaces `outDir` with a folder that `fill` writes: all or nothing, and recoverable after a
 * kill at any step (see above). If `fill` or a rename throws, the old folder stays or is put back.
 * `fill` may be asynchronous; it must have finished every write when its promise settles.
 */
export async function replaceFolder(outDir: string, fill: (dir: string) => void | Promise<void>): Promise<void> {
  recoverInterruptedWrite(outDir);
  const target = resolve(outDir);
  const writing = sideFolder(outDir, 'writing');
  const ready = sideFolder(outDir, 'ready');
  const previous = sideFolder(outDir, 'previous');
  try {
    mkdirSync(writing, { recursive: true });
    await fill(writing);
    renameSync(writing, ready);
  } catch (error) {
    removeFolder(writing);
    throw error;
  }
  const hadPrevious = existsSync(target);
  if (hadPrevious) renameSync(target, previous);
  try {
    renameSync(ready, target);
  } catch (error) {
    if (hadPrevious) renameSync(previous, target);
    removeFolder(ready);
    throw error;
  }
  if (!hadPrevious) return;
  const discarded = sideFolder(outDir, 'discarded');
  renameSync(previous, discarded);
  // Asynchronously: libuv's threads delete several entries at once, where one thread would
  // wait on the file system for each of the hundreds of folders in turn.
  await rm(discarded, { recursive: true, force: true });
}

interface SideFolder {
  path: string;
  state: SideState;
  pid: number;
}

/** True while another process of that id runs (its side folders are its own business). */
function isOtherProcessRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function leftoverSideFolders(outDir: string): SideFolder[] {
  const target = resolve(outDir);
  const parent = dirname(target);
  if (!existsSync(parent)) return [];
  const prefix = `${basename(target)}.`;
  const found: SideFolder[] = [];
  for (const name of readdirSync(parent)) {
    if (!name.startsWith(prefix)) continue;
    const match = /^(writing|staging|ready|previous|discarded)-(\d+)$/.exec(name.slice(prefix.length));
    if (!match) continue;
    const pid = Number(match[2]);
    if (!isOtherProcessRunning(pid)) found.push({ path: join(parent, name), state: match[1] as SideState, pid });
  }
  return found;
}

/** The side folders killed runs left beside `outDir`, by name, touching nothing (`--check`). */
export function interruptedWriteLeftovers(outDir: string): string[] {
  return leftoverSideFolders(outDir)
    .map((folder) => basename(folder.path))
    .sort();
}

/**
 * Finishes or undoes what a killed `replaceFolder` of `outDir` left, and deletes its side
 * folders (those of processes still running are left alone). Returns one line per thing done,
 * for the command to show; none when there was nothing to do.
 */
export function recoverInterruptedWrite(outDir: string): string[] {
  const target = resolve(outDir);
  const leftovers = leftoverSideFolders(outDir);
  const notes: string[] = [];
  let restored: SideFolder | undefined;
  if (!existsSync(target)) {
    const newest = (state: SideState) =>
      leftovers.filter((f) => f.state === state).sort((a, b) => statSync(b.path).mtimeMs - statSync(a.path).mtimeMs)[0];
    restored = newest('ready') ?? newest('previous');
    if (restored) {
      renameSync(restored.path, target);
      notes.push(
        restored.state === 'ready'
          ? `${outDir}: a killed run had finished writing but not moved its output in; moved it in (from ${basename(restored.path)})`
          : `${outDir}: a killed run had moved the folder aside; put it back (from ${basename(restored.path)})`,
      );
    }
  }
  const removed = leftovers.filter((f) => f !== restored);
  for (const folder of removed) removeFolder(folder.path);
  if (removed.length > 0) notes.push(`${outDir}: removed what killed runs left: ${removed.map((f) => basename(f.path)).join(', ')}`);
  return notes;
}
