import { byCodeUnit } from '../../runtime/contract/code-unit-order.js';
import type { SourcePosition } from '../model.js';

/** One thing wrong (or worth a warning) in the catalog, at a position in a catalog file. */
export interface CatalogProblem {
  severity: 'error' | 'warning';
  position: SourcePosition;
  message: string;
  /** For warnings: what warnings of this kind are, as a plural phrase, for the one-line summary (`shared types used by no event`). */
  kind?: string;
}

/** `catalog/02-account-events.yaml:12:7`: what editors and CI logs link on. */
export const formatPosition = ({ file, line, col }: SourcePosition): string => `${file}:${line}:${col}`;

/** `catalog/02-account-events.yaml:12:7 <message>`; warnings carry a `warning:` prefix. */
export function formatProblem(problem: CatalogProblem): string {
  const prefix = problem.severity === 'warning' ? 'warning: ' : '';
  return `${formatPosition(problem.position)} ${prefix}${problem.message}`;
}

/**
 * Warnings are facts of the catalog, not work to do: a kind that occurs more than once is one
 * line with its count; `verbose` lists each. Returns the lines to print.
 */
export function formatWarnings(warnings: readonly CatalogProblem[], verbose: boolean, detailsFlag = '--verbose'): string[] {
  if (verbose) return warnings.map(formatProblem);
  const byKind = new Map<string, CatalogProblem[]>();
  for (const warning of warnings) {
    const kind = warning.kind ?? warning.message;
    byKind.set(kind, [...(byKind.get(kind) ?? []), warning]);
  }
  return [...byKind].map(([kind, group]) => (group.length === 1 ? formatProblem(group[0]!) : `warning: ${group.length} ${kind} (${detailsFlag} lists them)`));
}

/** Plain code-unit order: by file, then line, then column. */
export function compareProblems(a: CatalogProblem, b: CatalogProblem): number {
  return byCodeUnit(a.position.file, b.position.file) || a.position.line - b.position.line || a.position.col - b.position.col;
}

/** Collects problems while a stage runs, so every mistake is reported in one pass, and each once. */
export class ProblemList {
  readonly items: CatalogProblem[] = [];

  error(position: SourcePosition, message: string): void {
    this.add({ severity: 'error', position, message });
  }

  warning(position: SourcePosition, message: string, kind?: string): void {
    this.add({ severity: 'warning', position, message, ...(kind !== undefined && { kind }) });
  }

  get errors(): CatalogProblem[] {
    return this.items.filter((p) => p.severity === 'error').sort(compareProblems);
  }

  get warnings(): CatalogProblem[] {
    return this.items.filter((p) => p.severity === 'warning').sort(compareProblems);
  }

  private add(problem: CatalogProblem): void {
    const same = (p: CatalogProblem): boolean => p.message === problem.message && compareProblems(p, problem) === 0;
    if (!this.items.some(same)) this.items.push(problem);
  }
}
