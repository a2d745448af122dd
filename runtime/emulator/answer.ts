/**
 * What an operation's handler decides: the reply, and what it did (the outcome whose events
 * the catalog names, the move of the seed's state machine it took).
 */
import type { ValidationErrorBody } from '../rest/index.js';
import type { EventFacts } from './events.js';

export interface Reply {
  status: number;
  /** A JSON body. */
  body?: unknown;
  /** A plain-text body: the seed's own words (the dry run's sentence). */
  text?: string;
  headers?: Record<string, string>;
}

/** The moves of the seed's "Observable moves" table. */
export const TRANSITIONS = {
  staged: { from: 'no data', trigger: 'stage', to: 'staged (pending)' },
  restaged: { from: 'staged (pending)', trigger: 'stage again', to: 'staged (pending)' },
  imported: { from: 'staged (pending)', trigger: 'process with dry_run false', to: 'account created (imported)' },
  dryRun: { from: 'staged (pending)', trigger: 'process with dry_run true', to: 'staged (pending)' },
} as const;
export type Transition = keyof typeof TRANSITIONS;

export interface Answer {
  reply: Reply;
  /** An outcome of `apiOperationEvents` (`created`, `refused`, …), and what its events say. */
  outcome?: { name: string; facts: EventFacts };
  transition?: Transition;
}

/** The seed's validation error body: `detail`, a stable `code`, and one error at `attr` when the problem has a place. */
export function errorBody(detail: string, code: string, attr?: string): ValidationErrorBody {
  return { detail, code, errors: attr === undefined ? [] : [{ detail, code, attr }] };
}

/** A refusal in the seed's validation error body. */
export const refusal = (status: number, detail: string, code: string, attr?: string): Reply => ({ status, body: errorBody(detail, code, attr) });
