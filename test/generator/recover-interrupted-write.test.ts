/**
 * `recoverInterruptedWrite` on every state a killed write can leave (see
 * generator/write/replace-folder.ts), plus the leftovers of earlier versions and of
 * processes still running.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recoverInterruptedWrite, replaceFolder } from '../../generator/write/replace-folder.js';

const work = mkdtempSync(join(tmpdir(), 'recover-write-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A process id no process has (above Linux's largest pid_max). */
const GONE = 4_194_400;
/** A process that runs while the test does. */
const RUNNING = process.ppid;

type Content = 'old' | 'new' | 'partial';
interface Layout {
  /** What `generated/` holds, or null when it is missing. */
  out: Content | null;
  /** Side folders by name (after `generated.`). */
  beside: Record<string, Content>;
}

function lay(dir: string, layout: Layout): string {
  mkdirSync(dir, { recursive: true });
  const put = (path: string, content: Content) => {
    mkdirSync(join(path, 'nested'), { recursive: true });
    writeFileSync(join(path, 'which.txt'), content);
  };
  const out = join(dir, 'generated');
  if (layout.out) put(out, layout.out);
  for (const [name, content] of Object.entries(layout.beside)) put(join(dir, `generated.${name}`), content);
  return out;
}

function read(dir: string): Layout {
  const out = join(dir, 'generated');
  const content = (path: string) => readFileSync(join(path, 'which.txt'), 'utf8') as Content;
  const beside = Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.startsWith('generated.'))
      .map((name) => [name.slice('generated.'.length), content(join(dir, name))]),
  );
  return { out: existsSync(out) ? content(out) : null, beside };
}

describe('recoverInterruptedWrite', () => {
  it.each<[string, { given: Layout; want: Layout; notes: RegExp[] }]>([
    ['nothing to do', { given: { out: 'old', beside: {} }, want: { out: 'old', beside: {} }, notes: [] }],
    ['nothing at all (first run)', { given: { out: null, beside: {} }, want: { out: null, beside: {} }, notes: [] }],
    [
      'killed while writing: the partial folder goes',
      { given: { out: 'old', beside: { [`writing-${GONE}`]: 'partial' } }, want: { out: 'old', beside: {} }, notes: [/removed .*writing-/] },
    ],
    [
      'killed with the new output ready, the old still in place: the old stays',
      { given: { out: 'old', beside: { [`ready-${GONE}`]: 'new' } }, want: { out: 'old', beside: {} }, notes: [/removed .*ready-/] },
    ],
    [
      'killed between the two renames: the new output is moved in',
      {
        given: { out: null, beside: { [`previous-${GONE}`]: 'old', [`ready-${GONE}`]: 'new' } },
        want: { out: 'new', beside: {} },
        notes: [/moved it in \(from generated\.ready-/, /removed .*previous-/],
      },
    ],
    [
      'killed after the swap: the old folder goes',
      { given: { out: 'new', beside: { [`previous-${GONE}`]: 'old' } }, want: { out: 'new', beside: {} }, notes: [/removed/] },
    ],
    [
      'killed while deleting the old folder',
      { given: { out: 'new', beside: { [`discarded-${GONE}`]: 'partial' } }, want: { out: 'new', beside: {} }, notes: [/removed/] },
    ],
    [
      'left by an earlier version between its renames: the old folder is put back, the unfinished one goes',
      {
        given: { out: null, beside: { [`previous-${GONE}`]: 'old', [`staging-${GONE}`]: 'partial' } },
        want: { out: 'old', beside: {} },
        notes: [/put it back \(from generated\.previous-/, /removed .*staging-/],
      },
    ],
    [
      'a running process keeps its folders',
      { given: { out: 'old', beside: { [`writing-${RUNNING}`]: 'partial' } }, want: { out: 'old', beside: { [`writing-${RUNNING}`]: 'partial' } }, notes: [] },
    ],
    [
      'folders of other names are not side folders',
      { given: { out: 'old', beside: { backup: 'old', 'ready-x': 'new', 'ready-1-copy': 'new' } }, want: { out: 'old', beside: { backup: 'old', 'ready-x': 'new', 'ready-1-copy': 'new' } }, notes: [] },
    ],
  ])('%s', (name, { given, want, notes }) => {
    const dir = join(work, name.replace(/\W+/g, '-'));
    const out = lay(dir, given);
    const done = recoverInterruptedWrite(out);
    expect(read(dir)).toEqual(want);
    expect(done).toHaveLength(notes.length);
    notes.forEach((note, i) => expect(done[i]).toMatch(note));
  });
});

describe('replaceFolder', () => {
  it('replaces the folder and leaves nothing beside it', async () => {
    const dir = join(work, 'replace');
    const out = lay(dir, { out: 'old', beside: {} });
    await replaceFolder(out, (staging) => writeFileSync(join(staging, 'which.txt'), 'new'));
    expect(read(dir)).toEqual({ out: 'new', beside: {} });
  });

  it('keeps the old folder when filling the new one fails', async () => {
    const dir = join(work, 'replace-fails');
    const out = lay(dir, { out: 'old', beside: {} });
    await expect(
      replaceFolder(out, (staging) => {
        writeFileSync(join(staging, 'which.txt'), 'partial');
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
    expect(read(dir)).toEqual({ out: 'old', beside: {} });
  });

  it('finishes what a killed run left before writing', async () => {
    const dir = join(work, 'replace-after-kill');
    const out = lay(dir, { out: null, beside: { [`previous-${GONE}`]: 'old', [`ready-${GONE}`]: 'new' } });
    await replaceFolder(out, (staging) => writeFileSync(join(staging, 'which.txt'), 'partial'));
    expect(read(dir)).toEqual({ out: 'partial', beside: {} });
  });
});
