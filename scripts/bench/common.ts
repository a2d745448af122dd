/**
 * Shared helpers of the benchmark harness (`npm run bench`): paths, statistics, child
 * processes, the machine description. No benchmark logic lives here.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const PACKAGE_NAME = '@data-import/event-catalog';

export const TSC = {
  'typescript 5.9': join(ROOT, 'node_modules/typescript/bin/tsc'),
  'typescript 7': join(ROOT, 'node_modules/typescript-7/bin/tsc'),
} as const;
export type CompilerName = keyof typeof TSC;

/** A fresh temporary folder. */
export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), `bench-${prefix}-`));

/** Writes a file, creating its folder. */
export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

export const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

// ---------------------------------------------------------------------------------------
// Statistics

export interface Summary {
  /** How many samples. */
  n: number;
  median: number;
  p25: number;
  p75: number;
  min: number;
  max: number;
}

/** Quantile by linear interpolation between closest ranks (the usual "type 7"). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new Error('quantile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

export function summarize(values: readonly number[]): Summary {
  return {
    n: values.length,
    median: quantile(values, 0.5),
    p25: quantile(values, 0.25),
    p75: quantile(values, 0.75),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

// ---------------------------------------------------------------------------------------
// Child processes

export interface TimedRun {
  ms: number;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion and measures its wall time (spawn to exit) with `performance.now`. */
export function timedSpawn(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): TimedRun {
  const started = performance.now();
  const result: SpawnSyncReturns<string> = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: options.timeoutMs ?? 600_000,
  });
  const ms = performance.now() - started;
  if (result.error) throw result.error;
  return { ms, status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Like `timedSpawn`, but throws with the output when the command fails. */
export function mustSpawn(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): TimedRun {
  const run = timedSpawn(command, args, options);
  if (run.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${run.status}\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-4000)}`);
  }
  return run;
}

/** `npm`, as the npm running us (`npm_execpath`) or the one on the PATH. */
export function npmCommand(): { command: string; prefix: string[] } {
  const execPath = process.env.npm_execpath;
  if (execPath && /npm-cli\.js$/.test(execPath)) return { command: process.execPath, prefix: [execPath] };
  return { command: 'npm', prefix: [] };
}

// ---------------------------------------------------------------------------------------
// The machine

export interface MachineInfo {
  cpu: string;
  cores: number;
  node: string;
  platform: string;
  memoryGiB: number;
  date: string;
  /** 1, 5 and 15 minute load averages when the run started (and ended): other work on the machine skews timings. */
  loadAverage: number[];
  loadAverageAfter?: number[];
  git: { commit: string; dirtyFiles: number } | null;
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) return line.split(':').slice(1).join(':').trim();
  } catch {
    // Not Linux: fall back on what Node says.
  }
  return cpus()[0]?.model.trim() ?? 'unknown';
}

function gitState(): MachineInfo['git'] {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const status = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return { commit, dirtyFiles: status.split('\n').filter((l) => l.trim() !== '').length };
  } catch {
    return null;
  }
}

export function machineInfo(): MachineInfo {
  return {
    cpu: cpuModel(),
    cores: typeof availableParallelism === 'function' ? availableParallelism() : cpus().length,
    node: process.version,
    platform: `${platform()} ${release()}`,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    date: new Date().toISOString(),
    loadAverage: loadavg(),
    git: gitState(),
  };
}

/** Logs progress to standard error (standard output is left to results). */
export const log = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};
