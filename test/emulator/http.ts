/** Raw HTTP calls to an emulator, for tests that check status, headers and bytes as sent. */

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON when it says it is JSON, else the text (`undefined` when empty). */
  body: unknown;
}

export interface CallOptions {
  body?: unknown;
  /** Sent as is (not JSON-encoded) when a string or bytes: malformed or oversize bodies. */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  /** `Authorization` header; default `Token test-token`, `null` for none. */
  authorization?: string | null;
  headers?: Record<string, string>;
}

export async function call(baseUrl: string, method: string, path: string, options: CallOptions = {}): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.authorization !== null) headers.authorization = options.authorization ?? 'Token test-token';
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  const json = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : json ? (JSON.parse(text) as unknown) : text };
}

/** The operations' paths, filled in. */
export const paths = {
  validateAccount: '/v1/data-import/validate-account/',
  stageAccount: '/v1/data-import/account-import-process/create-or-update/',
  processAccount: '/v1/data-import/account-import-process/process/',
  createNotes: '/v1/data-import/notes/create/',
  createTransactions: '/v1/data-import/transactions/create/',
  createHistoricalStatements: '/v1/data-import/historical-statements/create/',
  createPaymentInstruction: '/v1/data-import/payment-instruction/create/',
  getAccountTransferStatus: (supplier: string, external: string) => `/v1/data-import/account-transfer-status/${encodeURIComponent(supplier)}/${encodeURIComponent(external)}/`,
  listAllAccountImportProcesses: (supplier: string) => `/v1/data-import/all-account-import-processes/${encodeURIComponent(supplier)}/`,
  listPendingAccountImportProcesses: (supplier: string) => `/v1/data-import/pending-account-import-processes/${encodeURIComponent(supplier)}/`,
  listImportedAccountImportProcesses: (supplier: string) => `/v1/data-import/imported-account-import-processes/${encodeURIComponent(supplier)}/`,
} as const;
