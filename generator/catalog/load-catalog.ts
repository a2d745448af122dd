import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { byCodeUnit } from '../../runtime/contract/code-unit-order.js';
import type { CatalogModel } from '../model.js';
import { checkCatalogFileName } from './catalog-file-name.js';
import { ProblemList, type CatalogProblem } from './problems.js';
import { mergeFiles, type RawCatalogFile } from './read/raw-catalog.js';
import { readCatalogFile } from './read/read-catalog-file.js';
import { resolveCatalog } from './resolve/resolve-catalog.js';
import { DECLARATION_RULES, MODEL_RULES } from './rules/index.js';

export interface CatalogSourceFile {
  /** Path shown in messages, e.g. `catalog/02-account-events.yaml`. */
  path: string;
  text: string;
}

export interface LoadResult {
  /** Present only when there are no errors. */
  model?: CatalogModel;
  errors: CatalogProblem[];
  warnings: CatalogProblem[];
}

/**
 * The load stage: read each file (YAML → raw declarations), check every declaration rule,
 * resolve into the model, check every model rule. Every problem of every step is collected;
 * any error means no model.
 */
export function loadCatalog(files: CatalogSourceFile[]): LoadResult {
  const problems = new ProblemList();
  if (files.length === 0) problems.error({ file: 'catalog', line: 1, col: 1 }, 'no catalog files (*.yaml) found');
  const raw: RawCatalogFile[] = [];
  for (const file of files) {
    const parsed = readCatalogFile(checkCatalogFileName(file.path, problems), file.text, problems);
    if (parsed) raw.push(parsed);
  }
  const catalog = mergeFiles(raw);
  for (const rule of DECLARATION_RULES) rule.check(catalog, problems);
  const model = resolveCatalog(catalog, problems);
  for (const rule of MODEL_RULES) rule.check(model, problems);
  const { errors, warnings } = problems;
  return errors.length > 0 ? { errors, warnings } : { model, errors, warnings };
}

/**
 * Reads every `*.yaml` file of a catalog folder, in plain code-unit order of file names, then
 * those of its `api/` folder (the REST API).
 * Paths in messages and banners are relative to `displayRoot` (default: the working
 * directory, which `npm run` sets to the package root).
 */
export function readCatalogDir(dir: string, displayRoot = process.cwd()): CatalogSourceFile[] {
  // The REST API's files sit in their own folder, read after the events'.
  const apiDir = join(dir, API_DIR);
  return [...readYamlFiles(dir, displayRoot), ...(existsSync(apiDir) ? readYamlFiles(apiDir, displayRoot) : [])];
}

function readYamlFiles(dir: string, displayRoot: string): CatalogSourceFile[] {
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.yaml'))
    .sort(byCodeUnit);
  return names.map((name) => ({
    path: relative(displayRoot, join(dir, name)).split('\\').join('/'),
    text: readFileSync(join(dir, name), 'utf8'),
  }));
}

/** The catalog's folder for the REST API (`catalog/api/*.yaml`). */
export const API_DIR = 'api';

export function loadCatalogFromDisk(dir: string): LoadResult {
  return loadCatalog(readCatalogDir(dir));
}
