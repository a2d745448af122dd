import type { ValidationErrorBody } from '../../generated/api/types.js';
import { pointerTokens } from '../contract/json-pointer.js';
import type { Issue } from '../internal/issues.js';

/** A name written as is in a dot path: one that can be neither an index nor mistaken for punctuation. */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A body token: a field name, an array index, or (any other key) a JSON string in brackets. */
const bodyToken = (token: string): string => (PLAIN_NAME.test(token) || /^(?:0|[1-9][0-9]*)$/.test(token) ? token : `[${JSON.stringify(token)}]`);

/**
 * Where an issue is, in the seed's `attr` form ("dot-delimited path to the offending input;
 * string parts are field names, numeric parts are zero-based array indexes"):
 * - a body field: its dot path, `notes.0.created_at`; the body as a whole: `""`;
 * - a query parameter: `?` and its name, `?check_previously_added`, as in the URL;
 * - a path parameter: its name in braces, `{import_supplier_code}`, as in the path template;
 *   the query or the path parameters as a whole: `?`, `{}`.
 * A body key that is neither a plain name nor a number (empty, with a dot or a `?`) is written
 * as a JSON string in brackets, `["a.b"]`, so no body field reads as a parameter or as another
 * field. A number is an array index, as the seed says (an object key of digits reads the same).
 */
export function toAttr(path: string): string {
  const [part, ...tokens] = pointerTokens(path);
  if (part === 'query') return `?${tokens.join('.')}`;
  if (part === 'params') return `{${tokens.join('.')}}`;
  return tokens.map(bodyToken).join('.');
}

/**
 * Issues as the service's own validation error body, so a server built on this package
 * answers in the service's format: `attr` says where (see `toAttr`), `code` the issue's
 * stable code.
 */
export function toValidationErrorBody(issues: readonly Issue[], options: { detail?: string; code?: string } = {}): ValidationErrorBody {
  return {
    detail: options.detail ?? 'The request is invalid.',
    code: options.code ?? 'invalid_request',
    errors: issues.map((issue) => ({ detail: issue.message, code: issue.code, attr: toAttr(issue.path) })),
  };
}
