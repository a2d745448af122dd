/**
 * Run by without-opentelemetry.test.ts in a process where `@opentelemetry/api` cannot be
 * found: calls the server at argv[2] as the parent test does and prints what it saw, one
 * JSON object on stdout. Any warning the process emits is printed to stderr.
 */
import { createDataImportClient } from '../../runtime/rest/index.js';
import { loadOpenTelemetry } from '../../runtime/internal/telemetry.js';

process.on('warning', (warning) => console.error(`warning: ${warning.name}: ${warning.message}`));

const api = createDataImportClient({ baseUrl: process.argv[2]!, token: 't', retry: { baseDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 } });
const notes = { import_supplier: 'SUP', external_account_number: 'A-1', notes: [{ body: 'Called.' }] };
const results = [];
for (let i = 0; i < 3; i++) results.push(await api.createNotes(notes));
const apiFound = await import('@opentelemetry/api').then(
  () => true,
  () => false,
);
process.stdout.write(JSON.stringify({ results, apiFound, loaded: await loadOpenTelemetry() }));
