/**
 * The emulator against the seed's endpoint rules and errors, operation by operation: every
 * answer checked again here with `validateResponse`, and the events each outcome emits.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRY_RUN_TEXT, startEmulator, SuppliersError, type Emulator } from '../../runtime/emulator/index.js';
import { OPERATION_HANDLERS } from '../../runtime/emulator/operations.js';
import { validateResponse, type OperationId } from '../../runtime/rest/index.js';
import { call, paths, type CallOptions } from './http.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, clock: '2024-02-10T08:00:00Z', suppliers: { SUP: { status: 'Ongoing' }, PAUSED: { status: 'Paused' }, DONE: { status: 'Complete' } } });
});
afterAll(() => emulator.close());
afterEach(() => {
  expect(emulator.coverage().violations).toEqual([]);
  emulator.reset();
});

/** A call of an operation, its answer held to the contract here too. */
async function api(operationId: OperationId, path: string, options: CallOptions = {}) {
  const response = await call(emulator.url, path.startsWith('/v1/data-import/account-transfer') || path.includes('-processes/') ? 'GET' : 'POST', path, options);
  const verdict = validateResponse(operationId, response.status, response.body);
  expect(verdict, `${operationId} ${response.status} ${response.text}`).toEqual({ ok: true });
  return response;
}

const stage = (external: string, supplier = 'SUP', extra: Record<string, unknown> = {}) => api('stageAccount', paths.stageAccount, { body: { import_supplier: supplier, external_account_number: external, ...extra } });
const processing = (external: string, extra: Record<string, unknown> = {}) =>
  api('processAccount', paths.processAccount, { body: { import_supplier_code: 'SUP', external_account_number: external, operations_team_name: 'Migrations', ...extra } });
async function imported(external: string): Promise<string> {
  await stage(external);
  return ((await processing(external)).body as { platform_account_number: string }).platform_account_number;
}
const eventTypes = () => emulator.events().map((e) => e.event.type);

describe('validate and stage', () => {
  it('validate answers the data, or the account rules’ error body, and writes nothing', async () => {
    const account = { import_supplier: 'SUP', external_account_number: 'V-1', customers: [{ landline: '020 7946 0958' }], anything: { else: true } };
    expect(await api('validateAccount', paths.validateAccount, { body: account })).toMatchObject({ status: 200, body: account });
    const refused = await api('validateAccount', paths.validateAccount, { body: { ...account, customers: [{ landline: '020 7946 0958' }, { landline: 'call me' }] } });
    expect(refused).toMatchObject({ status: 400, body: { code: 'account_failed_validation', errors: [{ code: 'invalid_phone_number', attr: 'customers.1.landline' }] } });
    expect((await api('listAllAccountImportProcesses', paths.listAllAccountImportProcesses('SUP'))).body).toEqual([]);
  });

  it('stage answers 201 the first time and 200 after, { import_supplier, external_account_number }', async () => {
    expect(await stage('S-1')).toMatchObject({ status: 201, body: { import_supplier: 'SUP', external_account_number: 'S-1' } });
    expect(await stage('S-1', 'SUP', { customers: [] })).toMatchObject({ status: 200, body: { import_supplier: 'SUP', external_account_number: 'S-1' } });
    expect(emulator.coverage().transitions.map((t) => t.count)).toEqual([1, 1, 0, 0]);
  });

  it('stage refuses a Paused or Complete supplier, one the suppliers file does not list, an imported account, and bad data', async () => {
    expect(await stage('S-2', 'PAUSED')).toMatchObject({ status: 400, body: { code: 'import_supplier_not_ongoing', errors: [{ attr: 'import_supplier' }] } });
    expect(await stage('S-2', 'DONE')).toMatchObject({ status: 400, body: { code: 'import_supplier_not_ongoing' } });
    expect(await stage('S-2', 'NOBODY')).toMatchObject({ status: 400, body: { code: 'unknown_import_supplier' } });
    await imported('S-3');
    expect(await stage('S-3')).toMatchObject({ status: 400, body: { code: 'account_already_imported' } });
    expect(await stage('S-4', 'SUP', { customers: [{ landline: '1' }] })).toMatchObject({ status: 400, body: { code: 'account_failed_validation' } });
  });
});

