import type { CompiledValidatorError } from '../contract/compiled-validator.js';
import { clip, quote } from '../internal/echo.js';
import { boundIssueList, jsonTypeOf, valueAt } from '../internal/issues.js';
import { pointerToken } from '../contract/json-pointer.js';

/** One thing wrong with a request or response, at its place. */
export interface ApiIssue {
  /** JSON Pointer rooted at the part it is in: `/body/notes/0/created_at`, `/query/check_previously_added`, `/params/import_supplier_code`. */
  path: string;
  /** Stable, machine-readable: `required`, `additional_property`, `type`, `enum`, `format`, `at_least_one_of`, `no_body`, … */
  code: string;
  /** For people; wording may change. */
  message: string;
}

/** The most issues one request or response lists before a closing one says how many more (100 in all). */
export const MAX_API_ISSUES = 99;


/** The stated form a pattern enforces, by the pattern's shape (the generator's date, datetime and decimal patterns). */
function statedForm(pattern: string): string {
  if (pattern.endsWith('Z$')) return 'a datetime YYYY-MM-DDTHH:MM:SSZ';
  if (pattern.includes('-02-29')) return 'a date YYYY-MM-DD';
  if (pattern.includes('\\.[0-9]{2}')) return 'a decimal with two places, as text';
  return `text matching ${pattern}`;
}

/**
 * The validator's errors as issues below `root` (`/body`). "At least one of" (an `anyOf` of
 * `required` lists) is one issue; an `anyOf` of several bodies is one issue, not one per
 * alternative's complaint.
 */
export function toApiIssues(errors: readonly CompiledValidatorError[], data: unknown, root: string): ApiIssue[] {
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  const insideAnyOf = (e: CompiledValidatorError): CompiledValidatorError | undefined => anyOfs.find((a) => a !== e && e.schemaPath.startsWith(`${a.schemaPath}/`));
  const issues: ApiIssue[] = [];
  for (const error of errors) {
    if (insideAnyOf(error)) continue;
    const at = `${root}${error.instancePath}`;
    switch (error.keyword) {
      case 'required': {
        const name = String(error.params.missingProperty);
        issues.push({ path: `${at}/${pointerToken(clip(name))}`, code: 'required', message: `missing required property ${quote(name)}` });
        break;
      }
      case 'additionalProperties': {
        const name = String(error.params.additionalProperty);
        issues.push({ path: `${at}/${pointerToken(clip(name))}`, code: 'additional_property', message: `property ${quote(name)} is not documented (only documented fields may be sent)` });
        break;
      }
      case 'type':
        issues.push({ path: at, code: 'type', message: `expected ${[error.params.type].flat().join(' or ')}, got ${jsonTypeOf(valueAt(data, error.instancePath))}` });
        break;
      case 'enum':
        issues.push({ path: at, code: 'enum', message: `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` });
        break;
      case 'const':
        issues.push({ path: at, code: 'const', message: `must be ${JSON.stringify(error.params.allowedValue)}` });
        break;
      case 'pattern':
        issues.push({ path: at, code: 'format', message: `must be ${statedForm(String(error.params.pattern))}` });
        break;
      case 'minLength': {
        const limit = Number(error.params.limit);
        issues.push({ path: at, code: 'min_length', message: limit === 1 ? 'must not be empty' : `must have at least ${limit} characters` });
        break;
      }
      case 'anyOf': {
        const alternatives = errors.filter((e) => insideAnyOf(e) === error);
        const names = alternatives.every((e) => e.keyword === 'required') ? alternatives.map((e) => quote(String(e.params.missingProperty))) : [];
        if (names.length > 0) issues.push({ path: at, code: 'at_least_one_of', message: `at least one of ${names.join(', ')} is required` });
        else issues.push({ path: at, code: 'any_of', message: 'matches none of the bodies the contract allows here' });
        break;
      }
      default:
        issues.push({ path: at, code: error.keyword, message: `fails "${error.keyword}"` });
    }
  }
  return bounded(issues);
}

/** At most `MAX_API_ISSUES`, then one issue saying how many were left out. */
export const bounded = (issues: ApiIssue[]): ApiIssue[] =>
  boundIssueList(issues, MAX_API_ISSUES, (more) => ({ path: '', code: 'more_issues', message: `${more.toLocaleString('en-US')} more issues not listed` }));
