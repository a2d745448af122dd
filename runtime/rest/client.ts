import { apiOperationDetails, apiOperations } from '../../generated/api/operations.js';
import type { ApiOperations, ApiParams, ApiQuery, ApiRequest, ApiResponse, ApiStatus, OperationId } from '../../generated/api/types.js';
import type { ApiIssue } from './issues.js';
import { errorMessage } from '../internal/describe-error.js';
import { sleep } from '../internal/sleep.js';
import { backoffMs, retriesNetworkError, retriesStatus, retryAfterMs, retryOptions, type RetryOptions } from './retry.js';
import { clientTelemetry, serverAttributesOf, type OperationTrace } from './telemetry.js';
import { validateRequest, validateResponse } from './validate.js';

export type { RetryOptions } from './retry.js';

export interface DataImportClientOptions {
  /** The service's base address (`{base_url}`); paths start with `/v1/data-import/` below it. */
  baseUrl: string | URL;
  /** The access token, or a function giving it (called before each attempt, so a renewed token is used). */
  token: string | (() => string | Promise<string>);
  /**
   * The word before the token in the `Authorization` header: `Token` by default, as the
   * seed's request example writes it; `null` sends the bare token, as its prose says.
   */
  authScheme?: string | null;
  /** A `fetch` to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof globalThis.fetch;
  retry?: RetryOptions;
  /**
   * Check every response of a status the seed names against the contract (default `true`): a
   * body that breaks it comes back as a failed result with `error.code` `invalid_response`,
   * never as a typed success. `false` hands bodies back as received, unchecked.
   */
  validateResponses?: boolean;
  /** Cancels every call of this client, waiting included. */
  signal?: AbortSignal;
}

export interface CallOptions<Op extends OperationId> {
  /** Query parameters (`createTransactions`'s two flags); booleans are sent as `true` / `false`. */
  query?: ApiQuery<Op>;
  /** Cancels this call, waiting included. */
  signal?: AbortSignal;
}

type IsSuccess<S> = S extends 200 | 201 | 202 | 204 ? true : false;

/** A response with a status the seed names for the operation: its body typed by the status. */
export type ApiCallResponse<Op extends OperationId> = {
  [S in ApiStatus<Op>]: { ok: IsSuccess<S>; status: S; body: ApiResponse<Op, S>; dryRun?: true; unexpected?: undefined };
}[ApiStatus<Op>];

/**
 * What every call resolves to (an HTTP status is never thrown): a response the contract
 * names; the dry-run 400 of `processAccount` with `dryRun: true`; a status the seed does not
 * name (`unexpected: true`); or a failure with an `error` (`'error' in result` tells): status
 * 0, a request that was invalid and never sent (`invalid_request`), or a response of a status
 * the seed names whose body breaks the contract (`invalid_response`, the body as received).
 */
export type ApiCallResult<Op extends OperationId> =
  | ApiCallResponse<Op>
  | { ok: false; status: number; body: unknown; unexpected: true }
  | { ok: false; status: 0; error: { code: 'invalid_request'; message: string; issues: ApiIssue[] } }
  | { ok: false; status: ApiStatus<Op>; body: unknown; error: { code: 'invalid_response'; message: string; issues: ApiIssue[] } };

type Method<Op extends OperationId> = ApiOperations[Op]['method'] extends 'GET'
  ? (params: ApiParams<Op>, options?: CallOptions<Op>) => Promise<ApiCallResult<Op>>
  : (body: ApiRequest<Op>, options?: CallOptions<Op>) => Promise<ApiCallResult<Op>>;

/** One method per operation id. */
export type DataImportClient = { readonly [Op in OperationId]: Method<Op> };

/** Thrown (as a rejection) only when the service could not be reached after the last attempt. */
export class DataImportNetworkError extends Error {
  override name = 'DataImportNetworkError';
  constructor(
    readonly operationId: OperationId,
    readonly attempts: number,
    options: { cause: unknown; method: string; url: string },
  ) {
    const reason = errorMessage(options.cause);
    super(`${operationId}: ${options.method} ${options.url} failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}`, { cause: options.cause });
  }
}

/**
 * A typed client of the data-import REST API: a thin wrapper over `fetch` (Node's global one
 * by default), no dependencies. Each request is checked against the contract before it is
 * sent, and each response after (unless `validateResponses: false`); failures the seed says to
 * retry are retried with bounded, jittered exponential back-off (honouring `Retry-After`), and
 * nothing else is. With OpenTelemetry present, each call is traced (`./telemetry.ts`).
 */
