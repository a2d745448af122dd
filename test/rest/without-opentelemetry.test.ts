/**
 * Without `@opentelemetry/api` (hidden from a child process by a resolve hook), the client
 * behaves as with it: the same results, and nothing written to stderr, no warning.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataImportClient } from '../../runtime/rest/index.js';
import { SPAWNS } from '../support/timeouts.js';
import { startScriptedServer, type ScriptedAnswer, type ScriptedServer } from './scripted-server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HIDE = fileURLToPath(new URL('./hide-opentelemetry.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('./call-without-opentelemetry.ts', import.meta.url));

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

/** A valid answer, one that breaks the contract, and a documented failure. */
const ANSWERS: ScriptedAnswer[] = [
  { status: 201, json: [{ status: 'NOTE_CREATION_SUCCESS', body: 'Called.', created_at: '2024-01-02T03:04:05Z' }] },
  { status: 201, json: [{ status: 'WEIRD' }] },
  { status: 404, text: 'Not Found' },
];

function runChild(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', HIDE, CHILD, server.url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('without @opentelemetry/api', () => {
  it(
    'the same results as with it, and not a word on stderr',
    async () => {
      server.answer(...ANSWERS);
      const run = await runChild();
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const seen = JSON.parse(run.stdout) as { results: unknown[]; apiFound: boolean; loaded: unknown };
      // The hook did hide it: the package's loader found nothing.
      expect([seen.apiFound, seen.loaded]).toEqual([false, null]);

      server.reset();
      server.answer(...ANSWERS);
      const api = createDataImportClient({ baseUrl: server.url, token: 't' });
      const notes = { import_supplier: 'SUP', external_account_number: 'A-1', notes: [{ body: 'Called.' }] };
      const here = [await api.createNotes(notes), await api.createNotes(notes), await api.createNotes(notes)];
      expect(seen.results).toEqual(JSON.parse(JSON.stringify(here)));
      expect(seen.results).toMatchObject([{ ok: true }, { ok: false, error: { code: 'invalid_response' } }, { ok: false, status: 404 }]);
    },
    SPAWNS,
  );
});
