/**
 * A contract test server of the data-import REST API: node:http on 127.0.0.1, following the
 * seed's state machine (stage, then process; notes only on imported accounts, 404 otherwise;
 * duplicate notes and transactions reported as already existing; a Paused or Complete
 * supplier refused; the concurrency limit answered with 429). Every request is checked with
 * the generated validators (an invalid one gets the service's validation error body), every
 * answer with `validateResponse` (problems collected in `responseProblems`), and every hit
 * counted per operation.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiOperations, toValidationErrorBody, validateRequest, validateResponse, type OperationId } from '../../runtime/rest/index.js';

/** A canned answer for the next requests of one operation: a status, or a dropped connection. */
export interface Fault {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Drop the connection without answering (a network error at the client). */
  dropConnection?: boolean;
}

export interface ContractServer {
  url: string;
  /** Requests received per operation id, valid or not. */
  hits: Record<string, number>;
  /** The headers of the last request. */
  lastHeaders: IncomingMessage['headers'];
  /** The query of the last request, as received. */
  lastQuery: Record<string, string>;
  /** Answers the server gave that the contract does not allow (should stay empty). */
  responseProblems: string[];
  /** Answer the next `times` requests of an operation with `fault` instead. */
  inject(operationId: OperationId, fault: Fault, times?: number): void;
  /** Forget the hit counts and any fault not yet served (the accounts stay). */
  reset(): void;
  close(): Promise<void>;
}

export const DRY_RUN_TEXT = 'Account would successfully import. Rolled back due to Dry Run.';
export const TEAMS = new Set(['Migrations']);

interface Account {
  supplier: string;
  data: Record<string, unknown>;
  platformAccountNumber?: string;
  createdAt?: string;
  notes: { body?: string; created_at?: string }[];
  transactionIds: Set<string>;
}

type Reply = { status: number; body?: unknown; text?: string; headers?: Record<string, string> };

const nowDatetime = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const validationError = (detail: string, code: string, errors: { detail: string; code: string; attr: string }[] = []): Reply => ({ status: 400, body: { detail, code, errors } });

/** The account rules the seed shows: a customer's landline must be a phone number. */
function accountFailures(account: { customers?: { landline?: string }[] }): Reply | undefined {
  const errors = (account.customers ?? []).flatMap((customer, i) =>
    customer.landline !== undefined && !/^0\d{9,10}$/.test(customer.landline) ? [{ detail: 'Enter a valid phone number.', code: 'invalid_phone_number', attr: `customers.${i}.landline` }] : [],
  );
  return errors.length > 0 ? validationError('Account failed validation.', 'account_failed_validation', errors) : undefined;
}