describe('process', () => {
  it('creates the platform account (201), then refuses it as already imported, with both numbers', async () => {
    await stage('P-1');
    const created = await processing('P-1');
    expect(created).toMatchObject({ status: 201, body: { platform_account_number: expect.stringMatching(/^P-[0-9A-F]{8}$/) } });
    const platform = (created.body as { platform_account_number: string }).platform_account_number;
    expect(await processing('P-1')).toMatchObject({ status: 400, body: { code: 'account_already_imported', external_account_number: 'P-1', platform_account_number: platform } });
    expect(emulator.events().map((e) => [e.outcome, e.event])).toEqual([
      ['created', { type: 'data_import.import_process.complete', version: 'v1', payload: { resource_type: 'ACCOUNT', external_identifier: 'P-1', identifier: platform } }],
      ['refused', { type: 'data_import.import_process.error', version: 'v1', payload: { resource_type: 'ACCOUNT', external_identifier: 'P-1', error_code: 'account_already_imported', error_detail: 'The account is already imported.' } }],
    ]);
  });

  it('a dry run that would succeed answers the seed’s sentence as text and changes nothing', async () => {
    await stage('P-2');
    const dry = await processing('P-2', { dry_run: true });
    expect([dry.status, dry.headers.get('content-type'), dry.text]).toEqual([400, 'text/plain; charset=utf-8', DRY_RUN_TEXT]);
    expect((await api('getAccountTransferStatus', paths.getAccountTransferStatus('SUP', 'P-2'))).body).toEqual({ status: 'UNKNOWN', platform_account_number: '' });
    expect((await api('listPendingAccountImportProcesses', paths.listPendingAccountImportProcesses('SUP'))).body).toEqual([{ external_account_number: 'P-2', platform_account_number: null, account_created_at: null }]);
    expect(await processing('NOT-STAGED', { dry_run: true })).toMatchObject({ status: 400, body: { code: 'account_not_staged' } });
    expect(eventTypes()).toEqual(['data_import.import_process.dry_run_complete', 'data_import.import_process.dry_run_error']);
  });

  it('refuses an account that was never staged and a supplier that is not Ongoing, each with the error event', async () => {
    expect(await processing('NONE')).toMatchObject({ status: 400, body: { code: 'account_not_staged' } });
    await stage('P-3');
    expect((await call(emulator.url, 'PUT', '/_emulator/suppliers/SUP', { body: { status: 'Paused' } })).status).toBe(200);
    expect(await processing('P-3')).toMatchObject({ status: 400, body: { code: 'import_supplier_not_ongoing' } });
    expect(eventTypes()).toEqual(['data_import.import_process.error', 'data_import.import_process.error']);
  });

  it(
    'with a concurrency limit, the process above it in flight gets 429 and no event; the account is IN_PROGRESS meanwhile',
    async () => {
      const limited = await startEmulator({ port: 0, concurrencyLimit: 1, processingMs: 400 });
      try {
        for (const external of ['C-1', 'C-2']) await call(limited.url, 'POST', paths.stageAccount, { body: { import_supplier: 'SUP', external_account_number: external } });
        const body = (external: string) => ({ body: { import_supplier_code: 'SUP', external_account_number: external, operations_team_name: 'T' } });
        const first = call(limited.url, 'POST', paths.processAccount, body('C-1'));
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect((await call(limited.url, 'GET', paths.getAccountTransferStatus('SUP', 'C-1'))).body).toEqual({ status: 'IN_PROGRESS', platform_account_number: '' });
        const second = await call(limited.url, 'POST', paths.processAccount, body('C-2'));
        expect([second.status, second.headers.get('retry-after'), (second.body as { code: string }).code]).toEqual([429, '1', 'concurrency_limit_exceeded']);
        expect(validateResponse('processAccount', 429, second.body)).toEqual({ ok: true });
        expect((await first).status).toBe(201);
        expect((await call(limited.url, 'POST', paths.processAccount, body('C-2'))).status).toBe(201);
        expect(limited.events().map((e) => e.outcome)).toEqual(['created', 'created']);
      } finally {
        await limited.close();
      }
    },
    10_000,
  );
});

