/**
 * Smoke run of the benchmark harness (`npm run bench -- --quick`): tiny inputs, single runs,
 * no build, output to a temporary folder. It proves the harness still runs end to end and
 * reports every section with sane numbers; the numbers themselves are not checked (the real
 * benchmark is `npm run bench`, kept out of the test command).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Modification time of a file of the repository, or null when absent. */
const stamp = (path: string): number | null => (existsSync(join(ROOT, path)) ? statSync(join(ROOT, path)).mtimeMs : null);

/** Every number (and null) in a JSON value, with its path. */
function leaves(value: unknown, path = ''): { path: string; value: number | null }[] {
  if (typeof value === 'number' || value === null) return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (typeof value === 'object') return Object.entries(value as object).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [];
}

it('npm run bench -- --quick reports every section with finite, positive measurements, and leaves the repository alone', () => {
  const before = [stamp('BENCHMARKS.md'), stamp('scripts/bench/results.json')];
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/run.ts', '--quick', '--out-dir', out], { cwd: ROOT, encoding: 'utf8', timeout: 330_000 });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
  expect([stamp('BENCHMARKS.md'), stamp('scripts/bench/results.json')]).toEqual(before);

  const markdown = readFileSync(join(out, 'BENCHMARKS.md'), 'utf8');
  for (const heading of ['## Machine', '## Targets', '## 1. Throughput', '## 2. Error path', '## 3. Cold start', '## 4. Generation', '## 5. Consumer type-check', '## 6. Size and memory', '## 7. On a real bus', '## Method']) {
    expect(markdown).toContain(heading);
  }
  expect(markdown).toContain('Quick mode');
  expect(markdown).not.toMatch(/\bNaN\b|n\/a|undefined/);

  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as Record<string, any>;
  // No NaN (JSON writes it as null) or infinity anywhere but where absence is legitimate.
  const bad = leaves(results).filter((l) => l.path !== 'machine.git' && (l.value === null || !Number.isFinite(l.value)));
  expect(bad).toEqual([]);

  const positive: [string, number][] = [
    ...results.throughput.stream.map((s: any) => [`throughput ${s.name}`, s.nsPerItem]),
    ...results.throughput.validOnly.map((s: any) => [`valid only ${s.name}`, s.nsPerItem]),
    ...results.throughput.paired.map((p: any) => [`interleaved ${p.set} ${p.first} ÷ ${p.second}`, p.ratios.median]),
    ...results.errorPath.stats.map((s: any) => [`error path ${s.name}`, s.nsPerItem]),
    ['first rejection', results.errorPath.firstRejectionUs.median],
    ...Object.entries(results.coldStart.scripts).map(([k, v]: [string, any]) => [`cold start ${k}`, v.ms.median]),
    ...results.generation.rows.map((r: any) => [`generation ×${r.factor}`, r.ms.median]),
    ...results.typeCheck.rows.map((r: any) => [`tsc ${r.compiler} ${r.file}`, r.ms.median]),
    ['event min+gz', results.size.exampleEvent.gzipBytes],
    ['root min+gz', results.size.root.gzipBytes],
    ['package bytes', results.size.disk.bytes],
    ['heap after root import', results.size.heap.rootImport],
    ...['nats', 'redis'].flatMap((broker) => Object.entries(results.bus[broker].runs).map(([id, run]: [string, any]) => [`${broker} ${id}`, run.median] as [string, number])),
    ...['nats', 'redis'].flatMap((broker) => results.bus[broker].ratios.map((r: any) => [`${broker} ${r.first} ÷ ${r.second}`, r.ratios.median] as [string, number])),
  ];
  for (const [name, value] of positive) expect(value, name).toBeGreaterThan(0);

  expect(results.throughput.disagreements).toSatisfy((d: Record<string, number>) => Object.values(d).every((n) => n === 0));
  expect(results.generation.rows.map((r: any) => r.factor)).toEqual([1, 2]);
  // Every bus variant ran on both brokers.
  for (const broker of ['nats', 'redis']) expect(Object.keys(results.bus[broker].runs).sort()).toEqual(['absent', 'api', 'before', 'peer', 'publish-absent', 'publish-before', 'tracing']);
  // Every goal that names an interleaved pair reports it (the rounds, their quartiles).
  expect(results.throughput.paired).toHaveLength(6);
  expect(markdown).toContain('interleaved rounds (quartiles');
  expect(results.targets.length).toBeGreaterThanOrEqual(10);
  for (const t of results.targets) expect(typeof t.met).toBe('boolean');

  // The report renders again from the saved numbers alone, identically.
  const rerender = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/run.ts', '--report-only', '--out-dir', out], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  expect(rerender.status, rerender.stderr).toBe(0);
  expect(readFileSync(join(out, 'BENCHMARKS.md'), 'utf8')).toBe(markdown);
}, 420_000);
