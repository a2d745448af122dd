/**
 * Where the baseline of a compatibility check comes from:
 *
 * - a manifest file (`*.json`, or any path that exists): `catalog/baseline/manifest.json`
 *   (the default, committed, updated when a release is cut), or the `manifest.json` shipped in
 *   an installed copy of the package;
 * - otherwise a git ref (`origin/main`, `v1.2.0`, a commit): `generated/manifest.json` as it
 *   was committed at that ref, read with `git show`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { sourcesPhrase } from '../common/banner.js';
import { manifestOf } from '../common/manifest.js';
import { stableJson } from '../common/text.js';
import type { CatalogModel } from '../model.js';
import { checkManifestFormat } from './manifest-format.js';
import { ManifestShapeError, snapshotFromManifest, type CatalogSnapshot } from './snapshot.js';

export const DEFAULT_BASELINE = 'catalog/baseline/manifest.json';
/** The manifest's path inside the repository, read at a git ref. */
export const MANIFEST_AT_REF = 'generated/manifest.json';

/** The baseline cannot be read: unknown ref, missing file, not JSON, not a manifest. */
export class BaselineError extends Error {}

export interface Baseline {
  /** `catalog/baseline/manifest.json`, or `git:origin/main`. */
  label: string;
  snapshot: CatalogSnapshot;
}

/** True when `against` names a manifest file rather than a git ref. */
export function isManifestPath(against: string, cwd = process.cwd()): boolean {
  const path = resolve(cwd, against);
  return against.endsWith('.json') || (existsSync(path) && statSync(path).isFile());
}

function parseManifest(text: string, label: string): CatalogSnapshot {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BaselineError(`${label} is not JSON: ${(error as Error).message}`);
  }
  try {
    checkManifestFormat(json);
    return snapshotFromManifest(json);
  } catch (error) {
    if (error instanceof ManifestShapeError) throw new BaselineError(`${label} is not a catalog manifest: ${error.message}`);
    throw error;
  }
}

function git(args: string[], cwd: string) {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.error) throw new BaselineError(`cannot run git: ${run.error.message}`);
  return run;
}

/** `generated/manifest.json` as committed at `ref`. */
export function readBaselineAtRef(ref: string, cwd = process.cwd()): Baseline {
  const label = `git:${ref}`;
  if (ref.startsWith('-') || ref.trim() === '') throw new BaselineError(`"${ref}" is not a git ref`);
  if (git(['rev-parse', '--git-dir'], cwd).status !== 0) throw new BaselineError(`cannot read ${ref}: ${cwd} is not inside a git repository`);
  if (git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd).status !== 0) {
    throw new BaselineError(`unknown git ref "${ref}": no branch, tag or commit of that name (fetch it first, e.g. git fetch origin --tags)`);
  }
  const show = git(['show', `${ref}:${MANIFEST_AT_REF}`], cwd);
  if (show.status !== 0) throw new BaselineError(`${ref} has no ${MANIFEST_AT_REF} (${show.stderr.trim().split('\n')[0]})`);
  return { label, snapshot: parseManifest(show.stdout, `${MANIFEST_AT_REF} at ${ref}`) };
}

export function readBaselineFile(path: string, cwd = process.cwd()): Baseline {
  const full = resolve(cwd, path);
  if (!existsSync(full)) throw new BaselineError(`baseline file not found: ${path}`);
  return { label: path, snapshot: parseManifest(readFileSync(full, 'utf8'), path) };
}

/** A manifest file when `against` is one (see `isManifestPath`), else a git ref. */
export function readBaseline(against: string = DEFAULT_BASELINE, cwd = process.cwd()): Baseline {
  return isManifestPath(against, cwd) ? readBaselineFile(against, cwd) : readBaselineAtRef(against, cwd);
}

/**
 * The committed baseline's text: the catalog's manifest (the format of `generated/manifest.json`),
 * with a banner saying how it is updated instead of the generator's.
 */
export function baselineManifest(model: CatalogModel): string {
  const comment = `Compatibility baseline: the manifest of ${sourcesPhrase(model.sourceFiles)} at the last release, written by \`npm run compat -- --update-baseline\`. Do not edit by hand; see catalog/baseline/README.md.`;
  return stableJson({ ...manifestOf(model), $comment: comment });
}
