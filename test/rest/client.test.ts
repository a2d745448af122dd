/**
 * `createDataImportClient` against the contract test server: every operation through the
 * seed's state machine, and every retry rule with the server's hit counts.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDataImportClient, DataImportNetworkError, type DataImportClientOptions } from '../../runtime/rest/index.js';
import { startContractServer, type ContractServer, DRY_RUN_TEXT } from '../support/contract-server.js';

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer();
});
afterAll(() => server.close());
afterEach(() => {
  expect(server.responseProblems, 'every answer of the server keeps the contract').toEqual([]);
  server.reset();
});

/** Fast retries for tests: the rules are the same, the waits short. */
const client = (options: Partial<DataImportClientOptions> = {}) => createDataImportClient({ baseUrl: server.url, token: 'secret', retry: { baseDelayMs: 1, maxDelayMs: 20, maxAttempts: 3 }, ...options });

let sequence = 0;
/** A fresh account, staged and (unless told) processed into a platform account. */
async function account(processed = true): Promise<{ external: string; platform?: string }> {
  const external = `A-${++sequence}`;
  const api = client();
  expect(await api.stageAccount({ import_supplier: 'SUP', external_account_number: external })).toMatchObject({ ok: true, status: 201 });
  if (!processed) return { external };
  const created = await api.processAccount({ external_account_number: external, import_supplier_code: 'SUP', operations_team_name: 'Migrations' });
  if (!created.ok || created.status !== 201) throw new Error(`process failed: ${JSON.stringify(created)}`);
  return { external, platform: created.body.platform_account_number };
}

