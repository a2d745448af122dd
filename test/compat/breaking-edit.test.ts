/**
 * A breaking edit to the real catalog, made on a copy: `npm run compat` exits 1 and says
 * what broke and what to do instead, and the CI gate (ci-gate.test.ts, run by `npm test`) fails.
 * Also the command's other outcomes: no change, unreadable baselines, git refs, --update-baseline.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SPAWNS } from '../support/timeouts.js';
import { checkCompatibility, readBaseline, readBaselineAtRef, type CompatReport } from '../../generator/compat/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const work = mkdtempSync(join(tmpdir(), 'compat-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runCompat(args: string[], cwd = ROOT) {
  const run = spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'generator/cli/compat.ts'), ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A copy of the real catalog with one edit made to one file. */
function editedCatalog(name: string, file: string, from: string, to: string): string {
  const dir = join(work, name);
  cpSync(join(ROOT, 'catalog'), dir, { recursive: true });
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
  return dir;
}

const ACCOUNT_CREATED_V1 = `  account.created:
    v1:
      fields:
        account_number: string
        account_user_emails: string[]
`;
const broken = editedCatalog('broken', '02-account-events.yaml', ACCOUNT_CREATED_V1, ACCOUNT_CREATED_V1.replace('        account_user_emails: string[]\n', ''));

