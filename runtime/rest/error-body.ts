import type { ValidationErrorBody } from '../../generated/api/types.js';
import type { ApiIssue } from './issues.js';

/** `/body/notes/0/created_at` → `notes.0.created_at`: the seed's dot path inside the part. */
export function toAttr(path: string): string {
  return path
    .split('/')
    .slice(2)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/**
 * Issues as the service's own validation error body, so a server built on this package
 * answers in the service's format: `attr` is the dot-delimited path inside the body (string
 * parts field names, numeric parts zero-based indexes), `code` the issue's stable code.
 */
export function toValidationErrorBody(issues: readonly ApiIssue[], options: { detail?: string; code?: string } = {}): ValidationErrorBody {
  return {
    detail: options.detail ?? 'The request is invalid.',
    code: options.code ?? 'invalid_request',
    errors: issues.map((issue) => ({ detail: issue.message, code: issue.code, attr: toAttr(issue.path) })),
  };
}
