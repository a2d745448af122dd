/**
 * One issue type and one result family under every public name they had: the root's
 * `EventIssue`, `ValidationResult`, `EventValidationResult`, the REST entry's `ApiIssue` and
 * `ApiResult`, the per-event entries' results; and one `IssueCode` union that names every code
 * an issue of this package carries, on every surface (no more, no fewer).
 */
import { Readable, Writable } from 'node:stream';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { accountCreatedV1 } from '../../generated/events/account.created/v1.js';
import type { AccountCreatedV1Event } from '../../generated/types.js';
import { decideDelivery, deliveryPolicy } from '../../runtime/bus/index.js';
import { runValidate } from '../../runtime/cli/validate-command.js';
import type { CompiledValidatorError } from '../../runtime/contract/compiled-validator.js';
import * as root from '../../runtime/index.js';
import { ISSUE_CODES } from '../../runtime/internal/issues.js';
import * as rest from '../../runtime/rest/index.js';
import { apiIssueList } from '../../runtime/rest/issues.js';

describe('one issue type, one result family, under every public name', () => {
  it('names one issue type: Issue, EventIssue (root), ApiIssue (REST), the shape the contract fixes', () => {
    expectTypeOf<root.EventIssue>().toEqualTypeOf<root.Issue>();
    expectTypeOf<rest.ApiIssue>().toEqualTypeOf<rest.Issue>();
    expectTypeOf<rest.Issue>().toEqualTypeOf<root.Issue>();
    expectTypeOf<root.Issue>().toEqualTypeOf<{ path: string; code: string; message: string }>();
    expectTypeOf<rest.IssueCode>().toEqualTypeOf<root.IssueCode>();
    expectTypeOf<root.IssueCode>().toEqualTypeOf<(typeof ISSUE_CODES)[number]>();
    expectTypeOf<root.IssueCode>().toMatchTypeOf<root.Issue['code']>();
    // Issues of a program's own (a server's business rules) fit the same lists.
    expectTypeOf<{ path: string; code: 'invalid_phone_number'; message: string }>().toMatchTypeOf<rest.ApiIssue>();
  });

  it('names one result family: ValidationResult is EventValidationResult of any catalog event, and every surface fails with the same shape', () => {
    expectTypeOf<root.ValidationResult>().toEqualTypeOf<root.EventValidationResult<root.CatalogEvent>>();
    expectTypeOf<ReturnType<typeof root.validateEvent>>().toEqualTypeOf<root.ValidationResult>();
    expectTypeOf<ReturnType<typeof root.decodeEvent>>().toEqualTypeOf<root.ValidationResult>();
    expectTypeOf<ReturnType<typeof accountCreatedV1.validate>>().toEqualTypeOf<root.EventValidationResult<AccountCreatedV1Event>>();
    expectTypeOf<ReturnType<root.SelectedEventValidator<AccountCreatedV1Event>['validateEvent']>>().toEqualTypeOf<root.EventValidationResult<AccountCreatedV1Event>>();
    type Failed<R> = Extract<R, { ok: false; error: unknown }>['error'];
    expectTypeOf<Failed<root.ValidationResult>>().toEqualTypeOf<root.EventError>();
    expectTypeOf<Failed<rest.ApiResult>>().toEqualTypeOf<{ code: rest.ApiErrorCode; message: string; issues: rest.Issue[] }>();
    expectTypeOf<root.EventError['issues']>().toEqualTypeOf<Failed<rest.ApiResult>['issues']>();
    expectTypeOf<root.EventValidationError['issues']>().toEqualTypeOf<root.Issue[]>();
  });
});

/** The codes of the issues in a result. */
const codesOf = (result: { ok: boolean; error?: { issues: { code: string }[] } }): string[] => (result.ok ? [] : result.error!.issues.map((issue) => issue.code));

/** The codes the REST surface gives a validator's errors. */
function restCodesOf(errors: CompiledValidatorError[], data: unknown): string[] {
  const list = apiIssueList();
  list.addErrors(errors, data, '/body');
  return list.close().map((issue) => issue.code);
}

const VALID = { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } };
const withPayload = (payload: object) => ({ ...VALID, payload: { ...VALID.payload, ...payload } });
const NOTES = { import_supplier: 'SUP', external_account_number: 'A-1' };

