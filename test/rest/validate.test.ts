/**
 * `@data-import/event-catalog/rest` checks: requests strict (an undocumented field refused at
 * its pointer), the seed's formats, "at least one of", nullable list items, tolerant
 * responses, and never a thrown error.
 */
import { describe, expect, it } from 'vitest';
import { apiOperations, toValidationErrorBody, validateRequest, validateResponse, type ApiIssue } from '../../runtime/rest/index.js';

const NOTES = { import_supplier: 'SUP', external_account_number: 'A-1', notes: [{ body: 'Called the customer.' }] };
const issuesOf = (result: ReturnType<typeof validateRequest>): ApiIssue[] => (result.ok ? [] : result.error.issues);

describe('apiOperations', () => {
  it('lists the eleven operations in seed order, with method and path', () => {
    expect(apiOperations.map((o) => o.operationId)).toEqual([
      'validateAccount',
      'stageAccount',
      'processAccount',
      'createNotes',
      'createTransactions',
      'createHistoricalStatements',
      'createPaymentInstruction',
      'getAccountTransferStatus',
      'listAllAccountImportProcesses',
      'listPendingAccountImportProcesses',
      'listImportedAccountImportProcesses',
    ]);
    expect(apiOperations[7]).toEqual({ operationId: 'getAccountTransferStatus', method: 'GET', path: '/v1/data-import/account-transfer-status/{import_supplier_code}/{external_account_number}/' });
  });
});

