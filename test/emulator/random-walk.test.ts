/**
 * A model-based random walk (fast-check `commands`): sequences of calls over all 11
 * operations, suppliers paused and resumed, faults injected. Every answer must agree with
 * the small model of the seed's rules (`seed-model.ts`) and pass `validateResponse`; every
 * event must be the one the model expects; after each sequence the emulator's accounts must
 * be the model's.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DRY_RUN_TEXT, startEmulator, type Emulator } from '../../runtime/emulator/index.js';
import { validateResponse, type OperationId } from '../../runtime/rest/index.js';
import { call, paths, type RawResponse } from './http.js';
import { centsText, CLOCK_START, isPhoneNumber, noteExists, PERIOD, SeedModel, type ExpectedEvent, type ModelFault, type SupplierStatus } from './seed-model.js';

interface Real {
  emulator: Emulator;
  /** Events of the emulator already compared. */
  seen: number;
}

let emulator: Emulator;
let calls = 0;
/** Every (operation, status) answered, every event type emitted, over all runs. */
const answered = new Set<string>();
const emitted = new Set<string>();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, clock: CLOCK_START, seed: 42 });
});
afterAll(() => emulator.close());

const SUPPLIERS = ['S1', 'S2'];
const supplierArb = fc.constantFrom(...SUPPLIERS);
const externalArb = fc.constantFrom('E1', 'E2', 'E3');

/** One operation call: the fault the model expects if one waits (else `undefined`), the response, its contract check. */
async function operation(m: SeedModel, r: Real, operationId: OperationId, method: string, path: string, body?: unknown): Promise<{ response: RawResponse; fault: ModelFault | undefined; time: string }> {
  const time = m.tick();
  const fault = m.takeFault(operationId);
  const response = await call(r.emulator.url, method, path, body === undefined ? {} : { body });
  calls += 1;
  answered.add(`${operationId} ${response.status}`);
  expect(validateResponse(operationId, response.status, response.body), `${operationId} ${response.status} ${response.text}`).toEqual({ ok: true });
  if (fault) {
    expect([response.status, response.body]).toEqual([fault.status, fault.body]);
    expectEvents(r, []);
  }
  return { response, fault, time };
}

function expectEvents(r: Real, expected: readonly ExpectedEvent[]): void {
  const events = r.emulator.events().slice(r.seen);
  r.seen += events.length;
  expect(events.map((e) => ({ type: e.event.type, payload: e.event.payload }))).toEqual(expected);
  for (const e of events) emitted.add(e.event.type);
}

const refusedEvent = (type: string, resource: string, external: string, code: string): ExpectedEvent => ({
  type,
  payload: type.includes('post_import') ? { resource_type: resource, import_process_resource_type: 'ACCOUNT', import_process_external_identifier: external, error_code: code, error_detail: expect.any(String) as string } : { resource_type: resource, external_identifier: external, error_code: code, error_detail: expect.any(String) as string },
});
const completedEvent = (resource: string, external: string, platform: string): ExpectedEvent => ({
  type: 'data_import.import_process.post_import.completed',
  payload: { resource_type: resource, import_process_resource_type: 'ACCOUNT', import_process_external_identifier: external, identifier: platform },
});

type Command = fc.AsyncCommand<SeedModel, Real>;
const command = (name: string, run: (m: SeedModel, r: Real) => Promise<void>): Command => ({ check: () => true, run, toString: () => name });

// Mostly none or a phone number: a refused account stops the walk from going further.
const landlineArb = fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: fc.constantFrom('020 7946 0958', '+44 (20) 7946-0958'), weight: 3 }, { arbitrary: fc.constantFrom('12', 'call me'), weight: 1 });

const validate = fc.record({ supplier: supplierArb, external: externalArb, landline: landlineArb }).map(({ supplier, external, landline }) =>
  command(`validate ${supplier}/${external} ${landline}`, async (m, r) => {
    const account = { import_supplier: supplier, external_account_number: external, ...(landline !== undefined && { customers: [{ landline }] }) };
    const { response, fault } = await operation(m, r, 'validateAccount', 'POST', paths.validateAccount, account);
    if (fault) return;
    if (landline !== undefined && !isPhoneNumber(landline)) expect(response).toMatchObject({ status: 400, body: { code: 'account_failed_validation', errors: [{ attr: 'customers.0.landline' }] } });
    else expect([response.status, response.body]).toEqual([200, account]);
    expectEvents(r, []);
  }),
);