describe('every operation, through the seed’s state machine', () => {
  it('validateAccount answers the validated data, or the validation error body', async () => {
    const api = client();
    expect(await api.validateAccount({ import_supplier: 'SUP', external_account_number: 'V-1', customers: [{ landline: '01234567890' }] })).toMatchObject({ ok: true, status: 200, body: { external_account_number: 'V-1' } });
    const refused = await api.validateAccount({ import_supplier: 'SUP', external_account_number: 'V-1', customers: [{ landline: '12' }] });
    expect(refused).toMatchObject({ ok: false, status: 400, body: { code: 'account_failed_validation', errors: [{ code: 'invalid_phone_number', attr: 'customers.0.landline' }] } });
    expect(server.hits.validateAccount).toBe(2);
  });

  it('stageAccount answers 201 the first time and 200 after; a Paused or Complete supplier is refused', async () => {
    const api = client();
    const body = { import_supplier: 'SUP', external_account_number: 'S-1' };
    expect(await api.stageAccount(body)).toMatchObject({ ok: true, status: 201, body });
    expect(await api.stageAccount(body)).toMatchObject({ ok: true, status: 200, body });
    expect(await api.stageAccount({ import_supplier: 'PAUSED', external_account_number: 'S-2' })).toMatchObject({ ok: false, status: 400, body: { code: 'import_supplier_not_ongoing' } });
    expect(await api.stageAccount({ import_supplier: 'DONE', external_account_number: 'S-2' })).toMatchObject({ ok: false, status: 400 });
    expect(server.hits.stageAccount).toBe(4);
  });

  it('processAccount creates the account once; a dry run answers the seed’s sentence with dryRun: true', async () => {
    const { external } = await account(false);
    const api = client();
    const dry = await api.processAccount({ external_account_number: external, import_supplier_code: 'SUP', operations_team_name: 'Migrations', dry_run: true });
    expect(dry).toEqual({ ok: false, status: 400, body: DRY_RUN_TEXT, dryRun: true });
    const created = await api.processAccount({ external_account_number: external, import_supplier_code: 'SUP', operations_team_name: 'Migrations' });
    expect(created).toMatchObject({ ok: true, status: 201, body: { platform_account_number: expect.stringMatching(/^P-/) } });
    const again = await api.processAccount({ external_account_number: external, import_supplier_code: 'SUP', operations_team_name: 'Migrations' });
    expect(again).toMatchObject({ ok: false, status: 400, body: { code: 'account_already_imported', external_account_number: external } });
    expect(again.ok === false && 'dryRun' in again).toBe(false);
  });

  it('createNotes needs an imported account (404 otherwise) and reports duplicates as already existing', async () => {
    const staged = await account(false);
    const api = client();
    const notes = [{ body: 'Called.', created_at: '2024-01-02T03:04:05Z' }];
    expect(await api.createNotes({ import_supplier: 'SUP', external_account_number: staged.external, notes })).toMatchObject({ ok: false, status: 404 });
    const { external } = await account();
    expect(await api.createNotes({ import_supplier: 'SUP', external_account_number: external, notes })).toMatchObject({ ok: true, status: 201, body: [{ status: 'NOTE_CREATION_SUCCESS' }] });
    expect(await api.createNotes({ import_supplier: 'SUP', external_account_number: external, notes })).toMatchObject({ status: 201, body: [{ status: 'NOTE_ALREADY_EXISTS', created_at: '2024-01-02T03:04:05Z' }] });
  });

  it('createTransactions sends its two flags as text, amounts come back as two-place strings, duplicates already exist', async () => {
    const { external } = await account();
    const api = client();
    const body = { import_supplier: 'SUP', external_account_number: external, transactions: [{ transaction_id: 't-1', transaction_date: '2024-01-02', amount: 12.5, type: 'CHARGE' }] };
    expect(await api.createTransactions(body)).toMatchObject({ ok: true, status: 201, body: { results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: { amount: '12.50' } }] } });
    expect(await api.createTransactions(body)).toMatchObject({ body: { results: [{ status: 'TRANSACTION_ALREADY_EXISTS' }] } });
    expect(await api.createTransactions(body, { query: { check_previously_added: false, force_add_to_current_statement: true } })).toMatchObject({ body: { results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT' }] } });
    expect(server.lastQuery).toEqual({ check_previously_added: 'false', force_add_to_current_statement: 'true' });
  });

  it('createHistoricalStatements and createPaymentInstruction answer 201', async () => {
    const { external, platform } = await account();
    const api = client();
    const statements = { import_supplier: 'SUP', external_account_number: external, statements: [{ bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31', statement_id: 's', issued_date: '2024-02-01', number: '1', gross_amount: 10 }] };
    expect(await api.createHistoricalStatements(statements)).toMatchObject({ ok: true, status: 201, body: statements });
    expect(await api.createPaymentInstruction({ import_supplier: 'SUP', external_account_number: external, vendor: 'V', reference: 'R-1', type: 'CARD' })).toEqual({ ok: true, status: 201, body: { platform_account_number: platform, reference: 'R-1' } });
  });

  it('the GETs: status lookup (404 without an account) and the three lists', async () => {
    const pending = await account(false);
    const imported = await account();
    const api = client();
    expect(await api.getAccountTransferStatus({ import_supplier_code: 'SUP', external_account_number: pending.external })).toEqual({ ok: true, status: 200, body: { status: 'UNKNOWN', platform_account_number: '' } });
    expect(await api.getAccountTransferStatus({ import_supplier_code: 'SUP', external_account_number: imported.external })).toEqual({ ok: true, status: 200, body: { status: 'COMPLETED', platform_account_number: imported.platform } });
    expect(await api.getAccountTransferStatus({ import_supplier_code: 'SUP', external_account_number: 'nobody' })).toMatchObject({ ok: false, status: 404 });
    const pendingList = await api.listPendingAccountImportProcesses({ import_supplier_code: 'SUP' });
    expect(pendingList.ok && pendingList.status === 200 && pendingList.body.find((i) => i.external_account_number === pending.external)).toEqual({ external_account_number: pending.external, platform_account_number: null, account_created_at: null });
    const all = await api.listAllAccountImportProcesses({ import_supplier_code: 'SUP' });
    expect(all.ok && all.body.map((i) => i.external_account_number)).toEqual(expect.arrayContaining([pending.external, imported.external]));
    expect(await api.listImportedAccountImportProcesses({ import_supplier_code: 'SUP' })).toMatchObject({ ok: true, status: 200, body: expect.arrayContaining([expect.objectContaining({ external_account_number: imported.external })]) });
  });

  it('sends Authorization: Token <token> by default, a token function’s value, or the bare token', async () => {
    await client().listAllAccountImportProcesses({ import_supplier_code: 'SUP' });
    expect(server.lastHeaders.authorization).toBe('Token secret');
    await client({ token: async () => 'renewed' }).listAllAccountImportProcesses({ import_supplier_code: 'SUP' });
    expect(server.lastHeaders.authorization).toBe('Token renewed');
    await client({ authScheme: null }).listAllAccountImportProcesses({ import_supplier_code: 'SUP' });
    expect(server.lastHeaders.authorization).toBe('secret');
  });
});

describe('requests are checked before they leave', () => {
  it('an invalid request is never sent and resolves to status 0 with the issues', async () => {
    const result = await client().createNotes({ import_supplier: 'SUP', external_account_number: 'A', notes: [{ body: 'x', created_at: '2024-01-02T03:04:05+01:00' }] });
    expect(result).toMatchObject({ ok: false, status: 0, error: { code: 'invalid_request', issues: [{ path: '/body/notes/0/created_at', code: 'format' }] } });
    expect(server.hits.createNotes).toBeUndefined();
  });
});

describe('retries, exactly as the seed says', () => {
  const processBody = async () => ({ external_account_number: (await account(false)).external, import_supplier_code: 'SUP', operations_team_name: 'Migrations' });

  it('429 on process is retried, and the later answer is the result', async () => {
    const body = await processBody();
    await server.inject('processAccount', { status: 429 }, 2);
    expect(await client().processAccount(body)).toMatchObject({ ok: true, status: 201 });
    expect(server.hits.processAccount).toBe(3);
  });

  it('429 on process, every time: bounded by maxAttempts, the last response is the result', async () => {
    const body = await processBody();
    await server.inject('processAccount', { status: 429, body: { detail: 'busy' } }, 10);
    expect(await client().processAccount(body)).toEqual({ ok: false, status: 429, body: { detail: 'busy' } });
    expect(server.hits.processAccount).toBe(3);
  });

  it('honours Retry-After: retried after 0 s, not retried when the wait exceeds the time allowed', async () => {
    const body = await processBody();
    await server.inject('processAccount', { status: 429, headers: { 'retry-after': '0' } });
    expect(await client().processAccount(body)).toMatchObject({ status: 201 });
    expect(server.hits.processAccount).toBe(2);
    const other = await processBody();
    await server.inject('processAccount', { status: 429, headers: { 'retry-after': '3600' } });
    expect(await client({ retry: { maxAttempts: 5, maxDelayMs: 7_200_000, maxElapsedMs: 1000 } }).processAccount(other)).toMatchObject({ ok: false, status: 429 });
    expect(server.hits.processAccount).toBe(3);
  });

  it('stops retrying once maxElapsedMs has passed', async () => {
    const body = await processBody();
    await server.inject('processAccount', { status: 429 }, 3);
    expect(await client({ retry: { maxAttempts: 10, baseDelayMs: 1, maxElapsedMs: 0 } }).processAccount(body)).toMatchObject({ status: 429 });
    expect(server.hits.processAccount).toBe(1);
  });

  it('500 on payment instruction is retried as-is; 400 on it never', async () => {
    const { external } = await account();
    const body = { import_supplier: 'SUP', external_account_number: external, vendor: 'V', reference: 'R', type: 'CARD' };
    await server.inject('createPaymentInstruction', { status: 500 });
    expect(await client().createPaymentInstruction(body)).toMatchObject({ ok: true, status: 201 });
    expect(server.hits.createPaymentInstruction).toBe(2);
    await server.inject('createPaymentInstruction', { status: 400, body: { detail: 'vendor says no', code: 'vendor_failure', errors: [] } });
    expect(await client().createPaymentInstruction(body)).toMatchObject({ ok: false, status: 400 });
    expect(server.hits.createPaymentInstruction).toBe(3);
  });

  it('nothing else is retried: 429 or 500 elsewhere, 400 anywhere', async () => {
    const { external } = await account();
    const body = await processBody();
    server.reset();
    await server.inject('createNotes', { status: 500 });
    expect(await client().createNotes({ import_supplier: 'SUP', external_account_number: external, notes: [{ body: 'x' }] })).toEqual({ ok: false, status: 500, body: undefined, unexpected: true });
    await server.inject('stageAccount', { status: 429 });
    expect(await client().stageAccount({ import_supplier: 'SUP', external_account_number: 'R-1' })).toMatchObject({ ok: false, status: 429, unexpected: true });
    await server.inject('processAccount', { status: 400, body: { detail: 'no', code: 'no', errors: [] } });
    expect(await client().processAccount(body)).toMatchObject({ ok: false, status: 400 });
    expect([server.hits.createNotes, server.hits.stageAccount, server.hits.processAccount]).toEqual([1, 1, 1]);
  });

  it('network errors are retried for GETs, and a POST is never sent twice', async () => {
    await server.inject('listAllAccountImportProcesses', { dropConnection: true });
    expect(await client().listAllAccountImportProcesses({ import_supplier_code: 'SUP' })).toMatchObject({ ok: true, status: 200 });
    expect(server.hits.listAllAccountImportProcesses).toBe(2);
    const { external } = await account();
    await server.inject('createNotes', { dropConnection: true });
    const failed = client().createNotes({ import_supplier: 'SUP', external_account_number: external, notes: [{ body: 'once' }] });
    await expect(failed).rejects.toThrow(DataImportNetworkError);
    await expect(failed).rejects.toThrow(/^createNotes: POST http:\/\/127\.0\.0\.1:\d+\/v1\/data-import\/notes\/create\/ failed after 1 attempt: /);
    expect(server.hits.createNotes).toBe(1);
  });

  it('a network failure after the last attempt rejects, saying which operation and why', async () => {
    await server.inject('getAccountTransferStatus', { dropConnection: true }, 3);
    await expect(client().getAccountTransferStatus({ import_supplier_code: 'SUP', external_account_number: 'x' })).rejects.toThrow(/^getAccountTransferStatus: GET .* failed after 3 attempts: fetch failed/);
    expect(server.hits.getAccountTransferStatus).toBe(3);
  });

  it(
    'an AbortSignal cancels at once, even during a long wait',
    async () => {
      const body = await processBody();
      await server.inject('processAccount', { status: 429, headers: { 'retry-after': '60' } });
      const controller = new AbortController();
      const call = client({ retry: { maxDelayMs: 120_000, maxElapsedMs: 300_000 } }).processAccount(body, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('stopped by the caller')), 50);
      // The test's own time limit is far below the 60 s wait: only cancelling at once passes.
      await expect(call).rejects.toThrow('stopped by the caller');
      expect(server.hits.processAccount).toBe(1);
      const aborted = AbortSignal.abort(new Error('already stopped'));
      await expect(client({ signal: aborted }).listAllAccountImportProcesses({ import_supplier_code: 'SUP' })).rejects.toThrow('already stopped');
    },
    10_000,
  );
});
