import { apiOperationDetails } from '../../generated/api/operations.js';
import type { OperationId } from '../../generated/api/types.js';
import { apiValidators } from '../../generated/api/operation-validators.js';
import type { CompiledValidator } from '../contract/compiled-validator.js';
import { errorMessage } from '../internal/describe-error.js';
import { summarizeIssues, type IssueList } from '../internal/issues.js';
import type { ValidationFailure } from '../internal/result.js';
import { apiIssueList } from './issues.js';

export type ApiErrorCode = 'invalid_request' | 'invalid_response' | 'unknown_operation' | 'unknown_status';

export type ApiResult = { ok: true } | { ok: false; error: ValidationFailure<ApiErrorCode> };

/** What a request carries besides its method and path. */
export interface ApiRequestParts {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** One operation's validators, read without knowing which operation: a status is any number here. */
interface PartValidators {
  readonly params: CompiledValidator | undefined;
  readonly query: CompiledValidator | undefined;
  readonly request: CompiledValidator | undefined;
  readonly responses: { readonly [status: number]: CompiledValidator | undefined };
}

const validatorsOf = (operationId: OperationId): PartValidators => apiValidators[operationId];

/** Whether a name is one of the operations (never an inherited property such as `constructor`). */
export const isOperationId = (name: unknown): name is OperationId => typeof name === 'string' && Object.hasOwn(apiOperationDetails, name);

const unknownOperation = (operationId: unknown): ApiResult => ({
  ok: false,
  error: { code: 'unknown_operation', message: `unknown operation ${JSON.stringify(String(operationId))}`, issues: [{ path: '', code: 'unknown_operation', message: `no operation is named ${JSON.stringify(String(operationId))}` }] },
});

/** Adds what `validate` finds wrong with `data` to `issues`. */
function check(validate: CompiledValidator, data: unknown, root: string, issues: IssueList): void {
  if (!validate(data)) issues.addErrors(validate.errors ?? [], data, root);
}

/** A part an operation does not take, given with keys anyway: an issue. */
function unexpectedPart(value: unknown, root: string, what: string, issues: IssueList): void {
  if (value === undefined) return;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0) return;
  issues.add({ path: root, code: 'not_allowed', message: `this operation takes no ${what}` });
}

/**
 * Checks a request against the contract before it is sent (or when a server receives it):
 * path parameters, query (booleans as `true` / `false` text or booleans), and the body,
 * strict except where the seed leaves an object open. Never throws.
 */
export function validateRequest(operationId: OperationId | (string & {}), parts: ApiRequestParts = {}): ApiResult {
  try {
    if (!isOperationId(operationId)) return unknownOperation(operationId);
    const validators = validatorsOf(operationId);
    const { params, query, body } = parts ?? {};
    // One list for the three parts, so the request as a whole lists at most MAX_ISSUES.
    const issues = apiIssueList();
    if (validators.params) check(validators.params, params ?? {}, '/params', issues);
    else unexpectedPart(params, '/params', 'path parameters', issues);
    if (validators.query) check(validators.query, query ?? {}, '/query', issues);
    else unexpectedPart(query, '/query', 'query parameters', issues);
    if (validators.request) {
      if (body === undefined) issues.add({ path: '/body', code: 'required', message: 'missing request body' });
      else check(validators.request, body, '/body', issues);
    } else if (body !== undefined) {
      issues.add({ path: '/body', code: 'no_body', message: `${operationId} takes no request body` });
    }
    if (issues.isEmpty) return { ok: true };
    const listed = issues.close();
    return { ok: false, error: { code: 'invalid_request', message: `invalid ${operationId} request: ${summarizeIssues(listed)}`, issues: listed } };
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
    const { responses } = validatorsOf(operationId);
    const validate = Object.hasOwn(responses, status) ? responses[status] : undefined;
    if (validate === undefined) {
      const known = Object.keys(responses).join(', ');
      const message = `${operationId} has no response ${String(status)} in the contract (it names ${known})`;
      return { ok: false, error: { code: 'unknown_status', message, issues: [{ path: '', code: 'unknown_status', message }] } };
    }
    const issues = apiIssueList();
    check(validate, body, '/body', issues);
    if (issues.isEmpty) return { ok: true };
    const listed = issues.close();
    return { ok: false, error: { code: 'invalid_response', message: `invalid ${operationId} response ${status}: ${summarizeIssues(listed)}`, issues: listed } };
  } catch (error) {
    return unreadable('invalid_response', operationId, error);
  }
}

/** A value whose getters or proxies throw while being read: refused, with the reason. */
function unreadable(code: 'invalid_request' | 'invalid_response', operationId: unknown, error: unknown): ApiResult {
  const reason = errorMessage(error);
  const message = `could not read the ${code === 'invalid_request' ? 'request' : 'response'} of ${String(operationId)}: ${reason}`;
  return { ok: false, error: { code, message, issues: [{ path: '', code: 'unreadable', message }] } };
}