const stage = fc.record({ supplier: supplierArb, external: externalArb, landline: landlineArb }).map(({ supplier, external, landline }) =>
  command(`stage ${supplier}/${external} ${landline}`, async (m, r) => {
    const { response, fault } = await operation(m, r, 'stageAccount', 'POST', paths.stageAccount, { import_supplier: supplier, external_account_number: external, ...(landline !== undefined && { customers: [{ landline }] }) });
    if (fault) return;
    const existing = m.account(supplier, external);
    if (landline !== undefined && !isPhoneNumber(landline)) expect(response).toMatchObject({ status: 400, body: { code: 'account_failed_validation' } });
    else if (m.supplier(supplier) !== 'Ongoing') expect(response).toMatchObject({ status: 400, body: { code: 'import_supplier_not_ongoing' } });
    else if (existing?.platform !== undefined) expect(response).toMatchObject({ status: 400, body: { code: 'account_already_imported' } });
    else {
      expect([response.status, response.body]).toEqual([existing ? 200 : 201, { import_supplier: supplier, external_account_number: external }]);
      m.stage(supplier, external);
    }
    expectEvents(r, []);
  }),
);

const processCommand = fc.record({ supplier: supplierArb, external: externalArb, dryRun: fc.boolean() }).map(({ supplier, external, dryRun }) =>
  command(`process ${supplier}/${external}${dryRun ? ' dry run' : ''}`, async (m, r) => {
    const { response, fault, time } = await operation(m, r, 'processAccount', 'POST', paths.processAccount, { import_supplier_code: supplier, external_account_number: external, operations_team_name: 'Migrations', ...(dryRun && { dry_run: true }) });
    if (fault) return;
    const account = m.account(supplier, external);
    const refusedType = dryRun ? 'data_import.import_process.dry_run_error' : 'data_import.import_process.error';
    const code = !account ? 'account_not_staged' : m.supplier(supplier) !== 'Ongoing' ? 'import_supplier_not_ongoing' : account.platform !== undefined ? 'account_already_imported' : undefined;
    if (code) {
      expect(response).toMatchObject({ status: 400, body: { code, ...(code === 'account_already_imported' && { external_account_number: external, platform_account_number: account!.platform }) } });
      return expectEvents(r, [refusedEvent(refusedType, 'ACCOUNT', external, code)]);
    }
    if (dryRun) {
      expect([response.status, response.body]).toEqual([400, DRY_RUN_TEXT]);
      return expectEvents(r, [{ type: 'data_import.import_process.dry_run_complete', payload: { resource_type: 'ACCOUNT', external_identifier: external } }]);
    }
    expect(response.status).toBe(201);
    const platform = (response.body as { platform_account_number: string }).platform_account_number;
    expect(platform).toMatch(/^P-[0-9A-F]{8}$/);
    expect([...m.accounts.values()].map((a) => a.platform)).not.toContain(platform);
    Object.assign(account!, { platform, createdAt: time });
    expectEvents(r, [{ type: 'data_import.import_process.complete', payload: { resource_type: 'ACCOUNT', external_identifier: external, identifier: platform } }]);
  }),
);

