/**
 * Injected faults (`POST /_emulator/faults`): the next N calls of an operation answer a given
 * status (with a body, headers, `Retry-After`) or lose their connection, to exercise a
 * client's retry rules. Sent as asked: they are the caller's words, not the contract's.
 */
import { isPlainObject } from '../internal/plain-object.js';
import { apiOperations, type OperationId } from '../rest/index.js';

export interface Fault {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Close the connection without an answer (a network error at the client). */
  dropConnection?: boolean;
}

/** The JSON a test posts: `{ operationId, status | dropConnection, times?, retryAfter?, body?, headers? }`. */
export interface FaultRequest extends Fault {
  operationId: OperationId;
  /** How many calls in a row (default 1). */
  times?: number;
  /** Seconds, sent as the `Retry-After` header. */
  retryAfter?: number;
}

const KEYS = ['operationId', 'status', 'times', 'retryAfter', 'body', 'headers', 'dropConnection'];
const OPERATION_IDS: readonly string[] = apiOperations.map((op) => op.operationId);

/** A fault request read from JSON, or every problem with it. */
export function readFaultRequest(value: unknown): { ok: true; fault: FaultRequest } | { ok: false; problems: string[] } {
  if (!isPlainObject(value)) return { ok: false, problems: ['a fault is a JSON object: { "operationId", "status", "times", "retryAfter", "body", "headers", "dropConnection" }'] };
  const problems = Object.keys(value)
    .filter((key) => !KEYS.includes(key))
    .map((key) => `unknown key "${key}"; allowed: ${KEYS.join(', ')}`);
  const { operationId, status, times, retryAfter, headers, dropConnection } = value;
  if (typeof operationId !== 'string' || !OPERATION_IDS.includes(operationId)) problems.push(`operationId must be one of ${OPERATION_IDS.join(', ')}`);
  if (dropConnection !== undefined && typeof dropConnection !== 'boolean') problems.push('dropConnection must be true or false');
  if (status === undefined ? dropConnection !== true : !(Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 599)) problems.push('status must be an HTTP status from 200 to 599 (or dropConnection true)');
  if (times !== undefined && !(Number.isInteger(times) && (times as number) >= 1 && (times as number) <= 1_000_000)) problems.push('times must be a whole number from 1 to 1000000');
  if (retryAfter !== undefined && !(typeof retryAfter === 'number' && Number.isInteger(retryAfter) && retryAfter >= 0)) problems.push('retryAfter must be a whole number of seconds, 0 or more');
  if (headers !== undefined && !(isPlainObject(headers) && Object.entries(headers).every(([name, v]) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name) && typeof v === 'string' && !/[\r\n]/.test(v)))) {
    problems.push('headers must be an object of header names and one-line strings');
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, fault: value as unknown as FaultRequest };
}

/** The faults waiting, per operation, served in the order they were added. */
export class FaultQueue {
  private readonly waiting = new Map<OperationId, Fault[]>();

  add({ operationId, times = 1, retryAfter, ...fault }: FaultRequest): number {
    const headers = { ...fault.headers, ...(retryAfter !== undefined && { 'retry-after': String(retryAfter) }) };
    const queue = this.waiting.get(operationId) ?? [];
    for (let i = 0; i < times; i++) queue.push({ ...fault, headers });
    this.waiting.set(operationId, queue);
    return queue.length;
  }

  take(operationId: OperationId): Fault | undefined {
    return this.waiting.get(operationId)?.shift();
  }
}
