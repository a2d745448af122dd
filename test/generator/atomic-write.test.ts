/**
 * Writing generated/ when the process is killed (SIGKILL) part-way: at each rename of the
 * write (strace stops the process exactly there), and at random moments of a long write.
 * Whatever the moment, the folder is the old output or the new one; in the one moment where
 * it cannot be (between moving the old folder aside and the new one in) the new one waits
 * complete beside it, and the next generator command moves it in. No side folder survives
 * that next command.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { readCatalogDir } from '../../generator/catalog/load-catalog.js';
import type { EmittedFile } from '../../generator/emit/emitted-file.js';
import { generate } from '../../generator/generate.js';
import { recoverInterruptedWrite } from '../../generator/write/replace-folder.js';
import { listFiles, writeGenerated } from '../../generator/write/write-generated.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'test/generator/fixtures/multiple-versions/catalog');
const GENERATE = join(ROOT, 'generator/cli/generate.ts');
const work = mkdtempSync(join(tmpdir(), 'atomic-write-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const hasStrace = spawnSync('strace', ['-V']).status === 0;
/** The system calls a rename may be, by architecture (arm64 has no `rename`); `?` skips unknown ones. */
const RENAMES = '?rename,?renameat,?renameat2';

/** Every file's text under a folder. */
const tree = (dir: string): Record<string, string> => Object.fromEntries(listFiles(dir).map((path) => [path, readFileSync(join(dir, path), 'utf8')]));
const asTree = (files: EmittedFile[]): Record<string, string> => Object.fromEntries(files.map((f) => [f.path, f.contents]));
/** Folders beside `out` whose names start with its name and a dot (`out.ready-123`). */
const sideFolders = (out: string): string[] => readdirSync(dirname(out)).filter((name) => name.startsWith(`${basename(out)}.`));

/** What is on disk, told apart: the old output, the new one, or neither. */
function stateOf(out: string, trees: { old: Record<string, string>; new: Record<string, string> }): 'old' | 'new' | 'missing' | 'mixed' {
  if (!existsSync(out)) return 'missing';
  const onDisk = tree(out);
  for (const which of ['old', 'new'] as const) if (isDeepStrictEqual(onDisk, trees[which])) return which;
  return 'mixed';
}

function runGenerate(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', GENERATE, ...args], { cwd: ROOT, encoding: 'utf8' });
}

it('strace is installed (it stops the generator at an exact rename below)', () => {
  expect(hasStrace, 'strace is missing: install it with `npm run setup:tools` (apt-get install -y strace)').toBe(true);
});

