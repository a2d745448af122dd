/**
 * What the emulator does with requests no client of the contract sends: malformed JSON,
 * bodies over 1 MiB (declared or streamed), unknown paths, wrong methods, no token. Each
 * answer is JSON in the seed's error shape, and nothing reaches the state or the events.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../runtime/emulator/index.js';
import { validateResponse } from '../../runtime/rest/index.js';
import { call, paths } from './http.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
});
afterAll(() => emulator.close());

const errorShape = { detail: expect.any(String), code: expect.any(String), errors: expect.any(Array) };

it('malformed JSON is a 400 validation error body that says why, and passes the contract', async () => {
  for (const rawBody of ['{"import_supplier": "S",', 'not json']) {
    const response = await call(emulator.url, 'POST', paths.stageAccount, { rawBody });
    expect(response).toMatchObject({ status: 400, body: { code: 'parse_error', errors: [{ code: 'parse_error', attr: '', detail: expect.stringMatching(/^the body is not JSON: /) }] } });
    expect(validateResponse('stageAccount', 400, response.body)).toEqual({ ok: true });
  }
  const notUtf8 = await call(emulator.url, 'POST', paths.stageAccount, { rawBody: new Uint8Array([0x7b, 0xff, 0x7d]) });
  expect(notUtf8).toMatchObject({ status: 400, body: { errors: [{ detail: 'the body is not UTF-8 text' }] } });
  // A byte order mark is skipped, as decodeEvent skips it.
  expect((await call(emulator.url, 'POST', paths.stageAccount, { rawBody: '\ufeff{"import_supplier": "S", "external_account_number": "bom"}' })).status).toBe(201);
  const missing = await call(emulator.url, 'POST', paths.stageAccount);
  expect(missing).toMatchObject({ status: 400, body: { code: 'invalid_request', errors: [{ code: 'required', attr: '' }] } });
});

it('a body over 1 MiB is 413, whether its Content-Length says so or it streams past the limit', async () => {
  const big = JSON.stringify({ import_supplier: 'S', external_account_number: 'x'.repeat(1024 * 1024) });
  const declared = await call(emulator.url, 'POST', paths.stageAccount, { rawBody: big });
  expect(declared).toMatchObject({ status: 413, body: { ...errorShape, code: 'payload_too_large' } });
  // Chunked, no Content-Length: refused once the bytes read pass 1 MiB.
  const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const url = new URL(paths.stageAccount, emulator.url);
    const req = request(url, { method: 'POST', headers: { authorization: 'Token t', 'transfer-encoding': 'chunked' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    for (let i = 0; i < 20; i++) req.write('x'.repeat(64 * 1024));
    req.end();
  });
  expect(streamed.status).toBe(413);
  expect(JSON.parse(streamed.body)).toMatchObject({ code: 'payload_too_large' });
  // Just under the limit is read.
  const under = JSON.stringify({ import_supplier: 'S', external_account_number: 'x'.repeat(1024 * 1024 - 100) });
  expect((await call(emulator.url, 'POST', paths.validateAccount, { rawBody: under })).status).toBe(200);
});

it('an unknown path is a 404 in JSON; a known path with another method is 405 with Allow', async () => {
  for (const path of ['/', '/v1/data-import/', '/v1/data-import/notes/create', '/v2/data-import/notes/create/', '/v1/data-import/account-transfer-status/SUP/', '/v1/data-import/account-transfer-status/%E0%A4%A/x/']) {
    const response = await call(emulator.url, 'GET', path);
    expect([path, response.status, response.headers.get('content-type')]).toEqual([path, 404, 'application/json']);
    expect(response.body).toMatchObject({ ...errorShape, code: 'not_found' });
  }
  for (const [method, path, allow] of [['GET', paths.createNotes, 'POST'], ['DELETE', paths.stageAccount, 'POST'], ['POST', paths.listAllAccountImportProcesses('S'), 'GET']] as const) {
    const response = await call(emulator.url, method, path, method === 'POST' ? { body: {} } : {});
    expect([method, path, response.status, response.headers.get('allow')]).toEqual([method, path, 405, allow]);
    expect(response.body).toMatchObject({ ...errorShape, code: 'method_not_allowed' });
  }
});

it('no token is 401 in JSON, before the body is read or anything changes', async () => {
  const response = await call(emulator.url, 'POST', paths.stageAccount, { authorization: null, body: { import_supplier: 'S', external_account_number: 'nobody' } });
  expect(response).toMatchObject({ status: 401, body: { ...errorShape, code: 'not_authenticated' } });
  expect(response.headers.get('www-authenticate')).toBe('Token');
  expect((await call(emulator.url, 'GET', paths.getAccountTransferStatus('S', 'nobody'))).status).toBe(404);
});

it('a GET’s body and query parameters an operation does not take are ignored; those it takes are checked', async () => {
  const listed = await fetch(`${emulator.url}${paths.listAllAccountImportProcesses('NONE')}?page=2`, { headers: { authorization: 'Token t' } });
  expect([listed.status, await listed.json()]).toEqual([200, []]);
  const flag = await call(emulator.url, 'POST', `${paths.createTransactions}?check_previously_added=maybe`, { body: { import_supplier: 'S', external_account_number: 'x', transactions: [] } });
  expect(flag).toMatchObject({ status: 400, body: { errors: [{ attr: '?check_previously_added' }] } });
});

it('none of it reached the state (but the one account staged with a BOM) or the events, and every answer of an operation kept the contract', () => {
  expect(emulator.events()).toEqual([]);
  expect(emulator.coverage().violations).toEqual([]);
  expect(emulator.coverage().operations.stageAccount.answered).toEqual({ 201: 1, 400: 4, 401: 1, 413: 2 });
  expect(emulator.coverage().transitions.map((t) => t.count)).toEqual([1, 0, 0, 0]);
});
