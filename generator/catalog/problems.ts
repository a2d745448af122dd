import type { SourcePosition } from '../model.js';

/** One thing wrong (or worth a warning) in the catalog, at a position in a catalog file. */
export interface CatalogProblem {
  severity: 'error' | 'warning';
  position: SourcePosition;
  message: string;
}

/** `catalog/02-account-events.yaml:12:7 <message>`; warnings carry a `warning:` prefix. */
export function formatProblem(problem: CatalogProblem): string {
  const { file, line, col } = problem.position;
  const prefix = problem.severity === 'warning' ? 'warning: ' : '';
  return `${file}:${line}:${col} ${prefix}${problem.message}`;
}

/** Plain code-unit order: by file, then line, then column. */
export function compareProblems(a: CatalogProblem, b: CatalogProblem): number {
  if (a.position.file !== b.position.file) return a.position.file < b.position.file ? -1 : 1;
  return a.position.line - b.position.line || a.position.col - b.position.col;
}

/** Collects problems while a stage runs, so every mistake is reported in one pass. */
export class ProblemList {
  readonly items: CatalogProblem[] = [];

  error(position: SourcePosition, message: string): void {
    this.items.push({ severity: 'error', position, message });
  }

  warning(position: SourcePosition, message: string): void {
    this.items.push({ severity: 'warning', position, message });
  }

  get errors(): CatalogProblem[] {
    return this.items.filter((p) => p.severity === 'error').sort(compareProblems);
  }

  get warnings(): CatalogProblem[] {
    return this.items.filter((p) => p.severity === 'warning').sort(compareProblems);
  }
}