describe.runIf(hasStrace)('npm run generate killed at each rename of the write (strace)', async () => {
  // The old output is from the fixture; the new one from the fixture with one more field.
  const newCatalog = join(work, 'catalog');
  cpSync(FIXTURE, newCatalog, { recursive: true });
  const edited = join(newCatalog, '01-versions.yaml');
  writeFileSync(edited, readFileSync(edited, 'utf8').replace('        document_id: integer\n', '        document_id: integer\n        sent_at?: string\n'));
  const [oldRun, newRun] = await Promise.all([generate(readCatalogDir(FIXTURE)), generate(readCatalogDir(newCatalog))]);
  if (!oldRun.ok || !newRun.ok) throw new Error('fixture does not generate');
  const trees = { old: asTree(oldRun.files), new: asTree(newRun.files) };
  expect(trees.old).not.toEqual(trees.new);

  // The renames of a write, in order: writing → ready, out → previous, ready → out, previous → discarded.
  it.each([
    [1, 'old'],
    [2, 'old'],
    [3, 'missing'],
    [4, 'new'],
  ] as const)('killed at rename %i: the folder is %s; the next command finishes or undoes the write and leaves nothing beside it', { timeout: 120_000 }, async (when, want) => {
    const out = join(work, `strace-${when}`, 'generated');
    await writeGenerated(out, oldRun.files);
    const log = join(work, `strace-${when}.log`);
    const killed = spawnSync(
      'strace',
      ['-f', '-qq', '-o', log, '-e', `trace=${RENAMES}`, '-e', `inject=${RENAMES}:signal=KILL:when=${when}`, process.execPath, '--import', 'tsx', GENERATE, '--catalog', newCatalog, '--out', out],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(killed.status, killed.stderr).not.toBe(0);
    const renames = readFileSync(log, 'utf8').split('\n').filter((line) => /\brename(at2?)?\(/.test(line));
    expect(renames.at(-1), 'the kill hit a rename of the write').toContain(out);

    expect(stateOf(out, trees)).toBe(want);
    if (want === 'missing') {
      const ready = sideFolders(out).filter((name) => name.includes('.ready-'));
      expect(ready).toHaveLength(1);
      expect(tree(join(dirname(out), ready[0]!))).toEqual(trees.new);
    }

    // `--check` writes nothing: it names what the killed run left and leaves it as it is.
    const left = sideFolders(out);
    expect(left.length).toBeGreaterThan(0);
    const check = runGenerate(['--check', '--catalog', newCatalog, '--out', out]);
    expect(sideFolders(out)).toEqual(left);
    expect(stateOf(out, trees)).toBe(want);
    expect(check.status).toBe(want === 'new' ? 0 : 1);
    expect(check.stderr).toContain('; not touched (--check writes nothing)');
    for (const name of left) expect(check.stderr).toContain(name);

    // The next command that writes (npm run generate, catalog:check, compat) first runs this:
    // it finishes or undoes the write, and leaves nothing beside the folder.
    expect(recoverInterruptedWrite(out)).not.toEqual([]);
    expect(sideFolders(out)).toEqual([]);
    expect(stateOf(out, trees)).toBe(want === 'old' ? 'old' : 'new');
  });
});

describe('a long write killed at random moments', () => {
  /** Writes two large outputs in turn, forever, after saying when it starts. */
  const driver = join(work, 'write-forever.mjs');
  writeFileSync(
    driver,
    `import { pathToFileURL } from 'node:url';
const { writeGenerated } = await import(pathToFileURL(${JSON.stringify(join(ROOT, 'generator/write/write-generated.ts'))}).href);
const [out, oldPath, newPath] = process.argv.slice(2);
const { readFileSync } = await import('node:fs');
const outputs = [JSON.parse(readFileSync(newPath, 'utf8')), JSON.parse(readFileSync(oldPath, 'utf8'))];
process.stdout.write('writing\\n');
for (let i = 0; ; i++) await writeGenerated(out, outputs[i % 2]);
`,
  );
  const output = (label: string): EmittedFile[] =>
    Array.from({ length: 1000 }, (_, i) => ({ path: `dir-${i % 30}/file-${i}.txt`, contents: `${label} ${i}\n`.repeat(20) }));
  const files = { old: output('old'), new: output('new') };
  const trees = { old: asTree(files.old), new: asTree(files.new) };
  writeFileSync(join(work, 'old.json'), JSON.stringify(files.old));
  writeFileSync(join(work, 'new.json'), JSON.stringify(files.new));

  async function killAfter(out: string, ms: number): Promise<void> {
    const child = spawn(process.execPath, ['--import', 'tsx', driver, out, join(work, 'old.json'), join(work, 'new.json')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((started) => child.stdout.once('data', () => started()));
    await new Promise((wait) => setTimeout(wait, ms));
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGKILL');
    await exited;
  }

  it('leaves the old or the new output (or the new one complete beside a missing folder), and recovery cleans up', { timeout: 180_000 }, async () => {
    const delays = Array.from({ length: 4 }, () => Math.floor(Math.random() * 1000));
    const seen: string[] = [];
    for (const [i, ms] of delays.entries()) {
      const out = join(work, `random-${i}`, 'generated');
      await writeGenerated(out, files.old);
      await killAfter(out, ms);
      const state = stateOf(out, trees);
      seen.push(`${ms} ms: ${state}, beside it ${JSON.stringify(sideFolders(out))}`);
      expect(['old', 'new', 'missing'], seen.join('\n')).toContain(state);
      if (state === 'missing') {
        const ready = sideFolders(out).filter((name) => name.includes('.ready-'));
        expect(ready, seen.join('\n')).toHaveLength(1);
        expect(['old', 'new']).toContain(stateOf(join(dirname(out), ready[0]!), trees));
      }
      recoverInterruptedWrite(out); // what every generator command does first (the CLI is shown above)
      expect(sideFolders(out), seen.join('\n')).toEqual([]);
      expect(['old', 'new'], seen.join('\n')).toContain(stateOf(out, trees));
    }
  });
});
