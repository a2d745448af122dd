/**
 * Path parameters are never empty: an empty one is no path segment at all (the client would
 * call `…/account-transfer-status/S//`, another path). The catalog says `min_length: 1`, and
 * the OpenAPI document, the shipped JSON Schemas, the validators and the client all hold to it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { apiOperations, createDataImportClient, validateRequest } from '../../runtime/rest/index.js';
import { startContractServer, type ContractServer } from '../support/contract-server.js';

type Parameter = { name: string; in: string; schema: Record<string, unknown> };
const openapi = parse(readFileSync(new URL('../../generated/openapi.yaml', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>> };

/** Every operation with path parameters, and their names, from the package's own list. */
const withParams = apiOperations.flatMap((op) => {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return names.length > 0 ? [{ operationId: op.operationId, path: op.path, method: op.method, names }] : [];
});

const paramsOf = (names: readonly string[], value: (name: string) => string): Record<string, string> => Object.fromEntries(names.map((name) => [name, value(name)]));

describe('path parameters are at least one character long', () => {
  it('four operations take path parameters, named as the spec names them', () => {
    expect(withParams.map((op) => op.operationId)).toEqual(['getAccountTransferStatus', 'listAllAccountImportProcesses', 'listPendingAccountImportProcesses', 'listImportedAccountImportProcesses']);
    expect([...new Set(withParams.flatMap((op) => op.names))]).toEqual(['import_supplier_code', 'external_account_number']);
  });

  it.each(withParams.map((op) => [op.operationId, op] as const))('%s: the OpenAPI document and the shipped schema say minLength 1', (operationId, op) => {
    const parameters = openapi.paths[op.path]![op.method.toLowerCase()]!.parameters!;
    expect(parameters.map((p) => [p.name, p.in, p.schema])).toEqual(op.names.map((name) => [name, 'path', { type: 'string', minLength: 1 }]));
    const shipped = JSON.parse(readFileSync(new URL(`../../generated/api/schemas/${operationId}/params.schema.json`, import.meta.url), 'utf8')) as { properties: Record<string, unknown> };
    for (const name of op.names) expect(shipped.properties[name], name).toEqual({ type: 'string', minLength: 1 });
  });

  it.each(withParams.flatMap((op) => op.names.map((name) => [`${op.operationId} ${name}`, op, name] as const)))('%s: empty is refused at /params/<name>', (_label, op, empty) => {
    const result = validateRequest(op.operationId, { params: paramsOf(op.names, (name) => (name === empty ? '' : 'S')) });
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ code: 'invalid_request', issues: [{ path: `/params/${empty}`, code: 'min_length', message: 'must not be empty' }] }) });
  });

  it('the issue named in the spec: getAccountTransferStatus with an empty external_account_number', () => {
    const result = validateRequest('getAccountTransferStatus', { params: { import_supplier_code: 'S', external_account_number: '' } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.issues.map((i) => i.path)).toEqual(['/params/external_account_number']);
  });

  it('one character is enough, counted as a character: a single emoji (two UTF-16 code units) and a single letter pass', () => {
    for (const value of ['S', '💥']) expect(validateRequest('getAccountTransferStatus', { params: { import_supplier_code: value, external_account_number: value } }), value).toEqual({ ok: true });
  });
});

describe('the client never calls a path with an empty segment', () => {
  let server: ContractServer;
  beforeAll(async () => {
    server = await startContractServer();
  });
  afterAll(() => server.close());

  it('an empty external_account_number resolves to status 0 with the issue, and nothing reaches the server', async () => {
    const api = createDataImportClient({ baseUrl: server.url, token: 'secret' });
    const result = await api.getAccountTransferStatus({ import_supplier_code: 'S', external_account_number: '' });
    expect(result).toMatchObject({ ok: false, status: 0, error: { code: 'invalid_request', issues: [{ path: '/params/external_account_number', code: 'min_length' }] } });
    const list = await api.listAllAccountImportProcesses({ import_supplier_code: '' });
    expect(list).toMatchObject({ ok: false, status: 0, error: { issues: [{ path: '/params/import_supplier_code' }] } });
    expect(server.hits.getAccountTransferStatus).toBeUndefined();
    expect(server.hits.listAllAccountImportProcesses).toBeUndefined();
    // The same calls with a segment do reach it.
    await api.listAllAccountImportProcesses({ import_supplier_code: 'SUP' });
    expect(server.hits.listAllAccountImportProcesses).toBe(1);
  });
});
