/**
 * `validate [FILE|-] [--strict] [--rejects FILE] [--json]`: checks a dump of bus messages
 * (JSON Lines) against the catalog and summarises it.
 *
 * - Streams: the input is split into lines chunk by chunk (on `\n`; a `\r` before it is part
 *   of the line ending), each line is checked with `decodeEvent` and forgotten. What is kept is
 *   counters, one per (type, version) of the catalog, and a bounded tally of issue codes and
 *   paths, so memory stays flat however large the input.
 * - Lines empty or only white space are skipped and not counted, but they do count for line
 *   numbers: `line` in the rejects file is the physical, 1-based line number in the input.
 * - A UTF-8 byte-order mark at the start of the input, CRLF line ends and a last line without
 *   a line end are accepted. A line that is not valid UTF-8 is `malformed_message`
 *   (`invalid_utf8`).
 * - Exit status: 0 when every counted line is valid, 1 when any was rejected, 2 for usage
 *   errors and unreadable input (or an unwritable rejects file).
 *
 * Run-time code: imports only the runtime and the generated validators.
 */
import { once } from 'node:events';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { decodeEvent } from '../index.js';
import type { EventError, ValidateOptions, ValidationMode, ValidationResult } from '../index.js';
import { formatTable } from './validate-table.js';
import { ISSUE_TALLY_CAPACITY, Tally } from './validate-tally.js';

export interface ValidateIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}


/** One line of the rejects file. */
export interface RejectedLine {
  line: number;
  error: EventError;
  raw: string;
}

export const BIN_NAME = 'event-catalog';
export const VALIDATE_USAGE = `usage: ${BIN_NAME} validate [FILE|-] [--strict] [--rejects FILE] [--json]`;

const VALIDATE_HELP = `${VALIDATE_USAGE}

Checks bus messages, one JSON message per line (JSON Lines), against the event catalog.

  FILE            the input; "-" or none: standard input
  --strict        reject payload properties the catalog does not list (except in open events)
  --rejects FILE  write each rejected line as {"line", "error", "raw"}, one JSON per line
  --json          print the summary as one JSON object instead of a table

Blank lines are skipped and not counted.
Exit status: 0 all valid, 1 some rejected, 2 usage error or unreadable input.
`;

/** Progress (on a terminal only) every this many physical lines. */
export const PROGRESS_EVERY = 100_000;

const CHUNK_SIZE = 1 << 16;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const BLANK = /^\s*$/;

/** Thrown for an input that cannot be read or a rejects file that cannot be written: exit 2. */
class IoFailure extends Error {}

/** Writes to a file with back-pressure; any write error becomes an `IoFailure`. */
class RejectsWriter {
  private readonly stream: NodeJS.WritableStream;
  private failure: Error | undefined;
  private readonly failed: Promise<never>;
  private buffer = '';

  constructor(handle: FileHandle, name: string) {
    this.stream = handle.createWriteStream();
    this.failed = new Promise<never>((_, reject) => {
      this.stream.on('error', (error: Error) => {
        this.failure = error;
        reject(new IoFailure(`cannot write rejects file ${name}: ${describe(error)}`));
      });
    });
    this.failed.catch(() => undefined);
  }

  add(rejected: RejectedLine): void {
    this.buffer += `${JSON.stringify(rejected)}\n`;
  }

  /** Hands what was added to the file; waits while the file is behind. */
  async flush(): Promise<void> {
    if (this.failure) await this.failed;
    if (this.buffer.length === 0) return;
    const text = this.buffer;
    this.buffer = '';
    if (!this.stream.write(text)) await Promise.race([once(this.stream, 'drain'), this.failed]);
  }

  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await Promise.race([once(this.stream, 'close'), this.failed]);
  }

  destroy(): void {
    (this.stream as NodeJS.WritableStream & { destroy?: () => void }).destroy?.();
  }
}

const describe = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return error instanceof Error ? error.message : String(error);
  }
};

const guardedStdouts = new WeakSet<object>();

/** A closed pipe on stdout (`… | head`) is not an error worth a crash: stop writing, keep the exit status. */
function guardStdout(stdout: NodeJS.WritableStream): void {
  if (guardedStdouts.has(stdout)) return;
  guardedStdouts.add(stdout);
  stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

/** Writes text and waits until it is handed over (or the pipe turned out to be closed). */
const write = (out: NodeJS.WritableStream, text: string): Promise<void> =>
  new Promise((done) => {
    try {
      out.write(text, () => done());
    } catch {
      done();
    }
  });

interface Options {
  input: string | undefined;
  mode: ValidationMode;
  rejects: string | undefined;
  json: boolean;
}

function parseOptions(args: string[]): Options | { help: true } | { usage: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        strict: { type: 'boolean', default: false },
        rejects: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return { usage: (error as Error).message.split('\n')[0]! };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length > 1) return { usage: `one input at most, got ${positionals.length}: ${positionals.join(' ')}` };
  if (values.rejects === '') return { usage: '--rejects needs a file name' };
  const input = positionals[0] === undefined || positionals[0] === '-' ? undefined : positionals[0];
  return { input, mode: values.strict ? 'strict' : 'tolerant', rejects: values.rejects, json: values.json };
}