export async function startContractServer(): Promise<ContractServer> {
  const suppliers: Record<string, 'Ongoing' | 'Paused' | 'Complete'> = { SUP: 'Ongoing', PAUSED: 'Paused', DONE: 'Complete' };
  const accounts = new Map<string, Account>();
  const faults = new Map<string, Fault[]>();
  let created = 0;
  const key = (supplier: string, external: string): string => `${supplier}\u0000${external}`;
  const routes = apiOperations.map((op) => ({ op, pattern: new RegExp(`^${op.path.replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`) }));

  const state: ContractServer = {
    url: '',
    hits: {},
    lastHeaders: {},
    lastQuery: {},
    responseProblems: [],
    inject(operationId, fault, times = 1) {
      faults.set(operationId, [...(faults.get(operationId) ?? []), ...Array.from({ length: times }, () => fault)]);
    },
    reset() {
      faults.clear();
      for (const name of Object.keys(state.hits)) delete state.hits[name];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function handle(operationId: OperationId, params: Record<string, string>, body: any, query: Record<string, string>): Reply {
    switch (operationId) {
      case 'validateAccount':
        return accountFailures(body) ?? { status: 200, body };
      case 'stageAccount': {
        const status = suppliers[body.import_supplier];
        if (status === undefined) return validationError('Unknown import supplier.', 'unknown_import_supplier', [{ detail: 'No such supplier.', code: 'unknown_import_supplier', attr: 'import_supplier' }]);
        if (status !== 'Ongoing') return validationError(`The import supplier is ${status}.`, 'import_supplier_not_ongoing');
        const existing = accounts.get(key(body.import_supplier, body.external_account_number));
        if (existing?.platformAccountNumber) return validationError('The account is already imported.', 'account_already_imported');
        const failures = accountFailures(body);
        if (failures) return failures;
        accounts.set(key(body.import_supplier, body.external_account_number), { supplier: body.import_supplier, data: body, notes: existing?.notes ?? [], transactionIds: existing?.transactionIds ?? new Set() });
        return { status: existing ? 200 : 201, body: { import_supplier: body.import_supplier, external_account_number: body.external_account_number } };
      }
      case 'processAccount': {
        const account = accounts.get(key(body.import_supplier_code, body.external_account_number));
        if (!account) return validationError('No staged data for this account.', 'account_not_staged');
        if (account.platformAccountNumber) return { status: 400, body: { detail: 'The account is already imported.', code: 'account_already_imported', errors: [], external_account_number: body.external_account_number, platform_account_number: account.platformAccountNumber } };
        if (!TEAMS.has(body.operations_team_name)) return validationError('No such operations team.', 'unknown_operations_team', [{ detail: 'No such team.', code: 'unknown_operations_team', attr: 'operations_team_name' }]);
        if (body.dry_run === true) return { status: 400, text: DRY_RUN_TEXT };
        account.platformAccountNumber = `P-${++created}`;
        account.createdAt = nowDatetime();
        return { status: 201, body: { platform_account_number: account.platformAccountNumber } };
      }
      case 'createNotes': {
        const account = accounts.get(key(body.import_supplier, body.external_account_number));
        if (!account?.platformAccountNumber) return { status: 404, body: { detail: 'Not found.' } };
        return {
          status: 201,
          body: body.notes.map((note: { body?: string; created_at?: string }) => {
            const same = account.notes.some((n) => n.body === note.body && (note.created_at === undefined || n.created_at === note.created_at));
            const createdAt = note.created_at ?? nowDatetime();
            if (!same) account.notes.push({ body: note.body, created_at: createdAt });
            return { created_at: createdAt, body: note.body ?? '', status: same ? 'NOTE_ALREADY_EXISTS' : 'NOTE_CREATION_SUCCESS' };
          }),
        };
      }
      case 'createTransactions': {
        const account = accounts.get(key(body.import_supplier, body.external_account_number));
        if (!account?.platformAccountNumber) return validationError('The account is not imported.', 'account_not_imported');
        const checkPrevious = query.check_previously_added !== 'false';
        const results = [];
        for (const transaction of body.transactions as { transaction_id?: string; amount?: number }[]) {
          const data = { ...transaction, ...(transaction.amount !== undefined && { amount: transaction.amount.toFixed(2) }) };
          const id = transaction.transaction_id ?? '';
          if (checkPrevious && account.transactionIds.has(id)) results.push({ status: 'TRANSACTION_ALREADY_EXISTS', transaction_data: data });
          else {
            account.transactionIds.add(id);
            results.push({ status: 'TRANSACTION_ADDED_TO_ACCOUNT', transaction_data: data });
          }
        }
        return { status: 201, body: { results } };
      }
      case 'createHistoricalStatements':
        return { status: 201, body };
      case 'createPaymentInstruction': {
        const account = accounts.get(key(body.import_supplier, body.external_account_number));
        if (!account?.platformAccountNumber) return validationError('The account is not imported.', 'account_not_imported');
        return { status: 201, body: { platform_account_number: account.platformAccountNumber, reference: body.reference } };
      }
      case 'getAccountTransferStatus': {
        const account = accounts.get(key(params.import_supplier_code!, params.external_account_number!));
        if (!account) return { status: 404, body: { detail: 'Not found.' } };
        return { status: 200, body: { status: account.platformAccountNumber ? 'COMPLETED' : 'UNKNOWN', platform_account_number: account.platformAccountNumber ?? '' } };
      }
      case 'listAllAccountImportProcesses':
      case 'listPendingAccountImportProcesses':
      case 'listImportedAccountImportProcesses': {
        const wanted = operationId === 'listPendingAccountImportProcesses' ? (a: Account) => !a.platformAccountNumber : operationId === 'listImportedAccountImportProcesses' ? (a: Account) => !!a.platformAccountNumber : () => true;
        const items = [...accounts.values()]
          .filter((a) => a.supplier === params.import_supplier_code && wanted(a))
          .map((a) => ({ external_account_number: String(a.data.external_account_number), platform_account_number: a.platformAccountNumber ?? null, account_created_at: a.createdAt ?? null }));
        return { status: 200, body: items };
      }
    }
  }

  async function respond(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const route = routes.find((r) => r.op.method === request.method && r.pattern.test(url.pathname));
    if (!route) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"No such endpoint."}');
      return;
    }
    const operationId = route.op.operationId;
    state.hits[operationId] = (state.hits[operationId] ?? 0) + 1;
    state.lastHeaders = request.headers;
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const fault = faults.get(operationId)?.shift();
    if (fault?.dropConnection) {
      request.socket.destroy();
      return;
    }
    const params = { ...route.pattern.exec(url.pathname)!.groups };
    const query = Object.fromEntries(url.searchParams);
    state.lastQuery = query;
    let reply: Reply;
    if (fault) reply = { status: fault.status ?? 500, body: fault.body, headers: fault.headers };
    else {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        body = Symbol('unparsable');
      }
      const checked = typeof body === 'symbol' ? validateRequest(operationId, { params, query, body: '(not JSON)' }) : validateRequest(operationId, { params, query, ...(body !== undefined && { body }) });
      reply = checked.ok ? handle(operationId, params, body, query) : { status: 400, body: toValidationErrorBody(checked.error.issues) };
      const verdict = validateResponse(operationId, reply.status, reply.text ?? reply.body);
      if (!verdict.ok) state.responseProblems.push(`${operationId} ${reply.status}: ${verdict.error.message}`);
    }
    const headers = { ...reply.headers, 'content-type': reply.text !== undefined ? 'text/plain' : 'application/json' };
    response.writeHead(reply.status, headers).end(reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
  }

  const server = createServer((request, response) => {
    respond(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