/** Every kind of refusal the package knows, on every surface, by the code its issues should carry. */
function refusals(): [string, string[]][] {
  const throwing = { ...VALID, get payload(): never { throw new Error('no'); } };
  return [
    ['json_syntax', codesOf(root.decodeEvent('{"type": '))],
    ['invalid_utf8', codesOf(root.decodeEvent(new Uint8Array([0xff, 0xfe])))],
    ['not_text', codesOf(root.decodeEvent(42 as never))],
    ['not_object', codesOf(root.validateEvent([]))],
    ['unreadable', codesOf(root.validateEvent(throwing))],
    ['cloudevents_specversion', codesOf(root.validateCloudEvent({ specversion: '0.3', type: 'account.created', data: {} }))],
    ['unknown_event_type', codesOf(root.validateEvent({ ...VALID, type: 'account.teleported' }))],
    ['unknown_event_version', codesOf(root.validateEvent({ ...VALID, version: 'v99' }))],
    ['required', codesOf(root.validateEvent({ ...VALID, payload: { account_user_emails: [] } }))],
    ['type', codesOf(root.validateEvent(withPayload({ account_number: 7 })))],
    ['additional_property', codesOf(root.validateEvent(withPayload({ colour: 'red' }), { mode: 'strict' }))],
    ['too_many_issues', codesOf(root.validateEvent(withPayload({ account_user_emails: Array<number>(101).fill(1) })))],
    ['enum', codesOf(rest.validateResponse('getAccountTransferStatus', 200, { status: 'DONE', platform_account_number: '' }))],
    // The contract's one const is an alternative of an anyOf (read as any_of): the REST words for a const of its own.
    ['const', restCodesOf([{ keyword: 'const', instancePath: '', schemaPath: '#/const', params: { allowedValue: 'x' } }], 'y')],
    ['format', codesOf(rest.validateRequest('createNotes', { body: { ...NOTES, notes: [{ body: 'x', created_at: 'yesterday' }] } }))],
    ['min_length', codesOf(rest.validateRequest('getAccountTransferStatus', { params: { import_supplier_code: '', external_account_number: 'A' } }))],
    ['at_least_one_of', codesOf(rest.validateRequest('createNotes', { body: { ...NOTES, notes: [{}] } }))],
    ['any_of', codesOf(rest.validateResponse('processAccount', 400, 42))],
    ['no_body', codesOf(rest.validateRequest('getAccountTransferStatus', { params: { import_supplier_code: 'S', external_account_number: 'A' }, body: {} }))],
    ['not_allowed', codesOf(rest.validateRequest('createNotes', { params: { id: 1 }, body: { ...NOTES, notes: [{ body: 'x' }] } }))],
    ['unknown_operation', codesOf(rest.validateRequest('deleteEverything'))],
    ['unknown_status', codesOf(rest.validateResponse('createNotes', 418, {}))],
    ['more_issues', codesOf(rest.validateRequest('createNotes', { body: { ...NOTES, notes: Array.from({ length: 101 }, () => ({ body: 'x', is_pinned: 'yes' })) } }))],
  ];
}

/** The codes of the dead letters the bus decides: too large, and a handler that failed on its last delivery. */
async function deadLetterCodes(): Promise<[string, string[]][]> {
  const large = await decideDelivery({ data: JSON.stringify(withPayload({ notes: 'x'.repeat(2000) })), deliveries: 1, message: {} }, vi.fn(), deliveryPolicy({ maxMessageBytes: 1000 }));
  const failed = await decideDelivery({ data: JSON.stringify(VALID), deliveries: 1, message: {} }, () => { throw new Error('down'); }, deliveryPolicy({ maxDeliver: 1 }));
  return [
    ['too_large', large.action === 'dead_letter' ? large.issues.map((i) => i.code) : []],
    ['handler_error', failed.action === 'dead_letter' ? failed.issues.map((i) => i.code) : []],
  ];
}

/** The codes of the `validate` command's top issues for a line longer than its limit. */
async function commandCodes(): Promise<[string, string[]][]> {
  let out = '';
  const stdout = new Writable({ write: (chunk: Buffer, _encoding, done) => { out += chunk.toString(); done(); } });
  const stderr = new Writable({ write: (_chunk, _encoding, done) => done() });
  await runValidate(['--json', '--max-line-length', '1KiB'], { stdin: Readable.from([Buffer.from(`${JSON.stringify(withPayload({ notes: 'x'.repeat(2000) }))}\n`)]), stdout, stderr });
  const summary = JSON.parse(out) as { topIssues: { code: string }[] };
  return [['line_too_long', summary.topIssues.map((issue) => issue.code)]];
}

describe('IssueCode: every code an issue of this package carries', () => {
  it('is what each kind of refusal, on every surface, says', async () => {
    const cases = [...refusals(), ...(await deadLetterCodes()), ...(await commandCodes())];
    for (const [code, codes] of cases) expect(codes, code).toContain(code);
    const seen = new Set(cases.flatMap(([, codes]) => codes));
    // No code outside the union, and none in it that no refusal says.
    expect([...seen].filter((code) => !(ISSUE_CODES as readonly string[]).includes(code))).toEqual([]);
    expect(ISSUE_CODES.filter((code) => !seen.has(code))).toEqual([]);
  }, 30_000);
});

describe('the closing issue, in each surface\'s words', () => {
  const wrongEmails = (count: number) => withPayload({ account_user_emails: Array<number>(count).fill(1) });

  it('events: too_many_issues at /payload, saying how many and the limit', () => {
    const result = root.validateEvent(wrongEmails(2_000));
    expect(result.ok ? [] : result.error.issues.slice(100)).toEqual([{ path: '/payload', code: 'too_many_issues', message: '1,900 more issue(s) not listed (at most 100 are)' }]);
  });

  it('REST: more_issues at the root, saying how many', () => {
    const notes = Array.from({ length: 2_000 }, () => ({ body: 'x', is_pinned: 'yes' }));
    const result = rest.validateRequest('createNotes', { body: { ...NOTES, notes } });
    expect(result.ok ? [] : result.error.issues.slice(100)).toEqual([{ path: '', code: 'more_issues', message: '1,900 more issues not listed' }]);
  });

  it('dead letters: more_issues at the root, saying how many it left out, then what the validator said', async () => {
    const decision = await decideDelivery({ data: JSON.stringify(wrongEmails(2_000)), deliveries: 1, message: {} }, vi.fn(), deliveryPolicy());
    expect(decision.action === 'dead_letter' ? decision.issues.slice(20) : []).toEqual([
      { path: '', code: 'more_issues', message: '80 more issues not shown, then 1,900 more issue(s) not listed (at most 100 are)' },
    ]);
  });
});