describe('validateRequest', () => {
  it('accepts a valid request', () => {
    expect(validateRequest('createNotes', { body: NOTES })).toEqual({ ok: true });
  });

  it('refuses an undocumented field, with its pointer, inside items too', () => {
    const result = validateRequest('createNotes', { body: { ...NOTES, notes: [{ body: 'x', colour: 'red' }], extra: 1 } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('invalid_request');
    expect(issuesOf(result)).toEqual([
      { path: '/body/extra', code: 'additional_property', message: 'property "extra" is not documented (only documented fields may be sent)' },
      { path: '/body/notes/0/colour', code: 'additional_property', message: 'property "colour" is not documented (only documented fields may be sent)' },
    ]);
  });

  it('accepts undocumented fields of the open account object', () => {
    expect(validateRequest('stageAccount', { body: { import_supplier: 'SUP', external_account_number: 'A-1', customers: [{ landline: '01234', name: 'x' }], dob: '1970-01-01' } })).toEqual({ ok: true });
    expect(issuesOf(validateRequest('stageAccount', { body: { import_supplier: 'SUP' } })).map((i) => i.path)).toEqual(['/body/external_account_number']);
  });

  it.each([
    ['2024-13-01', 'createHistoricalStatements', 'bill_period_from_date'],
    ['2024-01-32', 'createHistoricalStatements', 'bill_period_from_date'],
    ['2024-01-02T03:04:05+01:00', 'createNotes', 'created_at'],
    ['2024-01-02T03:04:05', 'createNotes', 'created_at'],
  ])('refuses %s where the seed fixes the form', (value, operationId, field) => {
    const body =
      operationId === 'createNotes'
        ? { ...NOTES, notes: [{ body: 'x', [field]: value }] }
        : { import_supplier: 'S', external_account_number: 'A', statements: [{ bill_period_from_date: value, bill_period_to_date: '2024-01-31', statement_id: 's', issued_date: '2024-02-01', number: 'n', gross_amount: 1 }] };
    const issues = issuesOf(validateRequest(operationId, { body }));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path: operationId === 'createNotes' ? `/body/notes/0/${field}` : `/body/statements/0/${field}`, code: 'format' });
    expect(issues[0]!.message).toMatch(field === 'created_at' ? /YYYY-MM-DDTHH:MM:SSZ/ : /YYYY-MM-DD$/);
  });

  it('requires at least one of body or document_paths, as one issue', () => {
    expect(issuesOf(validateRequest('createNotes', { body: { ...NOTES, notes: [{ is_pinned: true }] } }))).toEqual([
      { path: '/body/notes/0', code: 'at_least_one_of', message: 'at least one of "body", "document_paths" is required' },
    ]);
    expect(validateRequest('createNotes', { body: { ...NOTES, notes: [{ document_paths: [{ document_path: 'a.pdf' }] }] } })).toEqual({ ok: true });
  });

  it('checks path parameters and query, booleans as text or booleans', () => {
    expect(validateRequest('getAccountTransferStatus', { params: { import_supplier_code: 'S', external_account_number: 'A' } })).toEqual({ ok: true });
    expect(issuesOf(validateRequest('getAccountTransferStatus', { params: { import_supplier_code: 'S' } }))).toEqual([{ path: '/params/external_account_number', code: 'required', message: 'missing required property "external_account_number"' }]);
    const transactions = { import_supplier: 'S', external_account_number: 'A', transactions: [] };
    expect(validateRequest('createTransactions', { body: transactions, query: { check_previously_added: 'false', force_add_to_current_statement: true } })).toEqual({ ok: true });
    expect(issuesOf(validateRequest('createTransactions', { body: transactions, query: { check_previously_added: 'no', later: 'x' } })).map((i) => [i.path, i.code])).toEqual([
      ['/query/later', 'additional_property'],
      ['/query/check_previously_added', 'enum'],
    ]);
  });

  it('refuses a body on a GET and a missing body on a POST', () => {
    expect(issuesOf(validateRequest('listAllAccountImportProcesses', { params: { import_supplier_code: 'S' }, body: {} }))).toEqual([{ path: '/body', code: 'no_body', message: 'listAllAccountImportProcesses takes no request body' }]);
    expect(issuesOf(validateRequest('createNotes', {}))).toEqual([{ path: '/body', code: 'required', message: 'missing request body' }]);
  });

  it('never throws: unknown operations, inherited names, hostile values', () => {
    expect(validateRequest('constructor', { body: {} })).toMatchObject({ ok: false, error: { code: 'unknown_operation' } });
    expect(validateRequest('nope')).toMatchObject({ ok: false, error: { code: 'unknown_operation' } });
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('boom'); }, get: () => { throw new Error('boom'); } });
    expect(validateRequest('createNotes', { body: hostile })).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(validateRequest('createNotes', null as never)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('quotes, escapes and clips names from the request as the event issues do, and names an integer an integer', () => {
    const long = 'x'.repeat(500);
    const issues = issuesOf(validateRequest('createNotes', { body: { ...NOTES, 'say "hi"': 1, [long]: 2, notes: [{ body: 7 }] } }));
    expect(issues).toContainEqual({ path: '/body/notes/0/body', code: 'type', message: 'expected string, got integer' });
    expect(issues).toContainEqual(expect.objectContaining({ path: '/body/say "hi"', message: 'property "say \\"hi\\"" is not documented (only documented fields may be sent)' }));
    const clipped = issues.find((i) => i.path.startsWith('/body/xxx'))!;
    expect(clipped.path).toBe(`/body/${'x'.repeat(200)}…[300 more characters]`);
    expect(clipped.message).toBe(`property "${'x'.repeat(64)}…[436 more characters]" is not documented (only documented fields may be sent)`);
  });

  it('bounds the issues it lists, and says how many more there were', () => {
    const notes = Array.from({ length: 150 }, () => ({ body: 'Called.', is_pinned: 'yes' }));
    const issues = issuesOf(validateRequest('createNotes', { body: { ...NOTES, notes } }));
    // At most 100 listed, then one closing issue: the rule of every surface.
    expect(issues).toHaveLength(101);
    expect(issues[99]).toMatchObject({ path: '/body/notes/99/is_pinned', code: 'type' });
    expect(issues.at(-1)).toEqual({ path: '', code: 'more_issues', message: '50 more issues not listed' });
  });
});