export function createDataImportClient(options: DataImportClientOptions): DataImportClient {
  const retry = retryOptions(options.retry);
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') throw new TypeError('createDataImportClient: no fetch available (pass options.fetch)');
  const base = String(options.baseUrl).replace(/\/+$/, '');
  const scheme = options.authScheme === undefined ? 'Token' : options.authScheme;
  const validateResponses = options.validateResponses ?? true;
  const telemetry = clientTelemetry(serverAttributesOf(base));

  async function call(operationId: OperationId, input: unknown, callOptions: CallOptions<OperationId> = {}): Promise<ApiCallResult<OperationId>> {
    const operation = apiOperations.find((op) => op.operationId === operationId)!;
    const trace = (await telemetry)?.operation(operation);
    if (trace === undefined) return perform(operation, input, callOptions, undefined);
    try {
      const result = await perform(operation, input, callOptions, trace);
      trace.end(result);
      return result;
    } catch (error) {
      trace.fail(error);
      throw error;
    }
  }

  async function perform(operation: (typeof apiOperations)[number], input: unknown, callOptions: CallOptions<OperationId>, trace: OperationTrace | undefined): Promise<ApiCallResult<OperationId>> {
    const { operationId } = operation;
    const details = apiOperationDetails[operationId];
    const isGet = operation.method === 'GET';
    const parts = isGet ? { params: input, query: callOptions.query } : { body: input, query: callOptions.query };
    const checked = validateRequest(operationId, parts);
    if (!checked.ok) return { ok: false, status: 0, error: { code: 'invalid_request', message: checked.error.message, issues: checked.error.issues } };

    const url = buildUrl(base, operation.path, isGet ? (input as Record<string, string>) : {}, callOptions.query as Record<string, unknown> | undefined);
    const signal = anySignal([options.signal, callOptions.signal]);
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      signal?.throwIfAborted();
      const token = typeof options.token === 'function' ? await options.token() : options.token;
      const headers: Record<string, string> = { Accept: 'application/json', Authorization: scheme === null ? token : `${scheme} ${token}` };
      if (!isGet) headers['Content-Type'] = 'application/json';
      const tracedAttempt = trace?.attempt(headers);
      const send = (): Promise<Response> => fetchImpl(url, { method: operation.method, headers, ...(isGet ? {} : { body: JSON.stringify(input) }), ...(signal && { signal }) });
      let response: Response;
      try {
        response = await (tracedAttempt ? tracedAttempt.run(send) : send());
      } catch (error) {
        tracedAttempt?.failed(signal?.aborted ? signal.reason : error);
        if (signal?.aborted) throw signal.reason;
        const wait = backoffMs(attempt, retry);
        if (!retriesNetworkError(operation.method) || !mayRetry(attempt, started, wait)) {
          throw new DataImportNetworkError(operationId, attempt, { cause: error, method: operation.method, url });
        }
        await sleep(wait, signal);
        continue;
      }
      let body: unknown;
      try {
        body = await readBody(response, signal);
      } catch (error) {
        tracedAttempt?.failed(error, response.status);
        throw error;
      }
      tracedAttempt?.responded(response.status);
      if (retriesStatus(operationId, response.status)) {
        const wait = Math.min(retry.maxDelayMs, retryAfterMs(response.headers.get('retry-after')) ?? backoffMs(attempt, retry));
        if (mayRetry(attempt, started, wait)) {
          await sleep(wait, signal);
          continue;
        }
      }
      const named = details.responses.find((r) => r.status === response.status);
      if (!named) return { ok: false, status: response.status, body, unexpected: true };
      if (validateResponses) {
        const checked = validateResponse(operationId, response.status, body);
        if (!checked.ok) return { ok: false, status: response.status as ApiStatus<OperationId>, body, error: { code: 'invalid_response', message: checked.error.message, issues: checked.error.issues } };
      }
      const ok = response.status >= 200 && response.status < 300;
      const dryRun = named.text !== undefined && body === named.text;
      return { ok, status: response.status, body, ...(dryRun && { dryRun: true }) } as ApiCallResult<OperationId>;
    }
  }

  /** A retry starts only with attempts left and its wait inside the total time. */
  function mayRetry(attempt: number, started: number, wait: number): boolean {
    return attempt < retry.maxAttempts && Date.now() - started + wait < retry.maxElapsedMs;
  }

  const client: Record<string, unknown> = {};
  for (const { operationId } of apiOperations) client[operationId] = (input: unknown, callOptions?: CallOptions<OperationId>) => call(operationId, input, callOptions);
  return Object.freeze(client) as DataImportClient;
}

function buildUrl(base: string, path: string, params: Record<string, string>, query: Record<string, unknown> | undefined): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]!));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return `${base}${filled}${text ? `?${text}` : ''}`;
}

/** The body as JSON when it says it is JSON (and parses), else as text; `undefined` when empty. */
async function readBody(response: Response, signal: AbortSignal | undefined): Promise<unknown> {
  signal?.throwIfAborted();
  const text = await response.text();
  if (text === '') return undefined;
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  if (present.length <= 1) return present[0];
  return AbortSignal.any(present);
}
