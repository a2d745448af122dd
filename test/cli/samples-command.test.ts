/**
 * `npm run samples`: by default it writes where git does not look (`.cache/sample.jsonl`) and
 * says so; `--out FILE` writes there, `--out -` to standard output. Run as npm runs it, in the
 * repository.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SAMPLE_FILE } from '../../scripts/generate-sample-stream.js';
import { SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'samples-command-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function samples(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/generate-sample-stream.ts'), ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const messagesIn = (text: string): number => text.split('\n').filter((line) => line.trim() !== '').length;

describe('npm run samples', () => {
  it('the default file is inside .cache/, which the repository ignores', () => {
    expect(DEFAULT_SAMPLE_FILE).toBe('.cache/sample.jsonl');
    const check = spawnSync('git', ['check-ignore', '--no-index', '--quiet', DEFAULT_SAMPLE_FILE], { cwd: ROOT });
    expect(check.status, 'git check-ignore: 0 means ignored').toBe(0);
  });

  it(
    'with no --out: writes the default file, nothing on standard output, and names the file',
    async () => {
      const run = await samples(['--count', '40', '--seed', 'samples-command']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^✔ wrote 40 messages( and \d+ blank lines?)? to \.cache\/sample\.jsonl \(\.cache\/ is ignored by git\)\n$/);
      const file = join(ROOT, DEFAULT_SAMPLE_FILE);
      expect(statSync(file).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
      expect(messagesIn(readFileSync(file, 'utf8'))).toBe(40);
    },
    SPAWNS,
  );

  it(
    '--out FILE writes there (making its folder), --out - writes to standard output; the same seed gives the same bytes',
    async () => {
      const file = join(work, 'nested', 'dump.jsonl');
      const toFile = await samples(['--count', '25', '--seed', 's', '--out', file]);
      expect(toFile.code).toBe(0);
      expect(toFile.stderr).toMatch(new RegExp(`^✔ wrote 25 messages( and \\d+ blank lines?)? to ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`));
      expect(existsSync(file)).toBe(true);
      const toStdout = await samples(['--count', '25', '--seed', 's', '--out', '-']);
      expect(toStdout.code).toBe(0);
      expect(toStdout.stderr).toBe('');
      expect(toStdout.stdout).toBe(readFileSync(file, 'utf8'));
    },
    SPAWNS,
  );
});
