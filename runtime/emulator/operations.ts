/** The 11 operations: each operation id's handler, given the request once `validateRequest` has passed it. */
import type { ApiParams, ApiRequest, OperationId } from '../rest/index.js';
import { processAccount, stageAccount, validateAccount } from './account-operations.js';
import type { Answer } from './answer.js';
import type { CallContext } from './call-context.js';
import { getAccountTransferStatus, listAccounts } from './lookups.js';
import { createHistoricalStatements, createNotes, createPaymentInstruction, createTransactions } from './post-import-operations.js';

/** A request the contract accepts: its parts as `validateRequest` saw them. */
export interface ValidRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

type Handler = (request: ValidRequest, context: CallContext) => Answer | Promise<Answer>;

// The request has passed validateRequest for its operation: its parts have the operation's types.
const body = <Op extends OperationId>(request: ValidRequest) => request.body as ApiRequest<Op>;
const params = <Op extends OperationId>(request: ValidRequest) => request.params as unknown as ApiParams<Op>;

export const OPERATION_HANDLERS: Readonly<Record<OperationId, Handler>> = {
  validateAccount: (r) => validateAccount(body<'validateAccount'>(r)),
  stageAccount: (r, c) => stageAccount(body<'stageAccount'>(r), c),
  processAccount: (r, c) => processAccount(body<'processAccount'>(r), c),
  createNotes: (r, c) => createNotes(body<'createNotes'>(r), c),
  createTransactions: (r, c) => createTransactions(body<'createTransactions'>(r), c, r.query),
  createHistoricalStatements: (r, c) => createHistoricalStatements(body<'createHistoricalStatements'>(r), c),
  createPaymentInstruction: (r, c) => createPaymentInstruction(body<'createPaymentInstruction'>(r), c),
  getAccountTransferStatus: (r, c) => getAccountTransferStatus(params<'getAccountTransferStatus'>(r), c),
  listAllAccountImportProcesses: (r, c) => listAccounts('all', params<'listAllAccountImportProcesses'>(r), c),
  listPendingAccountImportProcesses: (r, c) => listAccounts('pending', params<'listPendingAccountImportProcesses'>(r), c),
  listImportedAccountImportProcesses: (r, c) => listAccounts('imported', params<'listImportedAccountImportProcesses'>(r), c),
};
