/**
 * The account's own moves (seed: "Endpoint rules" 1–3, "States and transitions"): validate
 * writes nothing; stage stores the data (201, then 200); process makes the platform account,
 * or with `dry_run` says it would and changes nothing.
 */
import { sleep } from '../internal/sleep.js';
import type { Account, ApiRequest, CreateAccountRequest } from '../rest/index.js';
import { errorBody, refusal, type Answer, type Reply } from './answer.js';
import type { CallContext } from './call-context.js';
import { toDatetime } from './clock.js';
import { accountKey, type AccountRecord, type EmulatorState } from './state.js';

export const DRY_RUN_TEXT = 'Account would successfully import. Rolled back due to Dry Run.';

/**
 * The account rules the seed shows: a customer's `landline` is a phone number (its format is
 * not shown; assumed: 7 to 15 digits, an optional leading `+`, spaces, hyphens, brackets between).
 */
function accountFailures(account: Account): Reply | undefined {
  const errors = (account.customers ?? []).flatMap((customer, i) =>
    typeof customer.landline === 'string' && !/^\+?\d{7,15}$/.test(customer.landline.replace(/[\s()-]/g, ''))
      ? [{ detail: 'Enter a valid phone number.', code: 'invalid_phone_number', attr: `customers.${i}.landline` }]
      : [],
  );
  return errors.length > 0 ? { status: 400, body: { detail: 'Account failed validation.', code: 'account_failed_validation', errors } } : undefined;
}

export function validateAccount(body: ApiRequest<'validateAccount'>): Answer {
  return { reply: accountFailures(body) ?? { status: 200, body } };
}

/** Why a supplier refuses migrations, if it does: unknown (with a suppliers file), Paused or Complete. */
function supplierRefusal(state: EmulatorState, code: string, attr: string): Reply | undefined {
  const supplier = state.supplier(code);
  if (!supplier) return refusal(400, `There is no import supplier ${JSON.stringify(code)}.`, 'unknown_import_supplier', attr);
  if (supplier.status !== 'Ongoing') return refusal(400, `The import supplier ${JSON.stringify(code)} is ${supplier.status}: migrations are refused.`, 'import_supplier_not_ongoing', attr);
  return undefined;
}

const inProgress = (): Reply => refusal(400, 'A process is already running for this account.', 'account_import_in_progress', 'external_account_number');

export function stageAccount(body: ApiRequest<'stageAccount'>, { state }: CallContext): Answer {
  const existing = state.account(body.import_supplier, body.external_account_number);
  const refused =
    accountFailures(body) ??
    supplierRefusal(state, body.import_supplier, 'import_supplier') ??
    (existing?.platform !== undefined ? refusal(400, 'The account is already imported.', 'account_already_imported', 'external_account_number') : undefined) ??
    (existing?.processing ? inProgress() : undefined);
  if (refused) return { reply: refused };
  const staged = { import_supplier: body.import_supplier, external_account_number: body.external_account_number };
  if (existing) {
    existing.data = body;
    return { reply: { status: 200, body: staged }, transition: 'restaged' };
  }
  const account: AccountRecord = { supplier: body.import_supplier, external: body.external_account_number, data: body, processing: false, notes: [], transactionIds: new Set(), transactionCount: 0, statements: new Map() };
  state.accounts.set(accountKey(account.supplier, account.external), account);
  return { reply: { status: 201, body: staged }, transition: 'staged' };
}

/** Why a process is refused, if it is: not staged, the supplier, already imported, already running. */
function processRefusal(state: EmulatorState, body: CreateAccountRequest): Reply | undefined {
  const account = state.account(body.import_supplier_code, body.external_account_number);
  if (!account) return refusal(400, 'No staged data for this account: stage it first.', 'account_not_staged', 'external_account_number');
  const supplier = supplierRefusal(state, body.import_supplier_code, 'import_supplier_code');
  if (supplier) return supplier;
  if (account.platform !== undefined) {
    return { status: 400, body: { ...errorBody('The account is already imported.', 'account_already_imported', 'external_account_number'), external_account_number: account.external, platform_account_number: account.platform } };
  }
  return account.processing ? inProgress() : undefined;
}

/**
 * Process: the concurrency limit first (429, no event: nothing was tried), then the seed's
 * refusals (400, the `refused` or `dry_run_refused` events), then the process itself, which
 * holds its account `IN_PROGRESS` for `processingMs`.
 */
export function processAccount(body: ApiRequest<'processAccount'>, context: CallContext): Answer | Promise<Answer> {
  const { state, now, concurrencyLimit, processingMs } = context;
  const dryRun = body.dry_run === true;
  const facts = { resourceType: 'ACCOUNT', externalAccountNumber: body.external_account_number };
  if (concurrencyLimit !== undefined && state.processing >= concurrencyLimit) {
    const reply = refusal(429, `${state.processing} accounts are being processed, the most allowed at once: retry after other accounts finish.`, 'concurrency_limit_exceeded');
    return { reply: { ...reply, headers: { 'retry-after': String(Math.max(1, Math.ceil(processingMs / 1000))) } } };
  }
  const refused = processRefusal(state, body);
  if (refused) {
    const { code, detail } = refused.body as { code: string; detail: string };
    return { reply: refused, outcome: { name: dryRun ? 'dry_run_refused' : 'refused', facts: { ...facts, errorCode: code, errorDetail: detail } } };
  }
  const account = state.account(body.import_supplier_code, body.external_account_number)!;
  account.processing = true;
  state.processing += 1;
  const finish = (): Answer => {
    account.processing = false;
    state.processing -= 1;
    if (dryRun) return { reply: { status: 400, text: DRY_RUN_TEXT }, outcome: { name: 'dry_run_succeeded', facts }, transition: 'dryRun' };
    account.platform = state.newPlatformNumber();
    account.createdAt = toDatetime(now);
    return { reply: { status: 201, body: { platform_account_number: account.platform } }, outcome: { name: 'created', facts: { ...facts, platformAccountNumber: account.platform } }, transition: 'imported' };
  };
  return processingMs > 0 ? sleep(processingMs).then(finish) : finish();
}
