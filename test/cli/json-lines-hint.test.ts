/**
 * `validate` given one JSON document instead of JSON Lines: the summary adds one hint line
 * (and `--json` a `hint` field) saying so and how to convert, in exactly the cases
 * `json-lines-hint.ts` describes, and never for JSON Lines, however broken. The conversion
 * it suggests is run as written, with jq, and its output validates.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { documentOpening, jsonLinesHint } from '../../runtime/cli/json-lines-hint.js';
import { runValidate } from '../../runtime/cli/validate-command.js';
import { SPAWNS } from '../support/timeouts.js';
import { spawnBin } from './spawn-bin.js';

const work = mkdtempSync(join(tmpdir(), 'json-lines-hint-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const message = (n: number) => ({ type: 'account.created', version: 'v1', payload: { account_number: `A-${n}`, account_user_emails: [`a${n}@example.com`] } });
const messages = [message(1), message(2), message(3)];
const jsonLines = messages.map((m) => `${JSON.stringify(m)}\n`).join('');

/** The inputs people hand `validate` by mistake, each with the hint it gets. */
const DOCUMENTS = {
  'a pretty-printed message (jq ., JSON.stringify(m, null, 2))': { text: `${JSON.stringify(messages[0], null, 2)}\n`, opening: 'object' },
  'a pretty-printed array of messages': { text: `${JSON.stringify(messages, null, 2)}\n`, opening: 'array' },
  'an array of messages on one line': { text: `${JSON.stringify(messages)}\n`, opening: 'array' },
  'an array with one message per line (its last message is a valid line)': { text: `[\n${messages.map((m) => JSON.stringify(m)).join(',\n')}\n]\n`, opening: 'array' },
  'pretty-printed messages one after another (jq . on JSON Lines)': { text: messages.map((m) => `${JSON.stringify(m, null, 2)}\n`).join(''), opening: 'object' },
  'a pretty-printed array behind a byte-order mark and blank lines, with CRLF': { text: `\ufeff\r\n\r\n${JSON.stringify(messages, null, 2).replace(/\n/g, '\r\n')}\r\n`, opening: 'array' },
} as const;

/** JSON Lines, valid or broken, and what cannot be told from it: never a hint. */
const NOT_DOCUMENTS = {
  'valid JSON Lines': jsonLines,
  'JSON Lines, every line with single quotes': messages.map((m) => `${JSON.stringify(m).replace(/"/g, "'")}\n`).join(''),
  'JSON Lines, every line cut short': messages.map((m) => `${JSON.stringify(m).slice(0, 30)}\n`).join(''),
  'JSON Lines of non-objects (strings, numbers)': '"account.created"\n42\n"x"\n',
  'a stray "[" line before mostly valid JSON Lines': `[\n${jsonLines}`,
  // A line cut short looks the same as this opening line: not recognised, on purpose.
  'an object whose first member is on its opening line': `{ "type": "account.created",\n  "version": "v1",\n  "payload": {}\n}\n`,
  'an empty input': '',
};

function collector(): Writable & { text(): string } {
  const parts: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => Buffer.concat(parts).toString('utf8') });
}

