/** The `event-catalog` bin from the sources, in a child process, for the CLI suites. */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface BinRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the bin with `args`. Standard input: `text` (then closed), or the file `fromFile`
 * (as `< file` in a shell), or nothing. `nodeArgs` go to node itself (`--max-old-space-size=…`).
 */
export function spawnBin(args: string[], options: { text?: string; fromFile?: string; nodeArgs?: string[] } = {}): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const fd = options.fromFile === undefined ? undefined : openSync(options.fromFile, 'r');
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', join(ROOT, 'runtime/cli/main.ts'), ...args], {
      cwd: ROOT,
      stdio: [fd ?? 'pipe', 'pipe', 'pipe'],
    });
    if (fd !== undefined) closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin?.end(options.text ?? '');
  });
}
