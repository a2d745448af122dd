import { apiOperationDetails } from '../../generated/api/operations.js';
import type { OperationId } from '../../generated/api/types.js';
import * as generated from '../../generated/api/validators.cjs';
import type { CompiledValidator } from '../contract/compiled-validator.js';
import { bounded, toApiIssues, type ApiIssue } from './issues.js';

export type ApiErrorCode = 'invalid_request' | 'invalid_response' | 'unknown_operation' | 'unknown_status';

export type ApiResult = { ok: true } | { ok: false; error: { code: ApiErrorCode; message: string; issues: ApiIssue[] } };

/** What a request carries besides its method and path. */
export interface ApiRequestParts {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

const validators = generated as unknown as Readonly<Record<string, CompiledValidator>>;

/** Whether a name is one of the operations (never an inherited property such as `constructor`). */
export const isOperationId = (name: unknown): name is OperationId => typeof name === 'string' && Object.hasOwn(apiOperationDetails, name);

const unknownOperation = (operationId: unknown): ApiResult => ({
  ok: false,
  error: { code: 'unknown_operation', message: `unknown operation ${JSON.stringify(String(operationId))}`, issues: [{ path: '', code: 'unknown_operation', message: `no operation is named ${JSON.stringify(String(operationId))}` }] },
});

function check(name: string, data: unknown, root: string): ApiIssue[] {
  const validate = validators[name]!;
  return validate(data) ? [] : toApiIssues(validate.errors ?? [], data, root);
}

/** Keys of a part an operation does not take: each is an issue. */
function unexpectedPart(value: unknown, root: string, what: string): ApiIssue[] {
  if (value === undefined) return [];
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) return [];
  return [{ path: root, code: 'not_allowed', message: `this operation takes no ${what}` }];
}

const summary = (issues: readonly ApiIssue[]): string => issues.map((i) => `${i.path || '/'} ${i.message}`).join('; ');

/**
 * Checks a request against the contract before it is sent (or when a server receives it):
 * path parameters, query (booleans as `true` / `false` text or booleans), and the body,
 * strict except where the seed leaves an object open. Never throws.
 */
export function validateRequest(operationId: OperationId | (string & {}), parts: ApiRequestParts = {}): ApiResult {
  try {
    if (!isOperationId(operationId)) return unknownOperation(operationId);
    const details = apiOperationDetails[operationId];
    const { params, query, body } = parts ?? {};
    const issues: ApiIssue[] = [
      ...(details.params.length > 0 ? check(`${operationId}_params`, params ?? {}, '/params') : unexpectedPart(params, '/params', 'path parameters')),
      ...(details.query.length > 0 ? check(`${operationId}_query`, query ?? {}, '/query') : unexpectedPart(query, '/query', 'query parameters')),
      ...(details.request
        ? body === undefined
          ? [{ path: '/body', code: 'required', message: 'missing request body' }]
          : check(`${operationId}_request`, body, '/body')
        : body === undefined
          ? []
          : [{ path: '/body', code: 'no_body', message: `${operationId} takes no request body` }]),
    ];
    if (issues.length === 0) return { ok: true };
    const listed = bounded(issues);
    return { ok: false, error: { code: 'invalid_request', message: `invalid ${operationId} request: ${summary(listed)}`, issues: listed } };
  } catch (error) {
    return unreadable('invalid_request', operationId, error);
  }
}

/**
 * Checks a response body against the status the seed names for it: tolerant (fields added
 * later are accepted), formats and value lists enforced. A status the seed does not name is
 * `unknown_status`. Never throws.
 */
export function validateResponse(operationId: OperationId | (string & {}), status: number, body: unknown): ApiResult {
  try {
    if (!isOperationId(operationId)) return unknownOperation(operationId);
    const details = apiOperationDetails[operationId];
    if (!details.responses.some((r) => r.status === status)) {
      const known = details.responses.map((r) => r.status).join(', ');
      const message = `${operationId} has no response ${String(status)} in the contract (it names ${known})`;
      return { ok: false, error: { code: 'unknown_status', message, issues: [{ path: '', code: 'unknown_status', message }] } };
    }
    const issues = check(`${operationId}_response_${status}`, body, '/body');
    if (issues.length === 0) return { ok: true };
    return { ok: false, error: { code: 'invalid_response', message: `invalid ${operationId} response ${status}: ${summary(issues)}`, issues } };
  } catch (error) {
    return unreadable('invalid_response', operationId, error);
  }
}

/** A value whose getters or proxies throw while being read: refused, with the reason. */
function unreadable(code: 'invalid_request' | 'invalid_response', operationId: unknown, error: unknown): ApiResult {
  const reason = error instanceof Error ? error.message : String(error);
  const message = `could not read the ${code === 'invalid_request' ? 'request' : 'response'} of ${String(operationId)}: ${reason}`;
  return { ok: false, error: { code, message, issues: [{ path: '', code: 'unreadable', message }] } };
}