async function run(args: string[], input = '') {
  const stdout = collector();
  const stderr = collector();
  const code = await runValidate(args, { stdin: Readable.from([Buffer.from(input, 'utf8')]), stdout, stderr });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const HINT_LINE = /^hint: .*$/m;

describe('documentOpening: what the first counted line opens', () => {
  it.each([
    ['[', 'array'],
    ['  [  ', 'array'],
    ['[{"type":"a"}]', 'array'],
    ['[{"type":"a"},', 'array'],
    ['{', 'object'],
    ['\ufeff{\r', 'object'],
    ['{"type":"a"}', undefined],
    ['{ "type": "a",', undefined],
    ['"x"', undefined],
    ['', undefined],
  ] as const)('%j → %s', (line, expected) => {
    expect(documentOpening(line)).toBe(expected);
  });
});

describe('jsonLinesHint: only when most lines were rejected', () => {
  it('says how to convert an array or an object, from a file or from standard input', () => {
    expect(jsonLinesHint('array', { lines: 5, valid: 0 }, 'dump.json')).toBe(
      "the input looks like one JSON array, not JSON Lines: validate reads one message per line. Convert it first: jq -c '.[]' dump.json > dump.jsonl",
    );
    expect(jsonLinesHint('object', { lines: 5, valid: 0 }, undefined)).toBe(
      'the input looks like pretty-printed JSON, not JSON Lines: validate reads one message per line. Convert it first: … | jq -c . | event-catalog validate',
    );
    // A name a shell would read otherwise is not pasted into the command.
    expect(jsonLinesHint('array', { lines: 5, valid: 0 }, 'my dump; rm -rf x.json')).toContain("jq -c '.[]' FILE > FILE.jsonl");
    expect(jsonLinesHint('array', { lines: 5, valid: 0 }, '-x.json')).toContain("jq -c '.[]' FILE > FILE.jsonl");
  });

  it('is silent when nothing opens a document, or when as many lines were valid as rejected', () => {
    expect(jsonLinesHint(undefined, { lines: 5, valid: 0 }, 'a.json')).toBeUndefined();
    expect(jsonLinesHint('array', { lines: 4, valid: 2 }, 'a.json')).toBeUndefined();
    expect(jsonLinesHint('array', { lines: 5, valid: 2 }, 'a.json')).toBeDefined();
  });
});

describe('validate on one JSON document', () => {
  it.each(Object.entries(DOCUMENTS))('%s: one hint line after the summary, and a hint field with --json', async (_label, { text, opening }) => {
    const table = await run([], text);
    expect(table.code).toBe(1);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines.at(-2)).toMatch(/^✘ \d+ of \d+ lines rejected$/);
    expect(lines.at(-1)).toBe(`hint: ${jsonLinesHint(opening, { lines: 2, valid: 0 }, undefined)}`);
    expect(lines.filter((l) => HINT_LINE.test(l))).toHaveLength(1);
    const json = await run(['--json'], text);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { hint?: string }).hint).toBe(jsonLinesHint(opening, { lines: 2, valid: 0 }, undefined));
  });

  it.each(Object.entries(NOT_DOCUMENTS))('%s: no hint, no hint field', async (_label, text) => {
    const table = await run([], text);
    expect(table.stdout).not.toMatch(HINT_LINE);
    const json = await run(['--json'], text);
    expect(JSON.parse(json.stdout)).not.toHaveProperty('hint');
  });

  it('a one-line array longer than --max-line-length is recognised from the bytes kept of it', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => message(i));
    const text = `${JSON.stringify(many)}\n`;
    const { code, stdout } = await run(['--max-line-length', '1KiB', '--json'], text);
    expect(code).toBe(1);
    const summary = JSON.parse(stdout) as { lines: number; malformed: number; topIssues: { code: string }[]; hint?: string };
    expect([summary.lines, summary.malformed, summary.topIssues[0]!.code]).toEqual([1, 1, 'line_too_long']);
    expect(summary.hint).toContain("jq -c '.[]'");
  });

  it(
    'end to end: the bin prints the hint for a file, and the command it suggests, run as written with jq, makes input that validates',
    async () => {
      const file = join(work, 'dump.json');
      writeFileSync(file, `${JSON.stringify(messages, null, 2)}\n`);
      const before = await spawnBin(['validate', file]);
      expect(before.code).toBe(1);
      const hint = before.stdout.trimEnd().split('\n').at(-1)!;
      expect(hint).toBe(`hint: ${jsonLinesHint('array', { lines: 5, valid: 0 }, file)}`);
      const command = hint.slice(hint.indexOf('Convert it first: ') + 'Convert it first: '.length);
      expect(command).toBe(`jq -c '.[]' ${file} > ${join(work, 'dump.jsonl')}`);
      execFileSync('sh', ['-c', command], { cwd: work });
      expect(readFileSync(join(work, 'dump.jsonl'), 'utf8')).toBe(jsonLines);
      const after = await spawnBin(['validate', join(work, 'dump.jsonl')]);
      expect(after.code).toBe(0);
      expect(after.stdout).toContain('✔ all 3 lines valid');
      expect(after.stdout).not.toMatch(HINT_LINE);
    },
    SPAWNS,
  );
});
