/**
 * The REST client's tests against the contract emulator (`runtime/emulator/`), in-process on
 * 127.0.0.1: the seed's state machine, every request checked with `validateRequest` and every
 * answer with `validateResponse` (an answer that would break the contract is a 500 and a
 * violation in the coverage, read here as `responseProblems`). Faults go through the
 * emulator's own `POST /_emulator/faults`; hit counts are its coverage.
 */
import type { IncomingMessage } from 'node:http';
import { startEmulator } from '../../runtime/emulator/index.js';
import type { OperationId } from '../../runtime/rest/index.js';

export { DRY_RUN_TEXT } from '../../runtime/emulator/index.js';

/** A canned answer for the next requests of one operation: a status, or a dropped connection. */
export interface Fault {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Drop the connection without answering (a network error at the client). */
  dropConnection?: boolean;
}

export interface ContractServer {
  url: string;
  /** Requests answered (or dropped) per operation id, valid or not; an operation never called is absent. */
  readonly hits: Record<string, number>;
  /** The headers of the last request. */
  readonly lastHeaders: IncomingMessage['headers'];
  /** The query of the last request, as received. */
  readonly lastQuery: Record<string, string>;
  /** Answers that would have broken the contract (should stay empty). */
  readonly responseProblems: string[];
  /** Answer the next `times` requests of an operation with `fault` instead. */
  inject(operationId: OperationId, fault: Fault, times?: number): Promise<void>;
  /** Back to the start: no accounts, hits or faults. */
  reset(): void;
  close(): Promise<void>;
}

/** Ongoing, Paused and Complete: the three supplier statuses. */
const SUPPLIERS = { SUP: { status: 'Ongoing' }, PAUSED: { status: 'Paused' }, DONE: { status: 'Complete' } } as const;

export async function startContractServer(): Promise<ContractServer> {
  let lastHeaders: IncomingMessage['headers'] = {};
  let lastQuery: Record<string, string> = {};
  const emulator = await startEmulator({
    port: 0,
    suppliers: SUPPLIERS,
    onRequest(request) {
      lastHeaders = request.headers;
      lastQuery = Object.fromEntries(new URL(request.url ?? '/', 'http://emulator').searchParams);
    },
  });
  return {
    url: emulator.url,
    get hits() {
      const hits: Record<string, number> = {};
      for (const [operationId, { answered, dropped }] of Object.entries(emulator.coverage().operations)) {
        const count = Object.values(answered).reduce((sum, n) => sum + n, dropped);
        if (count > 0) hits[operationId] = count;
      }
      return hits;
    },
    get lastHeaders() {
      return lastHeaders;
    },
    get lastQuery() {
      return lastQuery;
    },
    get responseProblems() {
      return emulator.coverage().violations;
    },
    async inject(operationId, fault, times = 1) {
      const response = await fetch(`${emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ operationId, times, ...fault }) });
      if (response.status !== 201) throw new Error(`the emulator refused the fault: ${response.status} ${await response.text()}`);
    },
    reset: () => emulator.reset(),
    close: () => emulator.close(),
  };
}
