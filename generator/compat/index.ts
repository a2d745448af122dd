/**
 * Compatibility of the catalog with a baseline, as a library: `npm run compat` is a thin
 * command line around `checkCompatibility`, and the CI gate (test/compat) calls it directly.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCatalog, readCatalogDir } from '../catalog/load-catalog.js';
import type { CatalogProblem } from '../catalog/problems.js';
import type { CatalogModel } from '../model.js';
import { BaselineError, DEFAULT_BASELINE, readBaseline } from './baseline.js';
import { compareSnapshots, type CompatReport } from './diff.js';
import { snapshotFromModel } from './snapshot.js';

export { BaselineError, DEFAULT_BASELINE, baselineManifest, isManifestPath, readBaseline, readBaselineAtRef, readBaselineFile } from './baseline.js';
export { compareSnapshots, nextVersion, versionHistory, type Change, type CompatReport, type EventVerdict, type VersionStep } from './diff.js';
export { formatReport } from './report.js';
export { KINDS, RULES, rulesTable, type ChangeKind, type Rule, type Severity } from './rules.js';
export { snapshotFromManifest, snapshotFromModel, type CatalogSnapshot } from './snapshot.js';

export interface CheckOptions {
  /** The catalog folder (default `catalog`). */
  catalog?: string;
  /** A manifest file or a git ref (default `catalog/baseline/manifest.json`). */
  against?: string;
  /** Where relative paths are resolved and git runs (default: the working directory). */
  cwd?: string;
}

export type CheckResult =
  | { ok: true; report: CompatReport; model: CatalogModel }
  /** Nothing was compared: the catalog does not load, or the baseline cannot be read. */
  | { ok: false; error: string; problems: CatalogProblem[] };

/** The current side: the catalog folder loaded in memory (not the committed `generated/`). */
export function loadCurrentCatalog(catalog = 'catalog', cwd = process.cwd()): { model: CatalogModel } | { error: string; problems: CatalogProblem[] } {
  const catalogDir = resolve(cwd, catalog);
  if (!existsSync(catalogDir)) return { error: `catalog folder not found: ${catalog}`, problems: [] };
  const loaded = loadCatalog(readCatalogDir(catalogDir, cwd));
  if (!loaded.model) return { error: `the catalog has ${loaded.errors.length} error(s); fix them first (npm run catalog:check)`, problems: loaded.errors };
  return { model: loaded.model };
}

/** Loads the catalog in memory and compares it with the baseline. */
export function checkCompatibility(options: CheckOptions = {}): CheckResult {
  const cwd = options.cwd ?? process.cwd();
  const current = loadCurrentCatalog(options.catalog, cwd);
  if ('error' in current) return { ok: false, ...current };
  try {
    const baseline = readBaseline(options.against ?? DEFAULT_BASELINE, cwd);
    return { ok: true, report: compareSnapshots(baseline.snapshot, snapshotFromModel(current.model), baseline.label), model: current.model };
  } catch (error) {
    if (error instanceof BaselineError) return { ok: false, error: error.message, problems: [] };
    throw error;
  }
}

/** 0: nothing breaks; 1: a breaking change; 2: nothing could be compared. */
export const exitCodeOf = (result: CheckResult): 0 | 1 | 2 => (!result.ok ? 2 : result.report.breaking ? 1 : 0);
