/** The reads (seed: "Endpoint rules" 10–11): an account's import status, and the three lists of a supplier's accounts. */
import type { AccountImportListItem, ApiParams } from '../rest/index.js';
import { refusal, type Answer } from './answer.js';
import type { CallContext } from './call-context.js';
import type { AccountRecord } from './state.js';

/** 404 before staging; after, `COMPLETED` with the platform account, `IN_PROGRESS` while a process runs, else `UNKNOWN` and `""`. */
export function getAccountTransferStatus(params: ApiParams<'getAccountTransferStatus'>, { state }: CallContext): Answer {
  const account = state.account(params.import_supplier_code, params.external_account_number);
  if (!account) return { reply: refusal(404, 'No import process for this supplier and external account number.', 'not_found') };
  const status = account.platform !== undefined ? 'COMPLETED' : account.processing ? 'IN_PROGRESS' : 'UNKNOWN';
  return { reply: { status: 200, body: { status, platform_account_number: account.platform ?? '' } } };
}

const listItem = (account: AccountRecord): AccountImportListItem => ({ external_account_number: account.external, platform_account_number: account.platform ?? null, account_created_at: account.createdAt ?? null });

/** A supplier's accounts in the order they were first staged: `pending` staged only, `imported` processed only, `all` both. */
export function listAccounts(which: 'all' | 'pending' | 'imported', params: { import_supplier_code: string }, { state }: CallContext): Answer {
  const items: AccountImportListItem[] = [];
  for (const account of state.accounts.values()) {
    if (account.supplier !== params.import_supplier_code) continue;
    if (which === 'all' || (which === 'imported') === (account.platform !== undefined)) items.push(listItem(account));
  }
  return { reply: { status: 200, body: items } };
}
