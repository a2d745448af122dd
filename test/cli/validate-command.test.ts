/**
 * The `validate` command, run in-process on a generated sample stream whose every line's
 * class is known, so every count can be checked exactly; and the sample stream generator
 * itself. One test spawns the real bin end to end.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import type { CatalogModel } from '../../generator/model.js';
import { DEFAULT_MAX_LINE_LENGTH, PROGRESS_EVERY, runValidate, type RejectedLine } from '../../runtime/cli/validate-command.js';
import { printable } from '../../runtime/cli/validate-table.js';
import { packageVersion } from '../../runtime/cli/package-version.js';
import { IssueTally, type ValidateSummary } from '../../runtime/cli/validate-tally.js';
import { decodeEvent } from '../../runtime/decode-event.js';
import { spawnBin } from './spawn-bin.js';
import type { ValidationMode } from '../../runtime/internal/result.js';
import {
  generateLabelledSampleStream,
  generateSampleStream,
  SAMPLE_KINDS,
  type SampleLine,
  type SampleOutcome,
} from '../../scripts/generate-sample-stream.js';
import { fullPayload, mutations } from '../../generator/samples/payload-samples.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const loaded = loadCatalogFromDisk(join(ROOT, 'catalog'));
if (!loaded.model) throw new Error('catalog did not load');
const model: CatalogModel = loaded.model;

const work = mkdtempSync(join(tmpdir(), 'validate-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const COUNT = 3000;
const SHARE = 0.08;
const sample: SampleLine[] = generateLabelledSampleStream(model, { count: COUNT, invalidShare: SHARE, seed: 'cli-tests', blankShare: 0.01 });
const sampleText = sample.map((l) => `${l.text}\n`).join('');
const sampleFile = join(work, 'sample.jsonl');
writeFileSync(sampleFile, sampleText);

// --- helpers -------------------------------------------------------------------------------

/** A readable over the bytes, cut into uneven chunks (some inside a multi-byte character). */
function chunked(input: string | Buffer): Readable {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const chunks: Buffer[] = [];
  const sizes = [1, 7, 4093, 65536, 13, 250];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

function collector(isTTY = false): Writable & { text(): string; isTTY?: boolean } {
  const parts: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return Object.assign(stream, { text: () => Buffer.concat(parts).toString('utf8'), isTTY });
}

async function run(args: string[], input: string | Buffer = '', options: { tty?: boolean } = {}) {
  const stdout = collector();
  const stderr = collector(options.tty ?? false);
  const code = await runValidate(args, { stdin: chunked(input), stdout, stderr });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

async function runJson(args: string[], input?: string | Buffer): Promise<{ code: number; summary: ValidateSummary; stderr: string }> {
  const { code, stdout, stderr } = await run([...args, '--json'], input);
  return { code, summary: JSON.parse(stdout) as ValidateSummary, stderr };
}

const readRejects = (path: string): RejectedLine[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as RejectedLine);

/** What the summary must be, from the known class of each line. */
function expectedSummary(lines: readonly SampleLine[], mode: ValidationMode) {
  const totals = { lines: 0, valid: 0, invalid: 0, unknown: 0, malformed: 0 };
  const byEvent = new Map<string, { type: string; version: string; valid: number; invalid: number }>();
  for (const line of lines) {
    const outcome = line.expected[mode];
    if (outcome === 'skipped') continue;
    totals.lines++;
    totals[outcome]++;
    if (outcome === 'valid' || outcome === 'invalid') {
      const key = `${line.type}\u0000${line.version}`;
      const entry = byEvent.get(key) ?? { type: line.type!, version: line.version!, valid: 0, invalid: 0 };
      entry[outcome]++;
      byEvent.set(key, entry);
    }
  }
  const sorted = [...byEvent.values()].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
  return { ...totals, byEvent: sorted };
}

const countOf = (lines: readonly SampleLine[], pred: (l: SampleLine) => boolean): number => lines.filter(pred).length;

// --- the sample stream ------------------------------------------------------------------------

describe('the sample stream generator', () => {
  it('is deterministic: the same seed gives the same lines, another seed other lines', () => {
    const options = { count: 1500, seed: 'same' };
    expect(generateSampleStream(model, options)).toEqual(generateSampleStream(model, options));
    expect(generateSampleStream(model, { ...options, seed: 'other' })).not.toEqual(generateSampleStream(model, options));
  });

  it('has every event at least once as a valid message, with a skewed mix', () => {
    const valid = sample.filter((l) => l.kind === 'valid');
    const seen = new Map<string, number>();
    for (const l of valid) seen.set(`${l.type}@${l.version}`, (seen.get(`${l.type}@${l.version}`) ?? 0) + 1);
    expect([...seen.keys()].sort()).toEqual(model.events.map((e) => e.key).sort());
    const frequencies = [...seen.values()].sort((a, b) => b - a);
    expect(frequencies[0]!).toBeGreaterThan(10 * frequencies[frequencies.length - 1]!);
    // Even when the count is just the number of events.
    const tight = generateLabelledSampleStream(model, { count: model.events.length, seed: 'tight' });
    expect(new Set(tight.filter((l) => l.kind === 'valid').map((l) => `${l.type}@${l.version}`)).size).toBe(model.events.length);
  });

  it('breaks about the share asked, over every class', () => {
    const messages = sample.filter((l) => l.kind !== 'blank');
    expect(messages).toHaveLength(COUNT);
    expect(countOf(messages, (l) => l.kind !== 'valid')).toBe(Math.round(COUNT * SHARE));
    expect(new Set(sample.map((l) => l.kind))).toEqual(new Set(SAMPLE_KINDS));
    const big = generateLabelledSampleStream(model, { count: 5000, invalidShare: 0.2, seed: 'share' });
    const share = countOf(big, (l) => l.kind !== 'valid' && l.kind !== 'blank') / 5000;
    expect(share).toBeCloseTo(0.2, 2);
    expect(generateLabelledSampleStream(model, { count: 500, invalidShare: 0 }).every((l) => l.kind === 'valid' || l.kind === 'blank')).toBe(true);
  });

  it('labels each line with what decodeEvent makes of it, in both modes', () => {
    const outcomeOf = (text: string, mode: ValidationMode): SampleOutcome => {
      if (text.trim() === '') return 'skipped';
      const result = decodeEvent(text, { mode });
      if (result.ok) return 'valid';
      return ({ invalid_payload: 'invalid', unknown_event_type: 'unknown', unknown_event_version: 'unknown', malformed_message: 'malformed' } as const)[result.error.code];
    };
    const wrong = sample.filter((l) => outcomeOf(l.text, 'tolerant') !== l.expected.tolerant || outcomeOf(l.text, 'strict') !== l.expected.strict);
    expect(wrong.map((l) => `${l.kind}: ${l.text.slice(0, 200)}`)).toEqual([]);
    // Payload errors are reported where the generator says the fault is.
    for (const line of sample.filter((l) => l.path !== undefined && l.expected.strict === 'invalid')) {
      const result = decodeEvent(line.text, { mode: 'strict' });
      expect(result.ok ? [] : result.error.issues.map((i) => i.path)).toContain(line.path);
    }
  });
});

// --- the command, in-process ----------------------------------------------------------------

describe('validate', () => {
  it('counts every line by its known class (tolerant), and lines = valid + invalid + unknown + malformed', async () => {
    const { code, summary, stderr } = await runJson([sampleFile]);
    const expected = expectedSummary(sample, 'tolerant');
    expect(code).toBe(1);
    expect(stderr).toBe('');
    expect({ lines: summary.lines, valid: summary.valid, invalid: summary.invalid, unknown: summary.unknown, malformed: summary.malformed }).toEqual({
      lines: expected.lines,
      valid: expected.valid,
      invalid: expected.invalid,
      unknown: expected.unknown,
      malformed: expected.malformed,
    });
    expect(summary.lines).toBe(COUNT);
    expect(summary.lines).toBe(summary.valid + summary.invalid + summary.unknown + summary.malformed);
    expect(summary.byEvent).toEqual(expected.byEvent);
    expect(countOf(sample, (l) => l.kind === 'unknown_type')).toBeGreaterThan(0);
    expect(summary.unknown).toBe(countOf(sample, (l) => l.kind === 'unknown_type' || l.kind === 'unknown_version'));
    expect(summary.malformed).toBe(countOf(sample, (l) => l.kind === 'malformed_json' || l.kind === 'not_object' || l.kind === 'missing_envelope'));
  });

  it('--strict turns the unlisted-property lines from valid to invalid, except on open payloads', async () => {
    const tolerant = (await runJson([sampleFile])).summary;
    const strict = await runJson([sampleFile, '--strict']);
    const expected = expectedSummary(sample, 'strict');
    expect(strict.summary.byEvent).toEqual(expected.byEvent);
    expect(strict.summary.valid).toBe(expected.valid);
    const extraRejected = countOf(sample, (l) => l.kind === 'extra_property' && l.expected.strict === 'invalid');
    expect(extraRejected).toBeGreaterThan(0);
    expect(strict.summary.invalid - tolerant.invalid).toBe(extraRejected);
    expect(tolerant.valid - strict.summary.valid).toBe(extraRejected);
    expect(strict.summary.topIssues.map((i) => i.code)).toContain('additional_property');

    // Open events: an unlisted property at the top of the payload stays valid in strict mode.
    const line = (type: string, payload: unknown) => JSON.stringify({ type, version: 'v1', payload });
    const open = model.events.find((e) => e.key === 'billing.rebate.accepted@v1')!;
    const closed = model.events.find((e) => e.key === 'account.created@v1')!;
    const extra = (e: typeof open) => mutations(model, e).find((m) => m.label === 'unlisted property /unlisted_property')!.payload;
    const input = `${line(open.type, extra(open))}\n${line(closed.type, extra(closed))}\n`;
    const result = await runJson(['--strict'], input);
    expect(result.summary.byEvent).toEqual([
      { type: 'account.created', version: 'v1', valid: 0, invalid: 1 },
      { type: 'billing.rebate.accepted', version: 'v1', valid: 1, invalid: 0 },
    ]);
    expect((await runJson([], input)).code).toBe(0);
  });

  it('--rejects holds exactly the rejected lines, in order, with physical line numbers and raw text', async () => {
    for (const mode of ['tolerant', 'strict'] as const) {
      const rejectsFile = join(work, `rejects-${mode}.jsonl`);
      const { summary } = await runJson([sampleFile, '--rejects', rejectsFile, ...(mode === 'strict' ? ['--strict'] : [])]);
      const rejects = readRejects(rejectsFile);
      const expectedLines = sample.flatMap((l, i) => (l.expected[mode] !== 'valid' && l.expected[mode] !== 'skipped' ? [i + 1] : []));
      expect(rejects.map((r) => r.line)).toEqual(expectedLines);
      expect(rejects.length).toBe(summary.lines - summary.valid);
      for (const reject of rejects) {
        const source = sample[reject.line - 1]!;
        expect(reject.raw).toBe(source.text);
        const code = reject.error.code;
        const outcome = code === 'invalid_payload' ? 'invalid' : code === 'malformed_message' ? 'malformed' : 'unknown';
        expect(outcome).toBe(source.expected[mode]);
        expect(reject.error.issues.length).toBeGreaterThan(0);
      }
      // Nothing is lost: every counted line is valid or in the rejects file.
      const rejected = new Set(rejects.map((r) => r.line));
      const counted = sample.flatMap((l, i) => (l.expected[mode] === 'skipped' ? [] : [i + 1]));
      expect(counted.every((n) => rejected.has(n) !== (sample[n - 1]!.expected[mode] === 'valid'))).toBe(true);
    }
  });

  it('--json prints exactly one object of the documented shape', async () => {
    const { stdout } = await run([sampleFile, '--json']);
    const summary = JSON.parse(stdout) as ValidateSummary;
    expect(Object.keys(summary)).toEqual(['lines', 'valid', 'invalid', 'unknown', 'malformed', 'byEvent', 'topIssues', 'unknownTypes']);
    for (const entry of summary.byEvent) expect(Object.keys(entry)).toEqual(['type', 'version', 'valid', 'invalid']);
    const keys = summary.byEvent.map((e) => [e.type, e.version] as const);
    const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expect(keys).toEqual(sorted);
    const known = new Set(model.events.map((e) => e.type));
    expect(summary.byEvent.every((e) => known.has(e.type))).toBe(true);
    expect(summary.topIssues.length).toBe(10);
    for (const issue of summary.topIssues) expect(Object.keys(issue)).toEqual(['code', 'path', 'count']);
    const counts = summary.topIssues.map((i) => i.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(summary.topIssues.find((i) => i.code === 'json_syntax')).toMatchObject({ path: '' });
  });

  it('lists unknown event types with the catalog type each most likely meant', async () => {
    const lines = ['acount.created', 'acount.created', 'Account.Created', 'no.such.thing', 'account.created'].map((type) => JSON.stringify({ type, version: type === 'account.created' ? 'v9' : 'v1', payload: {} }));
    const { code, summary } = await runJson([], lines.join('\n'));
    expect(code).toBe(1);
    expect(summary.unknownTypes).toEqual([
      { type: 'acount.created', count: 2, didYouMean: 'account.created' },
      { type: 'Account.Created', count: 1, didYouMean: 'account.created' },
      { type: 'no.such.thing', count: 1 },
    ]);
    const table = (await run([], lines.join('\n'))).stdout;
    expect(table).toContain('unknown event types\n  count  event type         did you mean\n      2  "acount.created"   account.created\n');
  });

  it('prints a readable table by default: per type and version, totals, top issues', async () => {
    const { code, stdout, stderr } = await run([sampleFile]);
    const expected = expectedSummary(sample, 'tolerant');
    expect(code).toBe(1);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^event type\s+version\s+valid\s+invalid\n/);
    const first = expected.byEvent[0]!;
    expect(stdout).toMatch(new RegExp(`\\n${first.type.replace(/[.]/g, '\\.')}\\s+${first.version}\\s+${first.valid}\\s+${first.invalid}\\n`));
    expect(stdout).toMatch(new RegExp(`\\n  lines\\s+${expected.lines.toLocaleString('en-US')}\\s`));
    expect(stdout).toMatch(new RegExp(`\\n  malformed\\s+${expected.malformed}\\s`));
    expect(stdout).toContain('\ntop issues\n');
    expect(stdout).toContain(`✘ ${expected.lines - expected.valid} of ${expected.lines.toLocaleString('en-US')} lines rejected`);
  });

  it('skips blank lines without counting them, but numbers lines physically', async () => {
    const valid = JSON.stringify({ type: 'account.created', version: 'v1', payload: fullPayload(model, model.events.find((e) => e.key === 'account.created@v1')!) });
    const input = ['', '   ', valid, '\t', '{"broken"', ' \t ', '', 'null', ''].join('\n');
    const rejectsFile = join(work, 'blank-rejects.jsonl');
    const { code, summary } = await runJson(['-', '--rejects', rejectsFile], input);
    expect(code).toBe(1);
    expect(summary).toMatchObject({ lines: 3, valid: 1, malformed: 2 });
    expect(readRejects(rejectsFile).map((r) => [r.line, r.raw])).toEqual([
      [5, '{"broken"'],
      [8, 'null'],
    ]);
    expect((await runJson([], '\n \n\t\n')).summary.lines).toBe(0);
  });

  it('reads CRLF line ends, a byte-order mark, a last line without a line end, and non-UTF-8 bytes', async () => {
    const event = model.events.find((e) => e.key === 'account.created@v1')!;
    const valid = JSON.stringify({ type: event.type, version: event.version, payload: fullPayload(model, event) });
    const unknown = JSON.stringify({ type: 'account.deleted', version: 'v1', payload: {} });
    const input = Buffer.concat([
      Buffer.from(`\uFEFF${valid}\r\n\r\n${unknown}\r\n`, 'utf8'),
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), // "{" + invalid UTF-8 + "}"
      Buffer.from(`${valid}\r\n${valid}`, 'utf8'),
    ]);
    const rejectsFile = join(work, 'crlf-rejects.jsonl');
    const { code, summary } = await runJson(['--rejects', rejectsFile], input);
    expect(code).toBe(1);
    expect(summary).toMatchObject({ lines: 5, valid: 3, unknown: 1, malformed: 1, invalid: 0 });
    const rejects = readRejects(rejectsFile);
    expect(rejects.map((r) => [r.line, r.error.code, r.error.issues[0]!.code])).toEqual([
      [3, 'unknown_event_type', 'unknown_event_type'],
      [4, 'malformed_message', 'invalid_utf8'],
    ]);
    expect(rejects[0]!.raw).toBe(unknown);
  });

  it('exits 0 when every counted line is valid, 1 when any is rejected', async () => {
    const valid = sample.filter((l) => l.kind === 'valid').map((l) => l.text);
    expect((await run([], valid.join('\n'))).code).toBe(0);
    expect((await run(['-'], `${valid.join('\n')}\n{}\n`)).code).toBe(1);
    expect((await run([], '')).code).toBe(0);
  });

  it('reads standard input when given "-" or no file', async () => {
    const viaDash = await run(['-', '--json'], sampleText);
    const viaNothing = await run(['--json'], sampleText);
    const viaFile = await run([sampleFile, '--json']);
    expect(viaDash.stdout).toBe(viaFile.stdout);
    expect(viaNothing.stdout).toBe(viaFile.stdout);
  });

  it('exits 2 on usage errors and unreadable input, with a message on stderr and nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [[join(work, 'no-such-file.jsonl')], /cannot read .*no-such-file\.jsonl: no such file or directory/],
      [[work], /cannot read .*: is a directory/],
      [['--frobnicate'], /^✘ unknown option "--frobnicate"\nusage: event-catalog validate /],
      [['-x'], /^✘ unknown option "-x"\n/],
      [['--rejects', '--json'], /^✘ --rejects needs a value: --rejects FILE\n/],
      [['--max-line-length', '12 bytes'], /--max-line-length takes a number of bytes/],
      [['--max-line-length=0'], /--max-line-length takes a number of bytes/],
      [['--max-line-length', '1TiB'], /--max-line-length takes a number of bytes/],
      [['a.jsonl', 'b.jsonl'], /one input at most/],
      [['--rejects'], /--rejects/],
      [['--json=yes'], /^✘ --json takes no value\n/],
      [[sampleFile, '--rejects', sampleFile], /is the input file/],
      [[sampleFile, '--rejects', join(work, 'no-such-dir', 'r.jsonl')], /cannot write rejects file/],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(result.stderr).toMatch(message);
    }
    expect(readFileSync(sampleFile, 'utf8')).toBe(sampleText);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('validate [FILE|-] [--strict] [--rejects FILE] [--json]');
  });

  it('shows progress on stderr only when stderr is a terminal', async () => {
    const input = '\n'.repeat(PROGRESS_EVERY + 5) + '{}\n';
    const onTty = await run([], input, { tty: true });
    expect(onTty.stderr).toContain(`\r${PROGRESS_EVERY.toLocaleString('en-US')} lines read…`);
    const offTty = await run([], input, { tty: false });
    expect(offTty.stderr).toBe('');
    expect(onTty.stdout).toBe(offTty.stdout);
  });
});