const noteArb = fc.oneof(
  fc.record({ body: fc.constantFrom('Called.', 'Emailed.'), created_at: fc.option(fc.constantFrom('2024-01-01T00:00:00Z', '2024-01-02T09:30:00Z'), { nil: undefined }) }, { requiredKeys: ['body'] }),
  fc.record({ document_paths: fc.constantFrom([{ document_path: 'a.pdf' }], [{ document_path: 'b.pdf' }]), created_at: fc.option(fc.constant('2024-01-01T00:00:00Z'), { nil: undefined }) }, { requiredKeys: ['document_paths'] }),
);
const notes = fc.record({ supplier: supplierArb, external: externalArb, notes: fc.array(noteArb, { minLength: 1, maxLength: 4 }) }).map(({ supplier, external, notes }) =>
  command(`notes ${supplier}/${external} ${JSON.stringify(notes)}`, async (m, r) => {
    const { response, fault, time } = await operation(m, r, 'createNotes', 'POST', paths.createNotes, { import_supplier: supplier, external_account_number: external, notes });
    if (fault) return;
    const account = m.imported(supplier, external);
    if (!account) {
      expect(response.status).toBe(404);
      return expectEvents(r, [refusedEvent('data_import.import_process.post_import.error', 'NOTE', external, 'account_not_imported')]);
    }
    const results = notes.map((note) => {
      const exists = noteExists(account.notes, note);
      const createdAt = note.created_at ?? time;
      if (!exists) account.notes.push({ ...('body' in note && { body: note.body }), ...('document_paths' in note && { documentPaths: note.document_paths }), createdAt });
      return { created_at: createdAt, body: 'body' in note ? note.body : '', status: exists ? 'NOTE_ALREADY_EXISTS' : 'NOTE_CREATION_SUCCESS' };
    });
    expect([response.status, response.body]).toEqual([201, results]);
    expectEvents(r, [completedEvent('NOTE', external, account.platform)]);
  }),
);

const transactionArb = fc.record({ transaction_id: fc.constantFrom('t1', 't2', 't3'), transaction_date: fc.constantFrom('2024-02-05', '2024-01-15', '2024-03-02', PERIOD.last), cents: fc.integer({ min: -100_000, max: 100_000 }) });
const transactions = fc
  .record({ supplier: supplierArb, external: externalArb, transactions: fc.array(transactionArb, { minLength: 1, maxLength: 3 }), check: fc.option(fc.boolean(), { nil: undefined }), force: fc.option(fc.boolean(), { nil: undefined }) })
  .map(({ supplier, external, transactions, check, force }) =>
    command(`transactions ${supplier}/${external} check=${check} force=${force} ${JSON.stringify(transactions)}`, async (m, r) => {
      const query = new URLSearchParams({ ...(check !== undefined && { check_previously_added: String(check) }), ...(force !== undefined && { force_add_to_current_statement: String(force) }) }).toString();
      const sent = transactions.map(({ cents, ...t }) => ({ ...t, amount: cents / 100 }));
      const { response, fault } = await operation(m, r, 'createTransactions', 'POST', `${paths.createTransactions}${query ? `?${query}` : ''}`, { import_supplier: supplier, external_account_number: external, transactions: sent });
      if (fault) return;
      const account = m.imported(supplier, external);
      if (!account) {
        expect(response).toMatchObject({ status: 400, body: { code: 'account_not_imported' } });
        return expectEvents(r, [refusedEvent('data_import.import_process.post_import.error', 'TRANSACTION', external, 'account_not_imported')]);
      }
      const outside = (date: string): boolean => date < PERIOD.first || date > PERIOD.last;
      const failing = force === false ? transactions.find((t) => outside(t.transaction_date)) : undefined;
      if (failing) {
        expect(response).toMatchObject({ status: 400, body: { status: 'TRANSACTION_IMPORT_ERROR', transaction_data: { transaction_id: failing.transaction_id, transaction_date: failing.transaction_date, amount: centsText(failing.cents) } } });
        return expectEvents(r, [refusedEvent('data_import.import_process.post_import.error', 'TRANSACTION', external, 'TRANSACTION_IMPORT_ERROR')]);
      }
      const results = transactions.map((t) => {
        if (check !== false && account.transactionIds.has(t.transaction_id)) return { status: 'TRANSACTION_ALREADY_EXISTS', date: t.transaction_date, amount: centsText(t.cents) };
        account.transactionIds.add(t.transaction_id);
        const date = !outside(t.transaction_date) ? t.transaction_date : t.transaction_date < PERIOD.first ? PERIOD.first : PERIOD.last;
        return { status: 'TRANSACTION_ADDED_TO_ACCOUNT', date, amount: centsText(t.cents) };
      });
      expect(response.status).toBe(201);
      const got = (response.body as { results: { status: string; transaction_data: { transaction_date: string; amount: string } }[] }).results;
      expect(got.map((g) => ({ status: g.status, date: g.transaction_data.transaction_date, amount: g.transaction_data.amount }))).toEqual(results);
      expectEvents(r, [completedEvent('TRANSACTION', external, account.platform)]);
    }),
  );