describe('post-import operations', () => {
  it('notes: 404 until the account is imported (staged is not enough); a note already there is NOTE_ALREADY_EXISTS', async () => {
    await stage('N-1');
    const notes = { import_supplier: 'SUP', external_account_number: 'N-1', notes: [{ body: 'Called.' }, { body: 'Called.', created_at: '2024-01-02T03:04:05Z' }, { body: 'Emailed.', created_at: '2024-01-02T03:04:05Z' }] };
    expect(await api('createNotes', paths.createNotes, { body: notes })).toMatchObject({ status: 404 });
    await processing('N-1');
    const first = await api('createNotes', paths.createNotes, { body: notes });
    // The first note takes the emulator's clock as created_at; the second has its own, so it is another note.
    expect(first.body).toEqual([
      { created_at: '2024-02-10T08:00:03Z', body: 'Called.', status: 'NOTE_CREATION_SUCCESS' },
      { created_at: '2024-01-02T03:04:05Z', body: 'Called.', status: 'NOTE_CREATION_SUCCESS' },
      { created_at: '2024-01-02T03:04:05Z', body: 'Emailed.', status: 'NOTE_CREATION_SUCCESS' },
    ]);
    const again = await api('createNotes', paths.createNotes, { body: { ...notes, notes: [{ body: 'Called.' }, { body: 'Emailed.', created_at: '2024-01-02T03:04:06Z' }] } });
    expect((again.body as { status: string }[]).map((n) => n.status)).toEqual(['NOTE_ALREADY_EXISTS', 'NOTE_CREATION_SUCCESS']);
    expect(emulator.events().map((e) => [e.operationId, e.outcome, e.event.payload])).toEqual([
      ['createNotes', 'refused', { resource_type: 'NOTE', import_process_resource_type: 'ACCOUNT', import_process_external_identifier: 'N-1', error_code: 'account_not_imported', error_detail: expect.any(String) }],
      ['processAccount', 'created', expect.anything()],
      ['createNotes', 'succeeded', { resource_type: 'NOTE', import_process_resource_type: 'ACCOUNT', import_process_external_identifier: 'N-1', identifier: expect.stringMatching(/^P-/) }],
      ['createNotes', 'succeeded', expect.anything()],
    ]);
  });

  it('transactions: duplicates skipped unless check_previously_added=false; amounts as two-place strings', async () => {
    await imported('T-1');
    const body = { import_supplier: 'SUP', external_account_number: 'T-1', transactions: [{ transaction_id: 't-1', transaction_date: '2024-02-01', amount: 12.5, type: 'CHARGE' }, { transaction_id: 't-2', amount: 1e21 }] };
    const first = await api('createTransactions', paths.createTransactions, { body });
    expect(first).toMatchObject({ status: 201, body: { results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: { amount: '12.50', transaction_date: '2024-02-01' } }, { transaction_data: { amount: '1000000000000000000000.00' } }] } });
    expect((await api('createTransactions', paths.createTransactions, { body })).body).toMatchObject({ results: [{ status: 'TRANSACTION_ALREADY_EXISTS' }, { status: 'TRANSACTION_ALREADY_EXISTS' }] });
    expect((await api('createTransactions', `${paths.createTransactions}?check_previously_added=false`, { body })).body).toMatchObject({ results: [{ status: 'TRANSACTION_ADDED_TO_ACCOUNT' }, { status: 'TRANSACTION_ADDED_TO_ACCOUNT' }] });
  });

  it('transactions outside the open statement period (the clock’s month): moved inside and a note pinned, or with force_add_to_current_statement=false the first one fails the request', async () => {
    await imported('T-2');
    const body = { import_supplier: 'SUP', external_account_number: 'T-2', transactions: [{ transaction_id: 'in', transaction_date: '2024-02-29' }, { transaction_id: 'early', transaction_date: '2024-01-31', amount: -3 }, { transaction_id: 'late', transaction_date: '2024-03-01' }] };
    const refused = await api('createTransactions', `${paths.createTransactions}?force_add_to_current_statement=false`, { body });
    expect(refused).toMatchObject({ status: 400, body: { status: 'TRANSACTION_IMPORT_ERROR', error_detail: expect.stringContaining('2024-02-01 to 2024-02-29'), transaction_data: { transaction_id: 'early', amount: '-3.00' } } });
    const moved = await api('createTransactions', paths.createTransactions, { body });
    expect((moved.body as { results: { transaction_data: { transaction_date: string; note?: string } }[] }).results.map((r) => [r.transaction_data.transaction_date, r.transaction_data.note !== undefined])).toEqual([
      ['2024-02-29', false],
      ['2024-02-01', true],
      ['2024-02-29', true],
    ]);
    // Nothing of the refused request was added: all three are new in the second.
    expect((moved.body as { results: { status: string }[] }).results.every((r) => r.status === 'TRANSACTION_ADDED_TO_ACCOUNT')).toBe(true);
    expect(emulator.events().slice(-2).map((e) => e.outcome)).toEqual(['refused', 'succeeded']);
  });

  it('statements and the payment instruction need an imported account; they answer 201', async () => {
    const statements = { import_supplier: 'SUP', external_account_number: 'H-1', statements: [{ bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31', statement_id: 's', issued_date: '2024-02-01', number: '1', gross_amount: 10 }] };
    const payment = { import_supplier: 'SUP', external_account_number: 'H-1', vendor: 'V', reference: 'R-1', type: 'CARD' };
    expect(await api('createHistoricalStatements', paths.createHistoricalStatements, { body: statements })).toMatchObject({ status: 400, body: { code: 'account_not_imported' } });
    expect(await api('createPaymentInstruction', paths.createPaymentInstruction, { body: payment })).toMatchObject({ status: 400, body: { code: 'account_not_imported' } });
    const platform = await imported('H-1');
    expect(await api('createHistoricalStatements', paths.createHistoricalStatements, { body: statements })).toMatchObject({ status: 201, body: statements });
    expect(await api('createPaymentInstruction', paths.createPaymentInstruction, { body: payment })).toMatchObject({ status: 201, body: { platform_account_number: platform, reference: 'R-1' } });
    expect(emulator.events().map((e) => `${e.operationId} ${e.outcome} ${(e.event.payload as { resource_type: string }).resource_type}`)).toEqual([
      'createHistoricalStatements refused HISTORICAL_STATEMENT',
      'createPaymentInstruction refused PAYMENT_INSTRUCTION',
      'processAccount created ACCOUNT',
      'createHistoricalStatements succeeded HISTORICAL_STATEMENT',
      'createPaymentInstruction succeeded PAYMENT_INSTRUCTION',
    ]);
  });
});

describe('reads', () => {
  it('status: 404 before staging, UNKNOWN and "" once staged, COMPLETED with the platform account once processed', async () => {
    expect(await api('getAccountTransferStatus', paths.getAccountTransferStatus('SUP', 'R-1'))).toMatchObject({ status: 404 });
    await stage('R-1');
    expect((await api('getAccountTransferStatus', paths.getAccountTransferStatus('SUP', 'R-1'))).body).toEqual({ status: 'UNKNOWN', platform_account_number: '' });
    const platform = (await processing('R-1')).body as { platform_account_number: string };
    expect((await api('getAccountTransferStatus', paths.getAccountTransferStatus('SUP', 'R-1'))).body).toEqual({ status: 'COMPLETED', ...platform });
  });

  it('lists: pending = staged only, imported = processed only, all = both, in staging order, per supplier', async () => {
    await stage('L-1');
    const platform = await imported('L-2');
    await stage('L-3');
    expect((await call(emulator.url, 'PUT', '/_emulator/suppliers/OTHER', { body: { status: 'Ongoing' } })).status).toBe(200);
    await stage('L-9', 'OTHER');
    const created = '2024-02-10T08:00:02Z';
    const [l1, l2, l3] = [
      { external_account_number: 'L-1', platform_account_number: null, account_created_at: null },
      { external_account_number: 'L-2', platform_account_number: platform, account_created_at: created },
      { external_account_number: 'L-3', platform_account_number: null, account_created_at: null },
    ];
    expect((await api('listAllAccountImportProcesses', paths.listAllAccountImportProcesses('SUP'))).body).toEqual([l1, l2, l3]);
    expect((await api('listPendingAccountImportProcesses', paths.listPendingAccountImportProcesses('SUP'))).body).toEqual([l1, l3]);
    expect((await api('listImportedAccountImportProcesses', paths.listImportedAccountImportProcesses('SUP'))).body).toEqual([l2]);
    expect((await api('listAllAccountImportProcesses', paths.listAllAccountImportProcesses('OTHER'))).body).toEqual([{ external_account_number: 'L-9', platform_account_number: null, account_created_at: null }]);
  });
});

describe('the token', () => {
  it('every operation needs Authorization: Token <token> (or the bare token, as the seed’s prose says); with --token only that one', async () => {
    const strict = await startEmulator({ port: 0, token: 'right' });
    try {
      for (const [authorization, status] of [['Token right', 200], ['right', 200], ['token right', 200], ['Token wrong', 401], ['Bearer right', 401], [null, 401]] as const) {
        const response = await call(strict.url, 'GET', paths.listAllAccountImportProcesses('SUP'), { authorization });
        expect([authorization, response.status], response.text).toEqual([authorization, status]);
        if (status === 401) expect([response.headers.get('www-authenticate'), (response.body as { code: string }).code]).toEqual(['Token', authorization === null ? 'not_authenticated' : 'authentication_failed']);
      }
    } finally {
      await strict.close();
    }
  });
});

describe('suppliers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-suppliers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a YAML or JSON file lists them with status and settings', async () => {
    const yaml = join(dir, 'suppliers.yaml');
    writeFileSync(yaml, '# suppliers\nSUP:\n  status: Ongoing\n  document_root: "imports/sup"  # where documents are\n  automated_emails: false\nOLD: { status: Complete }\n');
    const json = join(dir, 'suppliers.json');
    writeFileSync(json, JSON.stringify({ SUP: { status: 'Ongoing' }, OLD: { status: 'Complete', automated_emails: true } }));
    for (const file of [yaml, json]) {
      const listed = await startEmulator({ port: 0, suppliers: file });
      try {
        const stageIn = async (supplier: string) => (await call(listed.url, 'POST', paths.stageAccount, { body: { import_supplier: supplier, external_account_number: 'X' } })).body;
        expect([await stageIn('SUP'), await stageIn('OLD'), await stageIn('NEW')]).toMatchObject([{ external_account_number: 'X' }, { code: 'import_supplier_not_ongoing' }, { code: 'unknown_import_supplier' }]);
      } finally {
        await listed.close();
      }
    }
  });

  it('a file with mistakes is refused with every one, at its place', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'SUP:\n  status: Sleeping\n  colour: red\nOLD: Paused\n\tTAB: x\nNEW:\n  automated_emails: "no"\n');
    const refusal = await startEmulator({ port: 0, suppliers: file }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SuppliersError);
    expect((refusal as SuppliersError).problems).toEqual([
      `${file}:5:1 indent with spaces, not tabs`,
      `${file}:2:3 supplier "SUP": status must be one of Ongoing, Paused, Complete, not "Sleeping"`,
      `${file}:3:3 supplier "SUP": unknown setting "colour"; allowed: status, document_root, automated_emails`,
      `${file}:4:1 supplier "OLD": its settings must be a mapping, e.g. { "status": "Ongoing" }`,
      `${file}:7:3 supplier "NEW": automated_emails must be a boolean`,
      `${file}:6:1 supplier "NEW": missing "status" (Ongoing, Paused, Complete)`,
    ]);
  });

  it('without a file any code is an Ongoing supplier; PUT /_emulator/suppliers/{code} pauses and resumes one', async () => {
    const open = await startEmulator({ port: 0 });
    try {
      const stageIn = async (external: string) => (await call(open.url, 'POST', paths.stageAccount, { body: { import_supplier: 'ANY', external_account_number: external } })).status;
      expect(await stageIn('1')).toBe(201);
      expect(await call(open.url, 'PUT', '/_emulator/suppliers/ANY', { body: { status: 'Paused' } })).toMatchObject({ status: 200, body: { code: 'ANY', status: 'Paused' } });
      expect(await stageIn('2')).toBe(400);
      expect(await call(open.url, 'PUT', '/_emulator/suppliers/ANY', { body: { status: 'Resting' } })).toMatchObject({ status: 400, body: { code: 'invalid_supplier' } });
      await call(open.url, 'PUT', '/_emulator/suppliers/ANY', { body: { status: 'Ongoing' } });
      expect(await stageIn('2')).toBe(201);
    } finally {
      await open.close();
    }
  });
});

