import type { CatalogModel } from '../../model.js';
import type { ProblemList } from '../problems.js';
import type { RawCatalog } from '../read/raw-catalog.js';

/**
 * A named check of the catalog. Declaration rules read every file's raw declarations before
 * anything is resolved; model rules read the resolved model. Each reports every failure it
 * finds, positioned, and never stops the others.
 */
export interface DeclarationRule {
  name: string;
  check(catalog: RawCatalog, problems: ProblemList): void;
}

export interface ModelRule {
  name: string;
  check(model: CatalogModel, problems: ProblemList): void;
}