/** Runs `validate` with the given arguments (those after `validate`); resolves to the exit status. */
export async function runValidate(args: string[], io: ValidateIo): Promise<number> {
  guardStdout(io.stdout);
  const options = parseOptions(args);
  if ('usage' in options) {
    await write(io.stderr, `✘ ${options.usage}\n${VALIDATE_USAGE}\n`);
    return 2;
  }
  if ('help' in options) {
    await write(io.stdout, VALIDATE_HELP);
    return 0;
  }

  let inputHandle: FileHandle | undefined;
  let rejects: RejectsWriter | undefined;
  try {
    let input: NodeJS.ReadableStream;
    if (options.input === undefined) {
      input = io.stdin;
    } else {
      try {
        inputHandle = await open(options.input, 'r');
        if ((await inputHandle.stat()).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      } catch (error) {
        throw new IoFailure(`cannot read ${options.input}: ${describe(error)}`);
      }
      input = inputHandle.createReadStream({ highWaterMark: CHUNK_SIZE, autoClose: false });
    }
    if (options.rejects !== undefined) {
      if (options.input !== undefined && (await sameFile(options.input, options.rejects))) {
        await write(io.stderr, `✘ --rejects ${options.rejects} is the input file\n${VALIDATE_USAGE}\n`);
        return 2;
      }
      let handle: FileHandle;
      try {
        handle = await open(options.rejects, 'w');
      } catch (error) {
        throw new IoFailure(`cannot write rejects file ${options.rejects}: ${describe(error)}`);
      }
      rejects = new RejectsWriter(handle, options.rejects);
    }

    const tally = await check(input, options.input ?? 'standard input', { mode: options.mode }, rejects, io.stderr.isTTY === true ? io.stderr : undefined);
    await rejects?.close();
    rejects = undefined;

    const summary = tally.summary();
    await write(io.stdout, options.json ? `${JSON.stringify(summary, null, 2)}\n` : formatTable(summary, options.mode, { approximate: tally.issues.approximate, blank: tally.blank }));
    if (options.json && tally.issues.approximate) {
      await write(io.stderr, `note: more than ${ISSUE_TALLY_CAPACITY} distinct issue paths; topIssues counts are lower bounds\n`);
    }
    return summary.lines === summary.valid ? 0 : 1;
  } catch (error) {
    if (!(error instanceof IoFailure)) throw error;
    await write(io.stderr, `✘ ${error.message}\n`);
    return 2;
  } finally {
    rejects?.destroy();
    await inputHandle?.close().catch(() => undefined);
  }
}

async function sameFile(a: string, b: string): Promise<boolean> {
  if (resolve(a) === resolve(b)) return true;
  try {
    const [sa, sb] = await Promise.all([stat(a), stat(b)]);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lossy = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Reads the input chunk by chunk, checking each complete line as soon as it is there. */
async function check(
  input: NodeJS.ReadableStream,
  inputName: string,
  options: ValidateOptions,
  rejects: RejectsWriter | undefined,
  progress: NodeJS.WritableStream | undefined,
): Promise<Tally> {
  const tally = new Tally();
  let lineNumber = 0;
  let carry: Buffer[] = [];

  const line = (bytes: Buffer): void => {
    lineNumber++;
    if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1);
    if (lineNumber === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    if (progress && lineNumber % PROGRESS_EVERY === 0) progress.write(`\r${lineNumber.toLocaleString('en-US')} lines read…`);

    let text: string;
    let result: ValidationResult;
    try {
      text = utf8.decode(bytes);
      if (BLANK.test(text)) {
        tally.blank++;
        return;
      }
      result = decodeEvent(text, options);
    } catch {
      // Not UTF-8: decodeEvent says so from the bytes; the rejects file shows what could be read.
      text = utf8Lossy.decode(bytes);
      result = decodeEvent(bytes, options);
    }
    tally.count(result);
    if (!result.ok && rejects) rejects.add({ line: lineNumber, error: result.error, raw: text });
  };

  try {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
      let start = 0;
      for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
        if (carry.length > 0) {
          carry.push(bytes.subarray(start, end));
          line(Buffer.concat(carry));
          carry = [];
        } else {
          line(bytes.subarray(start, end));
        }
        start = end + 1;
      }
      if (start < bytes.length) carry.push(start === 0 ? bytes : bytes.subarray(start));
      // What this chunk rejected is written before the next chunk is read.
      if (rejects) await rejects.flush();
    }
  } catch (error) {
    if (error instanceof IoFailure) throw error;
    throw new IoFailure(`cannot read ${inputName}: ${describe(error)}`);
  }
  if (carry.length > 0) line(Buffer.concat(carry));
  if (progress && lineNumber >= PROGRESS_EVERY) progress.write(`\r${' '.repeat(40)}\r`);
  return tally;
}
