/**
 * The package as `npm pack` makes it, packed once per state of its sources and shared by every
 * test that installs it (they run in parallel processes): the tarball is kept under
 * `.cache/packed/<hash of the sources>.tgz`, and the first process to need it packs it while
 * the others wait on a lock. It is packed in a copy of the sources without `dist/`, so that
 * `npm pack` must build the package itself (prepack), as a publish from a clean clone does,
 * and no test rebuilds the repository's own `dist/` under another's feet.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** What `npm pack` reads to build and pack the package. */
const SOURCES = ['runtime', 'generated', 'generator', 'scripts', 'package.json', 'tsconfig.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
const CACHE = join(ROOT, '.cache/packed');
/** Longer than a pack takes on two slow cores: a lock older than this was left by a process that died. */
const STALE_LOCK_MS = 10 * 60_000;

function filesOf(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A fingerprint of every file the pack reads: path and contents. */
function sourcesHash(): string {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap((path) => filesOf(join(ROOT, path))).sort()) {
    hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** The path of the packed tarball of the sources as they are now; packs it if no process has yet. */
export function packedTarball(): string {
  mkdirSync(CACHE, { recursive: true });
  const tarball = join(CACHE, `${sourcesHash()}.tgz`);
  const lock = join(CACHE, 'lock');
  while (!existsSync(tarball)) {
    try {
      mkdirSync(lock);
    } catch {
      // Another process packs: wait for it, unless its lock is stale.
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      pause(500);
      continue;
    }
    try {
      if (!existsSync(tarball)) pack(tarball);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return tarball;
}

function pack(tarball: string): void {
  const work = mkdtempSync(join(tmpdir(), 'pack-'));
  // Beside the tarball's place, so that the rename below stays on one file system.
  const destination = join(CACHE, `packing-${process.pid}`);
  try {
    const source = join(work, 'source');
    for (const path of SOURCES) if (existsSync(join(ROOT, path))) cpSync(join(ROOT, path), join(source, path), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'));
    mkdirSync(destination, { recursive: true });
    const name = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], { cwd: source, encoding: 'utf8' }).trim().split('\n').pop()!;
    // Renamed into place whole: a process that finds the file finds it complete.
    renameSync(join(destination, name), tarball);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(destination, { recursive: true, force: true });
  }
}
