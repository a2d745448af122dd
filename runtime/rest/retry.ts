/**
 * The seed's retry rules, and the bounds every retry loop keeps. Which failures are retried
 * is the catalog's (`retry` on a response, in the seed's words: "retry after other accounts
 * finish" for 429 on process, "retry as-is" for 500 on payment instruction, "do not retry in
 * the same form" for 400), read from the generated `apiRetryRules`; network errors are
 * retried only where repeating the request cannot create anything twice (GETs).
 */
import { apiRetryRules, type ApiRetryRule } from '../../generated/api/operations.js';
import type { OperationId } from '../../generated/api/types.js';
import { backoffCeilingMs, fullJitterMs } from '../internal/backoff.js';

export interface RetryOptions {
  /** Attempts in all, the first included (default 4; at least 1). */
  maxAttempts?: number;
  /** First back-off before jitter (default 250 ms); doubles with each retry. */
  baseDelayMs?: number;
  /** Longest single wait, `Retry-After` included (default 10 000 ms). */
  maxDelayMs?: number;
  /** A retry starts only if its wait ends before this much time has passed since the first attempt (default 30 000 ms). */
  maxElapsedMs?: number;
}

export const RETRY_DEFAULTS: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 10_000, maxElapsedMs: 30_000 };

/** Whether the seed says to send the request again after `status` (a status it has no rule for is not retried). */
export function retriesStatus(operationId: string, status: number): boolean {
  if (!Object.hasOwn(apiRetryRules, operationId)) return false;
  const rules: { readonly [status: number]: ApiRetryRule | undefined } = apiRetryRules[operationId as OperationId] ?? {};
  return Object.hasOwn(rules, status) && rules[status]?.retried === true;
}

/** Network errors are retried for GETs only: a POST that may have arrived is not sent twice. */
export const retriesNetworkError = (method: string): boolean => method === 'GET';

export function retryOptions(options: RetryOptions | undefined): Required<RetryOptions> {
  const merged = { ...RETRY_DEFAULTS, ...options };
  for (const [key, value] of Object.entries(merged)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new TypeError(`retry.${key} must be a finite number >= 0`);
  }
  return { ...merged, maxAttempts: Math.max(1, Math.floor(merged.maxAttempts)) };
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or `undefined` when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential back-off with full jitter: a random wait up to `base · 2^(retry-1)`, capped. */
export function backoffMs(retry: number, options: Required<RetryOptions>, random: () => number = Math.random): number {
  return fullJitterMs(backoffCeilingMs(retry, options.baseDelayMs, options.maxDelayMs), random);
}