describe('validate on hostile input', () => {
  const validLine = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } });

  it('reads past a line longer than --max-line-length: malformed (line_too_long), counted, cut and marked in the rejects file', async () => {
    expect(DEFAULT_MAX_LINE_LENGTH).toBe(16 * 1024 * 1024);
    const long = `{"type":"${'x'.repeat(5000)}"}`;
    const input = `${validLine}\n${long}\n${validLine}\n${'y'.repeat(3000)}`;
    const rejectsFile = join(work, 'long-rejects.jsonl');
    const { code, summary } = await runJson(['--max-line-length', '1KiB', '--rejects', rejectsFile], input);
    expect(code).toBe(1);
    expect(summary).toMatchObject({ lines: 4, valid: 2, malformed: 2 });
    expect(summary.topIssues).toEqual([{ code: 'line_too_long', path: '', count: 2 }]);
    const rejects = readRejects(rejectsFile);
    expect(rejects.map((r) => [r.line, r.error.code, r.error.issues[0]!.code])).toEqual([
      [2, 'malformed_message', 'line_too_long'],
      [4, 'malformed_message', 'line_too_long'],
    ]);
    expect(rejects[0]!.raw).toBe(`${long.slice(0, 1024)} [cut: only the first 1,024 of ${long.length.toLocaleString('en-US')} bytes kept]`);
    expect(rejects[0]!.error.message).toContain(`line of ${long.length.toLocaleString('en-US')} bytes`);
    // A line of exactly the maximum is read as usual.
    expect((await runJson(['--max-line-length', String(validLine.length)], `${validLine}\n`)).summary).toMatchObject({ lines: 1, valid: 1 });
  });

  it('writes a long rejected line to the rejects file exactly, control characters and surrogate pairs included', async () => {
    const long = `{"x":"a${'😀\u0000'.repeat(1_000_000)}`; // not JSON: the string never ends
    const rejectsFile = join(work, 'long-raw-rejects.jsonl');
    const { summary } = await runJson(['--rejects', rejectsFile], `${validLine}\n${long}\n${validLine}\n{}\n`);
    expect(summary).toMatchObject({ lines: 4, valid: 2, malformed: 2 });
    const rejects = readRejects(rejectsFile);
    expect(rejects.map((r) => r.line)).toEqual([2, 4]);
    expect(rejects[0]!.raw === long).toBe(true);
    expect(rejects[0]!.error.issues[0]!.code).toBe('json_syntax');
  });

  it('counts lines of white space JSON does not know (NBSP, U+2028, VT, FF, U+3000) as malformed, not blank', async () => {
    const odd = ['\u00a0', '\u2028', '\u000b', '\u000c', '\u3000', ' \u00a0 '];
    const { summary } = await runJson([], [...odd, ' \t\r', ''].join('\n'));
    expect(summary).toMatchObject({ lines: odd.length, malformed: odd.length });
    expect(summary.topIssues).toEqual([{ code: 'json_syntax', path: '', count: odd.length }]);
  });

  it('escapes control characters of property names in the table', async () => {
    const forged = '\u001b[2J\u001b[H\r\n✔ all 0 lines valid\u0007';
    const line = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [], [forged]: 1 } });
    const { stdout } = await run(['--strict'], `${line}\n`);
    expect(stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(stdout).toContain('/payload/\\u001b[2J\\u001b[H\\u000d\\u000a✔ all 0 lines valid\\u0007');
    expect(stdout.split('\n').filter((l) => l.startsWith('✔'))).toEqual([]);
    expect(printable('a\u0085b\u202ec\u2028')).toBe('a\\u0085b\\u202ec\\u2028');
  });

  it('keeps the issue tally small when every line has its own huge property name', async () => {
    const key = (i: number) => `${i}-${'k'.repeat(100_000)}`;
    const input = Array.from({ length: 50 }, (_, i) => JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A', account_user_emails: [], [key(i)]: 1 } })).join('\n');
    const rejectsFile = join(work, 'keys-rejects.jsonl');
    const { summary } = await runJson(['--strict', '--rejects', rejectsFile], input);
    expect(summary).toMatchObject({ lines: 50, invalid: 50 });
    for (const issue of summary.topIssues) expect(issue.path.length).toBeLessThan(300);
    // Each rejected line holds its raw text once, and little besides.
    for (const line of readFileSync(rejectsFile, 'utf8').split('\n').filter(Boolean)) expect(line.length).toBeLessThan(100_000 + 3_000);
  });
});

