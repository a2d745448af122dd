/**
 * The REST surface's types (checked by `npm run typecheck`; the `@ts-expect-error` lines
 * fail the type check if the mistake they make were accepted).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { ApiCallResult, ApiRequest, ApiResponse, ApiStatus, DataImportClient } from '../../runtime/rest/index.js';
import { createDataImportClient } from '../../runtime/rest/index.js';

declare const client: DataImportClient;

describe('REST types', () => {
  it('key requests and responses by operation id and status', () => {
    expectTypeOf<ApiStatus<'createNotes'>>().toEqualTypeOf<201 | 400 | 404>();
    expectTypeOf<ApiResponse<'getAccountTransferStatus', 200>['status']>().toEqualTypeOf<'UNKNOWN' | 'COMPLETED' | 'IN_PROGRESS'>();
    expectTypeOf<ApiResponse<'listPendingAccountImportProcesses', 200>[number]['platform_account_number']>().toEqualTypeOf<string | null>();
    expectTypeOf<ApiRequest<'createTransactions'>['transactions'][number]['amount']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ApiResponse<'createTransactions', 201>['results'][number]['transaction_data']['amount']>().toEqualTypeOf<string | undefined>();
  });

  it('type every client method, and narrow results by status', async () => {
    if (Math.random() > 2) {
      // @ts-expect-error an undocumented field is not part of the request type
      await client.createNotes({ import_supplier: 'S', external_account_number: 'A', notes: [{ body: 'x' }], extra: 1 });
      // @ts-expect-error a note needs body or document_paths
      await client.createNotes({ import_supplier: 'S', external_account_number: 'A', notes: [{ is_pinned: true }] });
      // @ts-expect-error a GET takes its path parameters
      await client.getAccountTransferStatus({ import_supplier_code: 'S' });
      // @ts-expect-error only createTransactions takes a query
      await client.createNotes({ import_supplier: 'S', external_account_number: 'A', notes: [] }, { query: { check_previously_added: true } });
      const result = await client.createTransactions({ import_supplier: 'S', external_account_number: 'A', transactions: [] }, { query: { check_previously_added: false } });
      expectTypeOf(result).toEqualTypeOf<ApiCallResult<'createTransactions'>>();
      // Both failures with an error: a request never sent (status 0) or a response that breaks the contract (its status).
      if ('error' in result) expectTypeOf(result.status).toEqualTypeOf<0 | ApiStatus<'createTransactions'>>();
      else if (!result.unexpected && result.status === 201) expectTypeOf(result.body.results).toEqualTypeOf<ApiResponse<'createTransactions', 201>['results']>();
    }
    expectTypeOf(createDataImportClient).returns.toEqualTypeOf<DataImportClient>();
  });
});
