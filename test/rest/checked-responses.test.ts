/**
 * `createDataImportClient` checks every response of a status the seed names against the
 * contract: against a real server answering bodies that break it, a status the seed does not
 * name, and bodies that keep it; with the check on (the default) and off.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDataImportClient, type ApiIssue, type DataImportClient, type DataImportClientOptions } from '../../runtime/rest/index.js';
import { startScriptedServer, type ScriptedAnswer, type ScriptedServer } from './scripted-server.js';

const SERVER = 10_000;

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());
afterEach(() => {
  expect(server.unanswered(), 'every scripted answer was asked for').toBe(0);
  server.reset();
});

const client = (options: Partial<DataImportClientOptions> = {}) => createDataImportClient({ baseUrl: server.url, token: 't', retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 }, ...options });

const notes = { import_supplier: 'SUP', external_account_number: 'A-1', notes: [{ body: 'Called.' }] };
const processBody = { external_account_number: 'A-1', import_supplier_code: 'SUP', operations_team_name: 'Migrations' };
const statusParams = { import_supplier_code: 'SUP', external_account_number: 'A-1' };
const note = { status: 'NOTE_CREATION_SUCCESS', body: 'Called.', created_at: '2024-01-02T03:04:05Z' };

describe('a documented status whose body breaks the contract is a failed result, never a typed success', () => {
  it(
    'the 201 [{"status":"WEIRD"}] of createNotes: ok false, the status, the body as received, and the issues',
    async () => {
      server.answer({ status: 201, json: [{ status: 'WEIRD' }] });
      const result = await client().createNotes(notes);
      expect(result).toEqual({
        ok: false,
        status: 201,
        body: [{ status: 'WEIRD' }],
        error: {
          code: 'invalid_response',
          message: expect.stringMatching(/^invalid createNotes response 201: /),
          issues: expect.arrayContaining([
            { path: '/body/0/status', code: 'enum', message: 'must be one of "NOTE_CREATION_SUCCESS", "NOTE_ALREADY_EXISTS"' },
            { path: '/body/0/created_at', code: 'required', message: 'missing required property "created_at"' },
          ]),
        },
      });
      expect(server.received).toHaveLength(1);
    },
    SERVER,
  );

  /** A call and an answer breaking its contract, with the status and the issue (pointer and code) it must come back with. */
  interface BrokenCase {
    what: string;
    operationId: string;
    call: (api: DataImportClient) => Promise<{ ok: boolean; status: number; body?: unknown; error?: { code: string; issues: ApiIssue[] } }>;
    answer: ScriptedAnswer;
    issue: [path: string, code: string];
  }
  const broken: BrokenCase[] = [
    {
      what: 'a status outside the seed’s list (getAccountTransferStatus 200)',
      operationId: 'getAccountTransferStatus',
      call: (api) => api.getAccountTransferStatus(statusParams),
      answer: { status: 200, json: { status: 'DONE', platform_account_number: '' } },
      issue: ['/body/status', 'enum'],
    },
    {
      what: 'a missing field (processAccount 201)',
      operationId: 'processAccount',
      call: (api) => api.processAccount(processBody),
      answer: { status: 201, json: { account: 'P-1' } },
      issue: ['/body/platform_account_number', 'required'],
    },
    {
      what: 'an amount as a number where the contract says a two-place string (createTransactions 201)',
      operationId: 'createTransactions',
      call: (api) => api.createTransactions({ import_supplier: 'SUP', external_account_number: 'A-1', transactions: [] }),
      answer: { status: 201, json: { results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: { amount: 12.5 } }] } },
      issue: ['/body/results/0/transaction_data/amount', 'type'],
    },
    {
      what: 'an object where a list is due (listAllAccountImportProcesses 200)',
      operationId: 'listAllAccountImportProcesses',
      call: (api) => api.listAllAccountImportProcesses({ import_supplier_code: 'SUP' }),
      answer: { status: 200, json: {} },
      issue: ['/body', 'type'],
    },
    {
      what: 'HTML where JSON is due (getAccountTransferStatus 200)',
      operationId: 'getAccountTransferStatus',
      call: (api) => api.getAccountTransferStatus(statusParams),
      answer: { status: 200, text: '<html>ok</html>', contentType: 'text/html' },
      issue: ['/body', 'type'],
    },
    {
      what: 'JSON that does not parse (createNotes 201)',
      operationId: 'createNotes',
      call: (api) => api.createNotes(notes),
      answer: { status: 201, text: '[{"status":', contentType: 'application/json' },
      issue: ['/body', 'type'],
    },
    {
      what: 'a documented error status with another body than the validation error (createNotes 400)',
      operationId: 'createNotes',
      call: (api) => api.createNotes(notes),
      answer: { status: 400, text: 'Bad Request' },
      issue: ['/body', 'type'],
    },
    {
      what: 'a validation error body without its code (stageAccount 400)',
      operationId: 'stageAccount',
      call: (api) => api.stageAccount({ import_supplier: 'SUP', external_account_number: 'A-1' }),
      answer: { status: 400, json: { detail: 'no' } },
      issue: ['/body/code', 'required'],
    },
  ];

  it.each(broken)(
    '$what',
    async ({ operationId, call, answer, issue }) => {
      server.answer(answer);
      const result = await call(client());
      expect(result).toMatchObject({ ok: false, status: answer.status, error: { code: 'invalid_response', message: expect.stringContaining(`invalid ${operationId} response ${answer.status}: `) } });
      expect(result.error?.issues.map((i) => [i.path, i.code])).toContainEqual(issue);
      expect('body' in result && result.body).toEqual(answer.json !== undefined ? answer.json : answer.text);
    },
    SERVER,
  );

  it(
    'a retried status is not checked, the attempt returned is: 429 then a broken 201 on processAccount',
    async () => {
      server.answer({ status: 429, text: 'slow down' }, { status: 201, json: { platform_account_number: 42 } });
      expect(await client().processAccount(processBody)).toMatchObject({
        ok: false,
        status: 201,
        body: { platform_account_number: 42 },
        error: { code: 'invalid_response', issues: [{ path: '/body/platform_account_number', code: 'type' }] },
      });
      expect(server.received).toHaveLength(2);
      server.answer({ status: 500, text: '<html>vendor down</html>', contentType: 'text/html' }, { status: 201, json: { reference: 'R-1' } });
      expect(await client().createPaymentInstruction({ import_supplier: 'SUP', external_account_number: 'A-1', vendor: 'V', reference: 'R-1', type: 'CARD' })).toMatchObject({
        ok: false,
        status: 201,
        error: { code: 'invalid_response', message: expect.stringMatching(/^invalid createPaymentInstruction response 201: /) },
      });
      expect(server.received).toHaveLength(4);
    },
    SERVER,
  );
});