describe('control', () => {
  it('faults: the next N calls of an operation answer the status asked, with Retry-After; then the operation answers again', async () => {
    const fault = await call(emulator.url, 'POST', '/_emulator/faults', { body: { operationId: 'processAccount', status: 429, times: 2, retryAfter: 1 } });
    expect(fault).toMatchObject({ status: 201, body: { operationId: 'processAccount', waiting: 2 } });
    await stage('F-1');
    for (const want of [429, 429, 201]) {
      const response = await processing('F-1');
      expect([response.status, response.headers.get('retry-after')]).toEqual([want, want === 429 ? '1' : null]);
    }
    expect(emulator.coverage().operations.processAccount).toEqual({ answered: { 201: 1, 429: 2 }, notAnswered: [400], faults: 2, dropped: 0 });
    expect(await call(emulator.url, 'POST', '/_emulator/faults', { body: { operationId: 'procesAccount', status: 99 } })).toMatchObject({ status: 400, body: { code: 'invalid_fault', errors: [{ detail: expect.stringMatching(/^operationId must be one of/) }, { detail: expect.stringMatching(/^status must be/) }] } });
  });

  it('events, reset and coverage', async () => {
    const platform = await imported('E-1');
    const events = await call(emulator.url, 'GET', '/_emulator/events');
    expect(events.body).toEqual([{ sequence: 1, time: '2024-02-10T08:00:01Z', operationId: 'processAccount', outcome: 'created', event: { type: 'data_import.import_process.complete', version: 'v1', payload: { resource_type: 'ACCOUNT', external_identifier: 'E-1', identifier: platform } } }]);
    const coverage = (await call(emulator.url, 'GET', '/_emulator/coverage')).body as { events: Record<string, number>; outcomes: Record<string, Record<string, number>> };
    expect(coverage.events['data_import.import_process.complete@v1']).toBe(1);
    expect(coverage.outcomes.processAccount).toEqual({ created: 1, refused: 0, dry_run_succeeded: 0, dry_run_refused: 0 });
    expect((await call(emulator.url, 'POST', '/_emulator/reset')).status).toBe(204);
    expect((await call(emulator.url, 'GET', '/_emulator/events')).body).toEqual([]);
    expect((await call(emulator.url, 'GET', paths.getAccountTransferStatus('SUP', 'E-1'))).status).toBe(404);
    // The clock and the seed start again: the same calls give the same account.
    expect(await imported('E-1')).toBe(platform);
  });

  it('control paths: 404 for an unknown one, 405 with Allow for another method', async () => {
    expect(await call(emulator.url, 'GET', '/_emulator/nothing')).toMatchObject({ status: 404, body: { code: 'not_found' } });
    const wrong = await call(emulator.url, 'GET', '/_emulator/reset');
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('an answer that would break the contract', () => {
  it('is a 500 naming the bug, and a violation in the coverage', async () => {
    const handlers = OPERATION_HANDLERS as Record<OperationId, (typeof OPERATION_HANDLERS)[OperationId]>;
    const original = handlers.getAccountTransferStatus;
    handlers.getAccountTransferStatus = () => ({ reply: { status: 200, body: { status: 'DONE', platform_account_number: 7 } } });
    try {
      const response = await call(emulator.url, 'GET', paths.getAccountTransferStatus('SUP', 'X'));
      expect(response).toMatchObject({ status: 500, body: { code: 'emulator_contract_violation', detail: expect.stringContaining('emulator bug: getAccountTransferStatus answered 200, which breaks the contract') } });
      expect(emulator.coverage().violations).toEqual([expect.stringContaining('/body/status')]);
    } finally {
      handlers.getAccountTransferStatus = original;
      emulator.reset();
    }
  });
});
