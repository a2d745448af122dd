/**
 * Same seed, same clock, same calls: byte-identical answers (status, headers but `Date`, body)
 * and event logs (`GET /_emulator/events` and the `--events-out` file). Another seed or clock
 * changes them, so the comparison can fail.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../runtime/emulator/index.js';
import { paths } from './http.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-determinism-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SUPPLIER = 'SUP';
const account = (external: string) => ({ import_supplier: SUPPLIER, external_account_number: external });
/** Every operation, an outcome of each kind, a fault: [method, path, body]. */
const SCRIPT: [string, string, unknown?][] = [
  ['POST', paths.validateAccount, { ...account('A'), customers: [{ landline: '01632 960 001' }] }],
  ['POST', paths.stageAccount, account('A')],
  ['POST', paths.stageAccount, account('B')],
  ['POST', paths.stageAccount, account('A')],
  ['POST', paths.processAccount, { import_supplier_code: SUPPLIER, external_account_number: 'B', operations_team_name: 'T', dry_run: true }],
  ['POST', paths.processAccount, { import_supplier_code: SUPPLIER, external_account_number: 'A', operations_team_name: 'T' }],
  ['POST', paths.processAccount, { import_supplier_code: SUPPLIER, external_account_number: 'C', operations_team_name: 'T' }],
  ['POST', paths.createNotes, { ...account('A'), notes: [{ body: 'Welcome call.' }, { document_paths: [{ document_path: 'letters/1.pdf' }] }] }],
  ['POST', `${paths.createTransactions}?force_add_to_current_statement=true`, { ...account('A'), transactions: [{ transaction_id: 't', transaction_date: '2023-12-24', amount: 9.99 }] }],
  ['POST', paths.createHistoricalStatements, { ...account('A'), statements: [{ bill_period_from_date: '2024-01-01', bill_period_to_date: '2024-01-31', statement_id: 's', issued_date: '2024-02-01', number: '1', gross_amount: 1 }] }],
  ['POST', '/_emulator/faults', { operationId: 'createPaymentInstruction', status: 500 }],
  ['POST', paths.createPaymentInstruction, { ...account('A'), vendor: 'V', reference: 'R', type: 'CARD' }],
  ['POST', paths.createPaymentInstruction, { ...account('A'), vendor: 'V', reference: 'R', type: 'CARD' }],
  ['POST', paths.createNotes, { ...account('B'), notes: [{ body: 'Too early.' }] }],
  ['GET', paths.getAccountTransferStatus(SUPPLIER, 'A')],
  ['GET', paths.listAllAccountImportProcesses(SUPPLIER)],
  ['GET', paths.listPendingAccountImportProcesses(SUPPLIER)],
  ['GET', paths.listImportedAccountImportProcesses(SUPPLIER)],
  ['GET', '/_emulator/events'],
];

/** Everything the script got back, as bytes: each answer's status, headers (but Date) and body, in order. */
async function transcript(emulator: Emulator): Promise<string> {
  const lines: string[] = [];
  for (const [method, path, body] of SCRIPT) {
    const response = await fetch(`${emulator.url}${path}`, { method, headers: { authorization: 'Token t', 'content-type': 'application/json' }, ...(body !== undefined && { body: JSON.stringify(body) }) });
    const headers = [...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive');
    lines.push(`${method} ${path} → ${response.status} ${JSON.stringify(headers)}\n${await response.text()}`);
  }
  return lines.join('\n');
}

/** The script on a fresh emulator: its answers, and its events file once it is closed. */
async function run(name: string, options: EmulatorOptions): Promise<{ answers: string; eventsFile: string }> {
  const eventsOut = join(dir, `${name}.jsonl`);
  const emulator = await startEmulator({ port: 0, eventsOut, ...options });
  let answers: string;
  try {
    answers = await transcript(emulator);
  } finally {
    await emulator.close();
  }
  return { answers, eventsFile: readFileSync(eventsOut, 'utf8') };
}

it('the same seed and clock give the same answers and event logs, byte for byte', async () => {
  const options = { seed: 2024, clock: '2024-01-15T10:00:00Z' };
  const [first, second] = [await run('first', options), await run('second', options)];
  expect(second.answers).toBe(first.answers);
  expect(second.eventsFile).toBe(first.eventsFile);
  // The file holds one catalog message per line, as many as the log.
  const lines = first.eventsFile.trimEnd().split('\n');
  expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual([
    'data_import.import_process.dry_run_complete',
    'data_import.import_process.complete',
    'data_import.import_process.error',
    'data_import.import_process.post_import.completed',
    'data_import.import_process.post_import.completed',
    'data_import.import_process.post_import.completed',
    'data_import.import_process.post_import.completed',
    'data_import.import_process.post_import.error',
  ]);
});

it('another seed changes the account numbers; another clock the timestamps', async () => {
  const base = await run('base', { seed: 1, clock: '2024-01-15T10:00:00Z' });
  const otherSeed = await run('seed', { seed: 2, clock: '2024-01-15T10:00:00Z' });
  const otherClock = await run('clock', { seed: 1, clock: '2024-01-15T10:00:01Z' });
  const numbers = (text: string) => [...new Set(text.match(/P-[0-9A-F]{8}/g))];
  expect(numbers(base.answers)).toHaveLength(1);
  expect(numbers(otherSeed.answers)).not.toEqual(numbers(base.answers));
  expect(otherClock.answers.replace(/2024-01-15T10:00:\d\dZ/g, 'T')).toBe(base.answers.replace(/2024-01-15T10:00:\d\dZ/g, 'T'));
  expect(otherClock.answers).not.toBe(base.answers);
});

it('a reset starts the run again: the same calls give the same answers', async () => {
  const emulator = await startEmulator({ port: 0, seed: 5, clock: '2024-01-15T10:00:00Z' });
  try {
    const before = await transcript(emulator);
    emulator.reset();
    expect(await transcript(emulator)).toBe(before);
  } finally {
    await emulator.close();
  }
});
