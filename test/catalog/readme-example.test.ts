/**
 * The README shows what a catalog mistake looks like. Make that very mistake in a copy of
 * the catalog and check that the generator reports it as the README says, position included.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
// Inside the repository, so the CLI's paths are short and relative like the README's.
mkdirSync(join(ROOT, '.cache'), { recursive: true });
const work = mkdtempSync(join(ROOT, '.cache', 'readme-example-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('the README example of a catalog mistake is what npm run generate prints for it', () => {
  const edit = /With `(\w+): (\w+)` on line\s+(\d+) of `catalog\/([\w.-]+)`, `npm run generate` prints:\n\n```\n([\s\S]*?)```/.exec(README);
  expect(edit, 'the README describes the mistake it shows').not.toBeNull();
  const [, field, wrongType, line, file, shown] = edit!;

  cpSync(join(ROOT, 'catalog'), join(work, 'catalog'), { recursive: true });
  const path = join(work, 'catalog', file!);
  const lines = readFileSync(path, 'utf8').split('\n');
  const index = Number(line) - 1;
  expect(lines[index], `line ${line} of ${file} declares the field`).toMatch(new RegExp(`^\\s+${field}: \\S+$`));
  lines[index] = lines[index]!.replace(/: \S+$/, `: ${wrongType}`);
  writeFileSync(path, lines.join('\n'));

  const at = relative(ROOT, work);
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'generator/cli/generate.ts', '--catalog', `${at}/catalog`, '--out', `${at}/generated`], { cwd: ROOT, encoding: 'utf8' });
  expect(run.status).toBe(1);
  const printed = (run.stdout + run.stderr).replaceAll(`${at}/`, '');
  for (const shownLine of shown!.trim().split('\n')) expect(printed.split('\n')).toContain(shownLine);
}, SPAWNS);