describe('a breaking edit to the real catalog (a field removed from account.created v1)', () => {
  it('npm run compat exits 1, names the change and its class, and advises a new version', () => {
    const run = runCompat(['--catalog', broken]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('✘ account.created@v1: breaking');
    expect(run.stdout).toContain('✘ breaking: removed field `account_user_emails` (string[], required)');
    expect(run.stdout).toContain('strict consumers:   messages that still carry it are rejected (`additional_property`)');
    expect(run.stdout).toMatch(/227 unchanged/);
    expect(run.stdout).toContain('add a new version instead');
    expect(run.stdout).toContain('→ leave account.created v1 as it was and add the change as a new version v2');
  }, SPAWNS);

  it('--json gives the same, for machines', () => {
    const run = runCompat(['--catalog', broken, '--json']);
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as CompatReport;
    expect(report.breaking).toBe(true);
    expect(report.baseline).toBe('catalog/baseline/manifest.json');
    expect(report.changes).toEqual([
      {
        kind: 'field-removed',
        severity: 'breaking',
        event: 'account.created@v1',
        field: 'account_user_emails',
        before: 'string[], required',
        affects: ['account.created@v1'],
        message: 'removed field `account_user_emails` (string[], required)',
      },
    ]);
    expect(report.events).toEqual([{ event: 'account.created@v1', severity: 'breaking', changes: [expect.objectContaining({ kind: 'field-removed' })] }]);
    expect(report.summary).toMatchObject({ existing: 228, breaking: 1, unchanged: 227, added: 0 });
  }, SPAWNS);

  it('makes the test command fail: the CI gate test fails on it', () => {
    const vitest = join(ROOT, 'node_modules/vitest/vitest.mjs');
    const gate = (catalog: string) =>
      spawnSync(process.execPath, [vitest, 'run', 'test/compat/ci-gate.test.ts', '--reporter=dot'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, COMPAT_GATE_CATALOG: catalog, UPDATE_GOLDEN: '' },
      });
    const failing = gate(broken);
    expect(failing.status, failing.stdout + failing.stderr).toBe(1);
    expect(failing.stdout + failing.stderr).toContain('account.created@v1: removed field `account_user_emails`');
    expect(gate('catalog').status).toBe(0);
  }, 120_000);

  it('a shared type change names the events it breaks', () => {
    const dir = editedCatalog('shared', '01-shared-object-types-part-1.yaml', '  billing-_billing-Account:\n    fields:\n      number: string\n', '  billing-_billing-Account:\n    fields:\n      number: string\n      currency: string\n');
    const result = checkCompatibility({ catalog: dir, cwd: ROOT });
    if (!result.ok) throw new Error(result.error);
    expect(result.report.changes).toEqual([
      expect.objectContaining({
        kind: 'field-added-required',
        sharedType: 'billing-_billing-Account',
        field: 'currency',
        affects: ['billing.ledger.entry_posted@v1', 'billing.ledger.entry_posted@v2', 'billing.ledger.entry_removed@v1', 'billing.ledger.entry_removed@v2'],
      }),
    ]);
  }, SPAWNS);

  it('a new optional field and a new version are not breaking: exit 0, reported', () => {
    const dir = editedCatalog('additive', '02-account-events.yaml', ACCOUNT_CREATED_V1, `${ACCOUNT_CREATED_V1}        source?: string\n`);
    const run = runCompat(['--catalog', dir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('+ account.created@v1: compatible');
    expect(run.stdout).toContain('+ compatible: added optional field `source` (string)');
    expect(run.stdout).toContain('✔ no breaking change');
  }, SPAWNS);
});

describe('npm run compat', () => {
  it('exits 0 for the real catalog against the committed baseline', () => {
    const run = runCompat([]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('✔ no breaking change');
  }, SPAWNS);

  it('exits 2 with a clear message for an unknown git ref, a missing file, or a catalog that does not load', () => {
    const ref = runCompat(['--against', 'no-such-ref-anywhere']);
    expect(ref.status).toBe(2);
    expect(ref.stderr).toContain('unknown git ref "no-such-ref-anywhere"');
    const file = runCompat(['--against', join(work, 'nope.json')]);
    expect(file.status).toBe(2);
    expect(file.stderr).toContain('baseline file not found');
    const notJson = join(work, 'not-json.json');
    writeFileSync(notJson, '{ "events": [');
    expect(runCompat(['--against', notJson]).stderr).toContain('is not JSON');
    const badCatalog = editedCatalog('bad', '02-account-events.yaml', 'account_user_emails: string[]', 'account_user_emails: strin[]');
    const bad = runCompat(['--catalog', badCatalog]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/unknown type "strin"/);
    expect(runCompat(['--bogus']).status).toBe(2);
  }, SPAWNS);

  it('--update-baseline refuses a git ref, and writes the manifest file it is given', () => {
    expect(runCompat(['--update-baseline', '--against', 'HEAD']).status).toBe(2);
    const target = join(work, 'new-baseline', 'manifest.json');
    const first = runCompat(['--update-baseline', '--against', target]);
    expect(first.status).toBe(0);
    expect(first.stderr).toContain('✔ wrote');
    expect(readFileSync(target, 'utf8')).toBe(readFileSync(join(ROOT, 'catalog/baseline/manifest.json'), 'utf8'));
    // Accepting a breaking change on purpose: reported, written, exit 0.
    const accepted = runCompat(['--update-baseline', '--against', target, '--catalog', broken]);
    expect(accepted.status).toBe(0);
    expect(accepted.stdout).toContain('removed field `account_user_emails`');
    expect(runCompat(['--against', target, '--catalog', broken]).status).toBe(0);
  }, SPAWNS);
});

describe('a git ref as the baseline', () => {
  const repo = join(work, 'repo');
  const git = (...args: string[]) => {
    const run = spawnSync('git', ['-c', 'user.name=compat test', '-c', 'user.email=compat@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
    return run.stdout;
  };

  it('reads generated/manifest.json at a tag or branch, and says when the ref or the file is missing', () => {
    cpSync(join(ROOT, 'catalog'), join(repo, 'catalog'), { recursive: true });
    git('init', '-q', '-b', 'main');
    git('add', 'catalog');
    git('commit', '-q', '-m', 'catalog without generated output');
    git('tag', 'v0.0.1');
    cpSync(join(ROOT, 'catalog/baseline/manifest.json'), join(repo, 'generated/manifest.json'));
    git('add', 'generated');
    git('commit', '-q', '-m', 'generated');
    git('tag', 'v1.2.0');

    const baseline = readBaselineAtRef('v1.2.0', repo);
    expect(baseline.label).toBe('git:v1.2.0');
    expect(baseline.snapshot.events.length).toBe(228);
    expect(readBaseline('main', repo).label).toBe('git:main');
    expect(() => readBaselineAtRef('v9.9.9', repo)).toThrow(/unknown git ref "v9.9.9"/);
    expect(() => readBaselineAtRef('v0.0.1', repo)).toThrow(/v0.0.1 has no generated\/manifest.json/);
    expect(() => readBaselineAtRef('--output=x', repo)).toThrow(/not a git ref/);
    expect(existsSync(join(repo, 'x'))).toBe(false);

    const run = runCompat(['--against', 'v1.2.0', '--catalog', broken], repo);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('against git:v1.2.0');
    expect(runCompat(['--against', 'v0.0.1'], repo).status).toBe(2);
  }, SPAWNS);

  it('outside a repository, says so', () => {
    const outside = mkdtempSync(join(tmpdir(), 'compat-no-git-'));
    try {
      expect(() => readBaselineAtRef('main', outside)).toThrow(/not inside a git repository|unknown git ref/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, SPAWNS);
});