const statements = fc.record({ supplier: supplierArb, external: externalArb, id: fc.constantFrom('s1', 's2') }).map(({ supplier, external, id }) =>
  command(`statements ${supplier}/${external} ${id}`, async (m, r) => {
    const body = { import_supplier: supplier, external_account_number: external, statements: [{ bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31', statement_id: id, issued_date: '2024-02-01', number: '7', gross_amount: 12.5, statement_path: `${id}.pdf` }] };
    const { response, fault } = await operation(m, r, 'createHistoricalStatements', 'POST', paths.createHistoricalStatements, body);
    if (fault) return;
    const account = m.imported(supplier, external);
    if (!account) {
      expect(response).toMatchObject({ status: 400, body: { code: 'account_not_imported' } });
      return expectEvents(r, [refusedEvent('data_import.import_process.post_import.error', 'HISTORICAL_STATEMENT', external, 'account_not_imported')]);
    }
    expect([response.status, response.body]).toEqual([201, body]);
    expectEvents(r, [completedEvent('HISTORICAL_STATEMENT', external, account.platform)]);
  }),
);

const payment = fc.record({ supplier: supplierArb, external: externalArb, reference: fc.constantFrom('R-1', 'R-2') }).map(({ supplier, external, reference }) =>
  command(`payment ${supplier}/${external} ${reference}`, async (m, r) => {
    const { response, fault } = await operation(m, r, 'createPaymentInstruction', 'POST', paths.createPaymentInstruction, { import_supplier: supplier, external_account_number: external, vendor: 'GoCardless', reference, type: 'CARD' });
    if (fault) return;
    const account = m.imported(supplier, external);
    if (!account) {
      expect(response).toMatchObject({ status: 400, body: { code: 'account_not_imported' } });
      return expectEvents(r, [refusedEvent('data_import.import_process.post_import.error', 'PAYMENT_INSTRUCTION', external, 'account_not_imported')]);
    }
    expect([response.status, response.body]).toEqual([201, { platform_account_number: account.platform, reference }]);
    expectEvents(r, [completedEvent('PAYMENT_INSTRUCTION', external, account.platform)]);
  }),
);

const status = fc.record({ supplier: supplierArb, external: externalArb }).map(({ supplier, external }) =>
  command(`status ${supplier}/${external}`, async (m, r) => {
    const { response, fault } = await operation(m, r, 'getAccountTransferStatus', 'GET', paths.getAccountTransferStatus(supplier, external));
    if (fault) return;
    const account = m.account(supplier, external);
    if (!account) expect(response.status).toBe(404);
    else expect([response.status, response.body]).toEqual([200, account.platform === undefined ? { status: 'UNKNOWN', platform_account_number: '' } : { status: 'COMPLETED', platform_account_number: account.platform }]);
    expectEvents(r, []);
  }),
);

const LISTS = {
  listAllAccountImportProcesses: 'all',
  listPendingAccountImportProcesses: 'pending',
  listImportedAccountImportProcesses: 'imported',
} as const;
const listIds = Object.keys(LISTS) as (keyof typeof LISTS)[];
const list = fc.record({ supplier: supplierArb, operationId: fc.constantFrom(...listIds) }).map(({ supplier, operationId }) =>
  command(`${operationId} ${supplier}`, async (m, r) => {
    const { response, fault } = await operation(m, r, operationId, 'GET', paths[operationId](supplier));
    if (fault) return;
    expect([response.status, response.body]).toEqual([200, m.listItems(supplier, LISTS[operationId])]);
    expectEvents(r, []);
  }),
);

const setSupplier = fc.record({ supplier: supplierArb, status: fc.constantFrom<SupplierStatus>('Ongoing', 'Ongoing', 'Ongoing', 'Paused', 'Complete') }).map(({ supplier, status }) =>
  command(`supplier ${supplier} → ${status}`, async (m, r) => {
    expect(await call(r.emulator.url, 'PUT', `/_emulator/suppliers/${supplier}`, { body: { status } })).toMatchObject({ status: 200, body: { code: supplier, status } });
    m.suppliers.set(supplier, status);
  }),
);

/** Faults whose statuses the contract names for the operation (so every answer is still checked by it). */
const FAULTS: readonly [OperationId, ModelFault][] = [
  ['processAccount', { status: 429 }],
  ['createPaymentInstruction', { status: 500 }],
  ['createNotes', { status: 404 }],
  ['getAccountTransferStatus', { status: 404 }],
  ['stageAccount', { status: 400, body: { detail: 'injected', code: 'injected', errors: [] } }],
  ['createTransactions', { status: 400, body: { detail: 'injected', code: 'injected', errors: [] } }],
];
const inject = fc.record({ fault: fc.constantFrom(...FAULTS), times: fc.integer({ min: 1, max: 2 }) }).map(({ fault: [operationId, fault], times }) =>
  command(`fault ${operationId} ${fault.status} ×${times}`, async (m, r) => {
    expect((await call(r.emulator.url, 'POST', '/_emulator/faults', { body: { operationId, times, ...fault } })).status).toBe(201);
    m.faults.set(operationId, [...(m.faults.get(operationId) ?? []), ...Array.from({ length: times }, () => fault)]);
  }),
);

// Staging, processing, notes and transactions twice as often as the rest: the first two open
// the way for everything else, the last two have the most rules.
const COMMANDS = [validate, stage, stage, processCommand, processCommand, notes, notes, transactions, transactions, statements, payment, status, list, setSupplier, inject];

/** The emulator's accounts, through its own reads, are the model's. */
async function expectSameState(m: SeedModel, r: Real): Promise<void> {
  for (const supplier of SUPPLIERS) {
    const listed = await call(r.emulator.url, 'GET', paths.listAllAccountImportProcesses(supplier));
    expect(listed.body, `accounts of ${supplier}`).toEqual(m.listItems(supplier, 'all'));
  }
  for (const account of m.accounts.values()) {
    const looked = await call(r.emulator.url, 'GET', paths.getAccountTransferStatus(account.supplier, account.external));
    expect(looked.body).toEqual({ status: account.platform === undefined ? 'UNKNOWN' : 'COMPLETED', platform_account_number: account.platform ?? '' });
  }
}

it(
  'agrees with the model of the seed’s rules on every answer and event, over 1,000 calls and more',
  async () => {
    calls = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(COMMANDS, { maxCommands: 150, size: 'max' }), async (commands) => {
        emulator.reset();
        const model = new SeedModel();
        const real: Real = { emulator, seen: 0 };
        await fc.asyncModelRun(() => ({ model, real }), commands);
        // Faults not yet served would answer the reads below: serve them out first.
        emulator.reset();
        expect(emulator.coverage().violations).toEqual([]);
      }),
      { numRuns: 40 },
    );
    expect(calls).toBeGreaterThanOrEqual(1000);
  },
  120_000,
);

it(
  'ends every walk with the emulator’s accounts equal to the model’s',
  async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(COMMANDS.filter((c) => c !== inject), { maxCommands: 60 }), async (commands) => {
        emulator.reset();
        const model = new SeedModel();
        const real: Real = { emulator, seen: 0 };
        await fc.asyncModelRun(() => ({ model, real }), commands);
        await expectSameState(model, real);
      }),
      { numRuns: 20 },
    );
  },
  120_000,
);

it('reached every operation, each outcome’s events, and the statuses the rules give', () => {
  const operations = new Set([...answered].map((a) => a.split(' ')[0]));
  expect([...operations].sort()).toHaveLength(11);
  for (const wanted of ['stageAccount 200', 'stageAccount 201', 'processAccount 201', 'processAccount 400', 'processAccount 429', 'createNotes 404', 'createNotes 201', 'createTransactions 400', 'createPaymentInstruction 500', 'getAccountTransferStatus 404']) {
    expect(answered, wanted).toContain(wanted);
  }
  expect([...emitted].sort()).toEqual([
    'data_import.import_process.complete',
    'data_import.import_process.dry_run_complete',
    'data_import.import_process.dry_run_error',
    'data_import.import_process.error',
    'data_import.import_process.post_import.completed',
    'data_import.import_process.post_import.error',
  ]);
});
