/**
 * A private copy of the built package (`dist/`) for the site's tests: other tests pack the
 * package, which rebuilds `dist/` in place, so the site is built from a copy taken while
 * `dist/` is complete and from the same generation as `generated/` (built first when it is
 * not, as `npm run build` would).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** What is missing or stale in a built package, or `undefined` when it is whole. */
export function packageProblem(root: string, dist: string): string | undefined {
  const registry = join(dist, 'registry.cjs');
  if (!existsSync(registry)) return `${dist} has no registry.cjs`;
  if (readFileSync(registry, 'utf8') !== readFileSync(join(root, 'generated', 'registry.cjs'), 'utf8')) return `${dist} was built from another generation`;
  const manifest = JSON.parse(readFileSync(join(root, 'generated', 'manifest.json'), 'utf8')) as { events: { type: string; version: string }[] };
  const needed = ['index.cjs', 'index.js', 'entries.js', 'rest.cjs', 'payload-errors.cjs', ...manifest.events.flatMap((e) => [`events/${e.type}/${e.version}.js`, `validators/${e.type}/${e.version}.cjs`])];
  const missing = needed.filter((file) => !existsSync(join(dist, file)));
  return missing.length > 0 ? `${dist} lacks ${missing.length} files (${missing.slice(0, 3).join(', ')}…)` : undefined;
}

/** Copies `root/dist` to `into` (building it first when needed) and returns the copy's path. */
export function copyBuiltPackage(root: string, into: string): string {
  const problems: string[] = [];
  for (let attempt = 1; attempt <= 3; attempt++) {
    if (packageProblem(root, join(root, 'dist')) !== undefined) {
      const built = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-package.ts'], { cwd: root, encoding: 'utf8' });
      if (built.status !== 0) throw new Error(`npm run build failed:\n${built.stdout}${built.stderr}`);
    }
    rmSync(into, { recursive: true, force: true });
    cpSync(join(root, 'dist'), into, { recursive: true });
    // Rebuilt by someone else while it was copied: copy again.
    const problem = packageProblem(root, into);
    if (problem === undefined) return into;
    problems.push(problem);
  }
  throw new Error(`could not copy a whole built package: ${problems.join('; ')}`);
}