describe('the issue tally', () => {
  it('stays bounded and keeps the heavy hitters when paths are endless', () => {
    const tally = new IssueTally(1000);
    for (let i = 0; i < 50_000; i++) {
      tally.add('additional_property', `/payload/x${i}`);
      if (i % 10 === 0) tally.add('required', '/payload/account_number');
    }
    expect(tally.approximate).toBe(true);
    expect((tally as unknown as { counts: Map<string, number> }).counts.size).toBeLessThanOrEqual(1000);
    expect(tally.top(1)[0]).toMatchObject({ code: 'required', path: '/payload/account_number' });
    const exact = new IssueTally(1000);
    for (let i = 0; i < 999; i++) exact.add('type', `/payload/${i % 2}`);
    expect(exact.approximate).toBe(false);
    expect(exact.top(10)).toEqual([
      { code: 'type', path: '/payload/0', count: 500 },
      { code: 'type', path: '/payload/1', count: 499 },
    ]);
  });
});

describe('the CLI code', () => {
  it('imports only the runtime and the generated code, never build-time tools', () => {
    for (const file of ['validate-command.ts', 'validate-arguments.ts', 'rejects-file.ts', 'package-version.ts', 'main.ts']) {
      const source = readFileSync(join(ROOT, 'runtime/cli', file), 'utf8');
      const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*from\s+'([^']+)'/gm)].map((m) => m[1]!);
      expect(specifiers.length).toBeGreaterThan(0);
      for (const specifier of specifiers) expect(specifier, `${file} imports ${specifier}`).toMatch(/^(node:|\.\/|\.\.\/(?!\.\.\/generator)|\.\.\/\.\.\/generated\/)/);
    }
  });
});