describe('what the check lets through unchanged', () => {
  it(
    'a valid body is a typed success, and fields added later are accepted',
    async () => {
      server.answer({ status: 201, json: [{ ...note, colour: 'added later' }] });
      expect(await client().createNotes(notes)).toEqual({ ok: true, status: 201, body: [{ ...note, colour: 'added later' }] });
      server.answer({ status: 200, json: { status: 'COMPLETED', platform_account_number: 'P-1' } });
      expect(await client().getAccountTransferStatus(statusParams)).toEqual({ ok: true, status: 200, body: { status: 'COMPLETED', platform_account_number: 'P-1' } });
    },
    SERVER,
  );

  it(
    'a documented failure with a valid body stays a failure without error; a status whose body the seed does not show takes any body',
    async () => {
      const refusal = { detail: 'Invalid.', code: 'invalid', errors: [{ detail: 'Required.', code: 'required', attr: 'notes' }] };
      server.answer({ status: 400, json: refusal }, { status: 404, text: 'Not Found' }, { status: 404, json: ['anything'] });
      expect(await client().createNotes(notes)).toEqual({ ok: false, status: 400, body: refusal });
      expect(await client().createNotes(notes)).toEqual({ ok: false, status: 404, body: 'Not Found' });
      expect(await client().getAccountTransferStatus(statusParams)).toEqual({ ok: false, status: 404, body: ['anything'] });
    },
    SERVER,
  );

  it(
    'the dry run’s sentence is still a dry run',
    async () => {
      server.answer({ status: 400, text: 'Account would successfully import. Rolled back due to Dry Run.' });
      expect(await client().processAccount({ ...processBody, dry_run: true })).toEqual({
        ok: false,
        status: 400,
        body: 'Account would successfully import. Rolled back due to Dry Run.',
        dryRun: true,
      });
    },
    SERVER,
  );

  it(
    'a status the seed does not name stays unexpected: true, whatever its body, with or without the check',
    async () => {
      for (const validateResponses of [true, false]) {
        server.answer({ status: 418, json: [{ status: 'WEIRD' }] }, { status: 503, text: '' }, { status: 204 });
        expect(await client({ validateResponses }).createNotes(notes)).toEqual({ ok: false, status: 418, body: [{ status: 'WEIRD' }], unexpected: true });
        expect(await client({ validateResponses }).createNotes(notes)).toEqual({ ok: false, status: 503, body: undefined, unexpected: true });
        expect(await client({ validateResponses }).getAccountTransferStatus(statusParams)).toEqual({ ok: false, status: 204, body: undefined, unexpected: true });
      }
    },
    SERVER,
  );
});

describe('validateResponses: false', () => {
  it(
    'hands every body back as received, unchecked: the WEIRD 201 is ok, a broken 400 a plain failure',
    async () => {
      server.answer({ status: 201, json: [{ status: 'WEIRD' }] }, { status: 400, text: 'Bad Request' }, { status: 200, json: { status: 'DONE' } });
      const unchecked = client({ validateResponses: false });
      expect(await unchecked.createNotes(notes)).toEqual({ ok: true, status: 201, body: [{ status: 'WEIRD' }] });
      expect(await unchecked.createNotes(notes)).toEqual({ ok: false, status: 400, body: 'Bad Request' });
      expect(await unchecked.getAccountTransferStatus(statusParams)).toEqual({ ok: true, status: 200, body: { status: 'DONE' } });
    },
    SERVER,
  );

  it(
    'still checks the request before sending it',
    async () => {
      const result = await client({ validateResponses: false }).createNotes({ ...notes, notes: [{ body: 'x', created_at: 'yesterday' }] });
      expect(result).toMatchObject({ ok: false, status: 0, error: { code: 'invalid_request' } });
      expect(server.received).toEqual([]);
    },
    SERVER,
  );
});
