/**
 * The REST surface under the one issue rule: at most 100 issues per request or response, then
 * one closing issue in the REST words, counted over the request's parts together; each failed
 * anyOf one issue at its own item; and a refusal that never throws, whatever a getter throws.
 */
import { describe, expect, it } from 'vitest';
import { validateRequest, validateResponse, type ApiResult, type Issue } from '../../runtime/rest/index.js';
import { MAX_ISSUES } from '../../runtime/internal/issues.js';

const issuesOf = (result: ApiResult): Issue[] => (result.ok ? [] : result.error.issues);
const NOTES = { import_supplier: 'SUP', external_account_number: 'A-1' };
/** `count` notes each wrong in exactly one place (`is_pinned` is a boolean). */
const wrongNotes = (count: number) => Array.from({ length: count }, () => ({ body: 'Called.', is_pinned: 'yes' }));
const transaction = { transaction_id: 't-1', transaction_date: '2024-01-31', amount: 12.5, type: 'CHARGE' };

describe('at most 100 issues, then one closing issue', () => {
  it('lists exactly 100 without a closing issue', () => {
    const issues = issuesOf(validateRequest('createNotes', { body: { ...NOTES, notes: wrongNotes(MAX_ISSUES) } }));
    expect(issues).toHaveLength(100);
    expect(issues.every((issue) => issue.code === 'type')).toBe(true);
  });

  it('lists 100 of 101, then says "1 more issues not listed" at the root', () => {
    const issues = issuesOf(validateRequest('createNotes', { body: { ...NOTES, notes: wrongNotes(101) } }));
    expect(issues).toHaveLength(101);
    expect(issues[99]).toEqual({ path: '/body/notes/99/is_pinned', code: 'type', message: 'expected boolean, got string' });
    expect(issues[100]).toEqual({ path: '', code: 'more_issues', message: '1 more issues not listed' });
  });

  it('counts a request as a whole: the query, then the body, one list and one closing issue', () => {
    const transactions = Array.from({ length: 150 }, () => ({ ...transaction, amount: 'twelve' }));
    const result = validateRequest('createTransactions', { query: { check_previously_added: 'maybe' }, body: { ...NOTES, transactions } });
    const issues = issuesOf(result);
    expect(issues).toHaveLength(101);
    expect(issues[0]).toMatchObject({ path: '/query/check_previously_added' });
    expect(issues.slice(1, 100).every((issue) => issue.path.startsWith('/body/transactions/'))).toBe(true);
    // 1 query issue and 150 body issues: 100 listed, 51 more.
    expect(issues[100]).toEqual({ path: '', code: 'more_issues', message: '51 more issues not listed' });
    expect(issues.filter((issue) => issue.code === 'more_issues')).toHaveLength(1);
  });

  it('bounds a response the same way, with thousands in the count', () => {
    // Each item: two required fields missing and a number for a string, 3 issues.
    const items = Array.from({ length: 1234 }, () => ({ external_account_number: 7 }));
    const issues = issuesOf(validateResponse('listAllAccountImportProcesses', 200, items));
    expect(issues).toHaveLength(101);
    expect(issues[99]).toEqual({ path: '/body/33/platform_account_number', code: 'required', message: 'missing required property "platform_account_number"' });
    expect(issues[100]).toEqual({ path: '', code: 'more_issues', message: '3,602 more issues not listed' });
  });

  it('names at most 10 issues in the error message, as the event validators do', () => {
    const result = validateRequest('createNotes', { body: { ...NOTES, notes: wrongNotes(150) } });
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.error.message;
    expect(message).toMatch(/^invalid createNotes request: \/body\/notes\/0\/is_pinned expected boolean, got string; /);
    expect(message.split('; ')).toHaveLength(11);
    expect(message).toMatch(/; and 91 more issue\(s\)$/);
  });
});

describe('anyOf: one issue at its own item', () => {
  it('says at_least_one_of at each note that has neither a body nor documents, naming only its own alternatives', () => {
    const issues = issuesOf(validateRequest('createNotes', { body: { ...NOTES, notes: [{}, { body: 'fine' }, {}] } }));
    const wanted = { code: 'at_least_one_of', message: 'at least one of "body", "document_paths" is required' };
    expect(issues).toEqual([
      { path: '/body/notes/0', ...wanted },
      { path: '/body/notes/2', ...wanted },
    ]);
  });

  it('counts every item past the 100th exactly: 5,000 notes without a body', () => {
    const notes = Array.from({ length: 5_000 }, () => ({}));
    const issues = issuesOf(validateRequest('createNotes', { body: { ...NOTES, notes } }));
    expect(issues).toHaveLength(101);
    expect(issues[99]).toEqual({ path: '/body/notes/99', code: 'at_least_one_of', message: 'at least one of "body", "document_paths" is required' });
    expect(issues[100]).toEqual({ path: '', code: 'more_issues', message: '4,900 more issues not listed' });
  }, 60_000);
});

describe('a value whose reading throws', () => {
  it('is refused with what was thrown, even a value with no text form, and never throws', () => {
    for (const thrown of [new TypeError('getter says no'), 'plain text', Object.create(null) as object]) {
      const body = { ...NOTES, get notes(): never { throw thrown; } };
      const result = validateRequest('createNotes', { body });
      expect(result.ok).toBe(false);
      const error = result.ok ? undefined : result.error;
      expect(error).toMatchObject({ code: 'invalid_request', issues: [{ path: '', code: 'unreadable' }] });
      expect(error!.message).toMatch(/^could not read the request of createNotes: /);
    }
    const withNothing = validateRequest('createNotes', { body: { ...NOTES, get notes(): never { throw Object.create(null); } } });
    expect(withNothing.ok ? '' : withNothing.error.message).toBe('could not read the request of createNotes: a value that cannot be read as text was thrown');
  });
});