describe('the bin, end to end', () => {
  const bin = (args: string[], text?: string) => spawnBin(args, { text });
  const binFromFile = (args: string[], fromFile: string) => spawnBin(args, { fromFile });

  it('refuses --rejects naming the file standard input reads (exit 2), and leaves it whole', async () => {
    const input = join(work, 'stdin-same.jsonl');
    writeFileSync(input, sampleText);
    const link = join(work, 'stdin-same-link.jsonl');
    symlinkSync(input, link);
    for (const rejects of [input, link]) {
      const result = await binFromFile(['validate', '-', '--rejects', rejects], input);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/is the file standard input reads/);
      expect(readFileSync(input, 'utf8')).toBe(sampleText);
    }
    // Another file is fine.
    expect((await binFromFile(['validate', '--rejects', join(work, 'stdin-other.jsonl'), '--json'], input)).code).toBe(1);
  }, 60_000);

  it('on SIGINT prints the summary of the lines read so far and exits 130', async () => {
    const rejectsFile = join(work, 'sigint-rejects.jsonl');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'runtime/cli/main.ts'), 'validate', '--json', '--rejects', rejectsFile], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const closed = new Promise<number | null>((done) => child.on('close', done));
    // Three lines, one rejected; standard input stays open, as when reading a live stream.
    child.stdin.write(`${sample.find((l) => l.kind === 'valid')!.text}\n{}\n${sample.find((l) => l.kind === 'valid')!.text}\n`);
    const deadline = Date.now() + 50_000;
    while (!(existsSync(rejectsFile) && readFileSync(rejectsFile, 'utf8').includes('"line":2'))) {
      if (Date.now() > deadline) throw new Error(`nothing counted in time; stderr: ${stderr}`);
      await new Promise((done) => setTimeout(done, 50));
    }
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(JSON.parse(stdout)).toMatchObject({ lines: 3, valid: 2, malformed: 1 });
    expect(stderr).toMatch(/interrupted: the summary counts the 3 line\(s\) read before it/);
    child.stdin.destroy();
  }, 60_000);

  it('--version prints the package version from the sources and from the bundled bin\'s place (dist/cli.js)', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(packageVersion(pathToFileURL(join(ROOT, 'dist/cli.js')))).toBe(version);
    expect(packageVersion(pathToFileURL(join(ROOT, 'runtime/cli/main.ts')))).toBe(version);
    expect(packageVersion(pathToFileURL(join(work, 'a/b/c.js')))).toBe('unknown');
    expect(await bin(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  }, 30_000);

  it('an unknown top-level option says so and shows the usage (exit 2)', async () => {
    const result = await bin(['--frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^✘ unknown option "--frobnicate"\nusage: event-catalog <command>/);
  }, 30_000);

  it('validate <file> --json and validate - from a pipe give the same summary as in-process', async () => {
    const [fromFile, fromPipe, inProcess] = await Promise.all([bin(['validate', sampleFile, '--json']), bin(['validate', '-', '--json'], sampleText), run([sampleFile, '--json'])]);
    expect(fromFile).toEqual({ code: 1, stdout: inProcess.stdout, stderr: '' });
    expect(fromPipe).toEqual({ code: 1, stdout: inProcess.stdout, stderr: '' });
  }, 20_000);
});
