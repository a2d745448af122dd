/**
 * The bin under a small heap (`--max-old-space-size=256`) on the hostile dumps that once took
 * it down: a line of ten million wrong items, one just under the line limit, a 10 MB property
 * name, hundreds of lines each with its own 1 MB property name, and a run of NUL bytes with no
 * line end. Each must end with a summary, exit 1, and a rejects file that accounts for every line.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ValidateSummary } from '../../runtime/cli/validate-tally.js';
import { spawnBin } from './spawn-bin.js';

const work = mkdtempSync(join(tmpdir(), 'validate-hostile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const MiB = 1024 * 1024;
const VALID = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } });
const withEmails = (emails: string) => `{"type":"account.created","version":"v1","payload":{"account_number":"A","account_user_emails":[${emails}]}}`;
const withKey = (key: string) => JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A', account_user_emails: [], [key]: 1 } });

/** Writes a file part by part, so the test itself never holds more than one part. */
function writeParts(name: string, parts: Iterable<string | Buffer>): string {
  const path = join(work, name);
  const fd = openSync(path, 'w');
  try {
    for (const part of parts) writeSync(fd, typeof part === 'string' ? Buffer.from(part) : part);
  } finally {
    closeSync(fd);
  }
  return path;
}

const binSmallHeap = (args: string[]) => spawnBin(args, { nodeArgs: ['--max-old-space-size=256'] });

const rejectsOf = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { line: number; error: { code: string; issues: { code: string }[] }; raw: string });

describe('validate under a 256 MB heap', () => {
  const cases: [name: string, parts: () => Iterable<string | Buffer>, args: string[], expected: Partial<ValidateSummary>, codes: string[]][] = [
    ['ten million wrong items (19 MB line, over the line limit)', () => [withEmails(Array<number>(10_000_000).fill(1).join(',')), `\n${VALID}\n`], [], { lines: 2, valid: 1, malformed: 1 }, ['line_too_long']],
    ['seven million wrong items (15 MB line, under the line limit)', () => [withEmails(Array<number>(7_300_000).fill(1).join(',')), `\n${VALID}\n`], [], { lines: 2, valid: 1, invalid: 1 }, ['type']],
    ['a 10 MB property name, strict', () => [withKey('k'.repeat(10 * MiB)), `\n${VALID}\n`], ['--strict'], { lines: 2, valid: 1, invalid: 1 }, ['additional_property']],
    ['300 lines, each with its own 1 MB property name, strict', () => manyKeys(300), ['--strict'], { lines: 300, invalid: 300 }, ['additional_property']],
    ['64 MB of NUL bytes and no line end', () => Array.from({ length: 64 }, () => Buffer.alloc(MiB)), [], { lines: 1, malformed: 1 }, ['line_too_long']],
  ];

  it.each(cases)('%s: a summary, exit 1, every rejected line in the rejects file', async (name, parts, args, expected, codes) => {
    const input = writeParts(`${name.replace(/\W+/g, '-')}.jsonl`, parts());
    const rejects = `${input}.rejects`;
    const result = await binSmallHeap(['validate', input, '--json', '--rejects', rejects, ...args]);
    expect(result.stderr).not.toMatch(/heap|FATAL/i);
    expect(result.code).toBe(1);
    const summary = JSON.parse(result.stdout) as ValidateSummary;
    expect(summary).toMatchObject(expected);
    const rejected = rejectsOf(rejects);
    expect(rejected).toHaveLength(summary.lines - summary.valid);
    expect([...new Set(rejected.map((r) => r.error.issues[0]!.code))]).toEqual(codes);
    for (const r of rejected) expect(r.error.issues.length).toBeLessThanOrEqual(101);
  }, 180_000);
});

function* manyKeys(count: number): Iterable<string> {
  const body = 'k'.repeat(MiB);
  for (let i = 0; i < count; i++) yield `${withKey(`${i}-${body}`)}\n`;
}