describe('validateResponse', () => {
  it('is tolerant: fields added later are accepted', () => {
    expect(validateResponse('getAccountTransferStatus', 200, { status: 'COMPLETED', platform_account_number: 'P-1', added_later: true })).toEqual({ ok: true });
  });

  it('accepts the nullable fields of pending list items as null, and refuses null elsewhere', () => {
    expect(validateResponse('listPendingAccountImportProcesses', 200, [{ external_account_number: 'A', platform_account_number: null, account_created_at: null }])).toEqual({ ok: true });
    const result = validateResponse('getAccountTransferStatus', 200, { status: 'UNKNOWN', platform_account_number: null });
    expect(!result.ok && result.error).toMatchObject({ code: 'invalid_response', issues: [{ path: '/body/platform_account_number', code: 'type' }] });
  });

  it('keeps complete value lists as enums, and values seen open', () => {
    expect(validateResponse('getAccountTransferStatus', 200, { status: 'DONE', platform_account_number: '' })).toMatchObject({ ok: false, error: { issues: [{ path: '/body/status', code: 'enum' }] } });
    expect(validateResponse('createTransactions', 201, { results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: { type: 'A_NEW_TYPE', amount: '1.00' } }] })).toEqual({ ok: true });
  });

  it('accepts the dry-run sentence as the process 400, and anything where the body is not shown', () => {
    expect(validateResponse('processAccount', 400, 'Account would successfully import. Rolled back due to Dry Run.')).toEqual({ ok: true });
    expect(validateResponse('processAccount', 429, '<html>busy</html>')).toEqual({ ok: true });
  });

  it('says unknown_status for a status the seed does not name', () => {
    expect(validateResponse('createNotes', 418, {})).toMatchObject({ ok: false, error: { code: 'unknown_status', message: 'createNotes has no response 418 in the contract (it names 201, 400, 404)' } });
  });
});

describe('toValidationErrorBody', () => {
  it('answers in the service’s format, attr the dot path inside the body', () => {
    const result = validateRequest('createNotes', { body: { ...NOTES, notes: [{ body: 'x', created_at: '2024-01-02' }] } });
    expect(toValidationErrorBody(issuesOf(result))).toEqual({
      detail: 'The request is invalid.',
      code: 'invalid_request',
      errors: [{ detail: 'must be a datetime YYYY-MM-DDTHH:MM:SSZ', code: 'format', attr: 'notes.0.created_at' }],
    });
  });

  it('says where each issue is: a body field by its dot path, a query parameter after `?`, a path parameter in braces', () => {
    const transactions = validateRequest('createTransactions', { query: { check_previously_added: 'maybe' }, body: { import_supplier: 'ACME', external_account_number: 'A-1', transactions: [], check_previously_added: true } });
    expect(toValidationErrorBody(issuesOf(transactions)).errors.map((e) => e.attr)).toEqual(['?check_previously_added', 'check_previously_added']);
    const status = validateRequest('getAccountTransferStatus', { params: { import_supplier_code: 7 } });
    expect(toValidationErrorBody(issuesOf(status)).errors.map((e) => e.attr)).toEqual(['{external_account_number}', '{import_supplier_code}']);
  });

  it('writes a body key that is not a plain name as a JSON string in brackets, apart from the body itself', () => {
    const odd = validateRequest('createNotes', { body: { ...NOTES, '': 1, 'a.b': 2, '?x': 3 } });
    expect(toValidationErrorBody(issuesOf(odd)).errors.map((e) => e.attr)).toEqual(['[""]', '["a.b"]', '["?x"]']);
    expect(toValidationErrorBody(issuesOf(validateRequest('createNotes', { body: [] }))).errors.map((e) => e.attr)).toEqual(['']);
  });

  it('is itself a valid validation error body of the contract', () => {
    const body = toValidationErrorBody(issuesOf(validateRequest('createNotes', { body: { extra: 1 } })));
    expect(validateResponse('createNotes', 400, body)).toEqual({ ok: true });
    expect(body.errors.map((e) => e.attr)).toEqual(['import_supplier', 'external_account_number', 'notes', 'extra']);
  });
});
