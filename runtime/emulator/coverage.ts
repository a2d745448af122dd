/**
 * What a run exercised: per operation the statuses it answered (and the contract's statuses
 * it never did), faults served, connections dropped; the outcomes and events of the catalog's
 * mapping; the seed's moves taken; and every answer that would have broken the contract.
 */
import { apiOperationDetails, apiOperations } from '../../generated/api/operations.js';
import type { OperationId } from '../rest/index.js';
import { TRANSITIONS, type Transition } from './answer.js';
import { mappedOutcomes } from './events.js';

export interface OperationCoverage {
  /** Responses sent, by status (faults included). */
  answered: Record<string, number>;
  /** Statuses the contract names for the operation that no response had yet. */
  notAnswered: number[];
  /** Answers that were injected faults. */
  faults: number;
  /** Connections dropped by a fault, without an answer. */
  dropped: number;
}

export interface EmulatorCoverage {
  operations: Record<OperationId, OperationCoverage>;
  /** Per operation, how often each outcome of the catalog's mapping happened. */
  outcomes: Record<string, Record<string, number>>;
  /** Events emitted, by `type@version`: every event the mapping names, 0 when none was. */
  events: Record<string, number>;
  /** The seed's observable moves, each with how often it was taken. */
  transitions: { from: string; trigger: string; to: string; count: number }[];
  /** Answers that would have broken the contract, each replaced by a 500 naming it: a bug of the emulator. */
  violations: string[];
}

export class CoverageCounter {
  private readonly answered = new Map<OperationId, Map<number, number>>();
  private readonly faults = new Map<OperationId, number>();
  private readonly dropped = new Map<OperationId, number>();
  private readonly outcomes = new Map<string, number>();
  private readonly events = new Map<string, number>(mappedOutcomes.flatMap((o) => o.events.map((key) => [key, 0] as const)));
  private readonly transitions = new Map<Transition, number>();
  private readonly violations: string[] = [];

  answer(operationId: OperationId, status: number, fault = false): void {
    const statuses = this.answered.get(operationId) ?? new Map<number, number>();
    this.answered.set(operationId, statuses.set(status, (statuses.get(status) ?? 0) + 1));
    if (fault) this.faults.set(operationId, (this.faults.get(operationId) ?? 0) + 1);
  }

  drop(operationId: OperationId): void {
    this.dropped.set(operationId, (this.dropped.get(operationId) ?? 0) + 1);
  }

  outcome(operationId: OperationId, outcome: string, events: readonly { type: string; version: string }[]): void {
    const key = `${operationId}\u0000${outcome}`;
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
    for (const e of events) this.events.set(`${e.type}@${e.version}`, (this.events.get(`${e.type}@${e.version}`) ?? 0) + 1);
  }

  transition(transition: Transition): void {
    this.transitions.set(transition, (this.transitions.get(transition) ?? 0) + 1);
  }

  violation(message: string): void {
    this.violations.push(message);
  }

  report(): EmulatorCoverage {
    const operations = Object.fromEntries(
      apiOperations.map(({ operationId }) => {
        const statuses = this.answered.get(operationId) ?? new Map<number, number>();
        const answered = Object.fromEntries([...statuses].sort(([a], [b]) => a - b).map(([status, n]) => [String(status), n]));
        const notAnswered = apiOperationDetails[operationId].responses.map((r) => r.status).filter((status) => !statuses.has(status));
        return [operationId, { answered, notAnswered, faults: this.faults.get(operationId) ?? 0, dropped: this.dropped.get(operationId) ?? 0 }];
      }),
    ) as Record<OperationId, OperationCoverage>;
    const outcomes: Record<string, Record<string, number>> = {};
    for (const { operationId, outcome } of mappedOutcomes) (outcomes[operationId] ??= {})[outcome] = this.outcomes.get(`${operationId}\u0000${outcome}`) ?? 0;
    return {
      operations,
      outcomes,
      events: Object.fromEntries(this.events),
      transitions: (Object.keys(TRANSITIONS) as Transition[]).map((t) => ({ ...TRANSITIONS[t], count: this.transitions.get(t) ?? 0 })),
      violations: [...this.violations],
    };
  }
}
