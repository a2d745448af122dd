/**
 * What is imported onto an account once it exists (seed: "Endpoint rules" 4–9): notes,
 * transactions, historical statements, the payment instruction. Each needs the account
 * imported, not merely staged; each publishes one event, `succeeded` or `refused`.
 */
import type { ApiRequest, Transaction, TransactionRecord } from '../rest/index.js';
import { refusal, type Answer } from './answer.js';
import type { CallContext } from './call-context.js';
import { monthOf, toDatetime } from './clock.js';
import type { AccountRecord } from './state.js';

/** A two-place decimal string of a number, whatever its size (`toFixed` turns to exponents from 1e21). */
export function twoPlaces(amount: number): string {
  return Math.abs(amount) < 1e21 ? amount.toFixed(2) : `${BigInt(amount).toString()}.00`;
}

type Refused = { code: string; detail: string };

/** The `refused` outcome of a post-import reply in the seed's error body. */
function refused(resourceType: string, external: string, reply: Answer['reply']): Answer {
  const { code, detail } = reply.body as Refused;
  return { reply, outcome: { name: 'refused', facts: { resourceType, externalAccountNumber: external, errorCode: code, errorDetail: detail } } };
}

const succeeded = (resourceType: string, account: AccountRecord & { platform: string }, reply: Answer['reply']): Answer => ({
  reply,
  outcome: { name: 'succeeded', facts: { resourceType, externalAccountNumber: account.external, platformAccountNumber: account.platform } },
});

const notImported = (resourceType: string, external: string, status: 400 | 404): Answer =>
  refused(resourceType, external, refusal(status, 'No imported account for this supplier and external account number: it must be processed, not merely staged.', 'account_not_imported', status === 400 ? 'external_account_number' : undefined));

/** Notes: a note whose body (and `created_at`, when given) is already on the account is `NOTE_ALREADY_EXISTS`. */
export function createNotes(body: ApiRequest<'createNotes'>, { state, now }: CallContext): Answer {
  const account = state.imported(body.import_supplier, body.external_account_number);
  if (!account) return notImported('NOTE', body.external_account_number, 404);
  const results = body.notes.map((note) => {
    const documents = note.body === undefined ? JSON.stringify(note.document_paths ?? []) : undefined;
    const same = account.notes.some((n) => n.body === note.body && n.documents === documents && (note.created_at === undefined || n.created_at === note.created_at));
    const created_at = note.created_at ?? toDatetime(now);
    if (!same) account.notes.push({ ...(note.body !== undefined && { body: note.body }), ...(documents !== undefined && { documents }), created_at, ...(note.is_pinned !== undefined && { is_pinned: note.is_pinned }) });
    return { created_at, body: note.body ?? '', status: same ? ('NOTE_ALREADY_EXISTS' as const) : ('NOTE_CREATION_SUCCESS' as const) };
  });
  return succeeded('NOTE', account, { status: 201, body: results });
}

const flag = (value: unknown): boolean => value !== false && value !== 'false';

/** A transaction as the service answers it: the amount a two-place decimal string. */
const asRecord = (transaction: Transaction): TransactionRecord => {
  const { amount, ...rest } = transaction;
  return { ...rest, ...(amount !== undefined && { amount: twoPlaces(amount) }) };
};

/**
 * Transactions. The open statement period is the calendar month of the emulator's clock. With
 * `force_add_to_current_statement` (default true) a transaction dated outside it is moved to
 * its nearest day inside, says so in its `note`, and a note saying so is pinned to the account;
 * without, the first such transaction fails the request (400, nothing added). With
 * `check_previously_added` (default true) a transaction id already added is skipped.
 */
export function createTransactions(body: ApiRequest<'createTransactions'>, { state, now }: CallContext, query: Record<string, unknown>): Answer {
  const account = state.imported(body.import_supplier, body.external_account_number);
  if (!account) return notImported('TRANSACTION', body.external_account_number, 400);
  const [checkPreviouslyAdded, force] = [flag(query.check_previously_added), flag(query.force_add_to_current_statement)];
  const period = monthOf(now);
  const outside = (t: Transaction): boolean => t.transaction_date !== undefined && (t.transaction_date < period.first || t.transaction_date > period.last);
  const failing = force ? undefined : body.transactions.find(outside);
  if (failing) {
    const detail = `transaction_date ${failing.transaction_date} is outside the open statement period, ${period.first} to ${period.last}`;
    const reply = { status: 400, body: { status: 'TRANSACTION_IMPORT_ERROR', error_detail: detail, transaction_data: asRecord(failing) } };
    return { reply, outcome: { name: 'refused', facts: { resourceType: 'TRANSACTION', externalAccountNumber: account.external, errorCode: 'TRANSACTION_IMPORT_ERROR', errorDetail: detail } } };
  }
  const results = body.transactions.map((transaction) => {
    const id = transaction.transaction_id;
    if (checkPreviouslyAdded && id !== undefined && account.transactionIds.has(id)) return { status: 'TRANSACTION_ALREADY_EXISTS' as const, transaction_data: asRecord(transaction) };
    if (id !== undefined) account.transactionIds.add(id);
    account.transactionCount += 1;
    if (!outside(transaction)) return { status: 'TRANSACTION_ADDED_TO_ACCOUNT' as const, transaction_data: asRecord(transaction) };
    const date = transaction.transaction_date!;
    const moved = date < period.first ? period.first : period.last;
    const description = `Dated ${date}, outside the open statement period (${period.first} to ${period.last}): added on ${moved}.`;
    account.notes.push({ body: `Transaction ${id ?? '(no id)'}: ${description}`, created_at: toDatetime(now), is_pinned: true });
    const note = transaction.note === undefined ? description : `${transaction.note} ${description}`;
    return { status: 'TRANSACTION_ADDED_TO_ACCOUNT' as const, transaction_data: asRecord({ ...transaction, transaction_date: moved, note }) };
  });
  return succeeded('TRANSACTION', account, { status: 201, body: { results } });
}

/** Historical statements, kept by `statement_id`; the answer is the validated data (201: the seed's status table). */
export function createHistoricalStatements(body: ApiRequest<'createHistoricalStatements'>, { state }: CallContext): Answer {
  const account = state.imported(body.import_supplier, body.external_account_number);
  if (!account) return notImported('HISTORICAL_STATEMENT', body.external_account_number, 400);
  for (const statement of body.statements) account.statements.set(statement.statement_id, statement);
  return succeeded('HISTORICAL_STATEMENT', account, { status: 201, body });
}

/** The payment instruction (the vendor is not called: its failures are faults to inject). */
export function createPaymentInstruction(body: ApiRequest<'createPaymentInstruction'>, { state }: CallContext): Answer {
  const account = state.imported(body.import_supplier, body.external_account_number);
  if (!account) return notImported('PAYMENT_INSTRUCTION', body.external_account_number, 400);
  account.paymentInstruction = body;
  return succeeded('PAYMENT_INSTRUCTION', account, { status: 201, body: { platform_account_number: account.platform, reference: body.reference } });
}
