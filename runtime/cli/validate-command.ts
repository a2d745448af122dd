/**
 * `validate [FILE|-] [--strict] [--rejects FILE] [--json] [--max-line-length BYTES]`: checks a
 * dump of bus messages (JSON Lines) against the catalog and summarises it.
 *
 * - Streams: the input is split into lines chunk by chunk (on `\n`; a `\r` before it is part
 *   of the line ending), each line is checked with `decodeEvent` and forgotten. What is kept is
 *   counters, one per (type, version) of the catalog, and a bounded tally of issue codes and
 *   paths, so memory stays flat however large the input.
 * - Lines empty or only JSON white space (space, tab, CR) are skipped and not counted, but they
 *   do count for line numbers: `line` in the rejects file is the physical, 1-based line number.
 * - A line longer than `--max-line-length` bytes is not buffered: its first bytes are kept for
 *   the rejects file, the rest is read past, and it counts as `malformed_message` (`line_too_long`).
 * - On SIGINT it stops reading and prints the summary of what it had counted (exit 130).
 * - One JSON document instead of JSON Lines (a JSON array, pretty-printed JSON) adds a hint
 *   to the summary, and a `hint` field to `--json`'s: see `json-lines-hint.ts`.
 * - A UTF-8 byte-order mark at the start of the input, CRLF line ends and a last line without
 *   a line end are accepted. A line that is not valid UTF-8 is `malformed_message`
 *   (`invalid_utf8`).
 * - Exit status: 0 when every counted line is valid, 1 when any was rejected, 2 for usage
 *   errors and unreadable input (or an unwritable rejects file), 130 when interrupted.
 *
 * Run-time code: imports only the runtime and the generated validators.
 */
import { fstatSync } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { resolve } from 'node:path';
import { addAbortSignal, type Readable } from 'node:stream';
import { decodeEvent, eventCatalog } from '../index.js';
import type { ValidateOptions, ValidationResult } from '../index.js';
import { documentOpening, jsonLinesHint, type DocumentOpening } from './json-lines-hint.js';
import { describe, IoFailure, RejectsWriter } from './rejects-file.js';
import { parseValidateArguments } from './validate-arguments.js';
import { formatTable } from './validate-table.js';
import { ISSUE_TALLY_CAPACITY, Tally } from './validate-tally.js';

export interface ValidateIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Aborted on an interrupt (SIGINT): stop reading, summarise what was counted. */
  interrupt?: AbortSignal;
}


export type { RejectedLine } from './rejects-file.js';
export { DEFAULT_MAX_LINE_LENGTH } from './validate-arguments.js';

export const BIN_NAME = 'event-catalog';
export const VALIDATE_USAGE = `usage: ${BIN_NAME} validate [FILE|-] [--strict] [--rejects FILE] [--json] [--max-line-length BYTES]`;
/** Exit status after an interrupt, as a shell reports a SIGINT. */
export const INTERRUPTED_EXIT = 130;

const VALIDATE_HELP = `${VALIDATE_USAGE}

Checks bus messages, one JSON message per line (JSON Lines), against the event catalog.
A JSON array or pretty-printed JSON is not JSON Lines (the summary then says so): convert
it first with jq -c '.[]' FILE (an array) or jq -c . FILE (pretty-printed messages).

  FILE            the input; "-" or none: standard input
  --strict        reject payload properties the catalog does not list (except in open events)
  --rejects FILE  write each rejected line as {"line", "error", "raw"}, one JSON per line
  --json          print the summary as one JSON object instead of a table
  --max-line-length BYTES
                  longest line read as a message (default 16MiB; KiB, MiB, GiB accepted);
                  a longer line is read past, not kept, and counted as malformed (line_too_long)

Blank lines (only spaces, tabs, CR) are skipped and not counted.
On Ctrl-C it stops and prints the summary of what it had read (exit 130).
Exit status: 0 all valid, 1 some rejected, 2 usage error or unreadable input.
`;

/** Progress (on a terminal only) every this many physical lines. */
export const PROGRESS_EVERY = 100_000;

const CHUNK_SIZE = 1 << 16;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** JSON's own white space only: a line of NBSP, U+2028 or a form feed is not blank but malformed. */
const BLANK = /^[ \t\r\n]*$/;

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

/** Runs `validate` with the given arguments (those after `validate`); resolves to the exit status. */
export async function runValidate(args: string[], io: ValidateIo): Promise<number> {
  guardStdout(io.stdout);
  const options = parseValidateArguments(args);
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
      // Opening the rejects file empties it: never when it is the input.
      if (options.input !== undefined ? await sameFile(options.input, options.rejects) : await readsFrom(io.stdin, options.rejects)) {
        const input = options.input === undefined ? 'the file standard input reads' : 'the input file';
        await write(io.stderr, `✘ --rejects ${options.rejects} is ${input}: writing it would erase the input\n${VALIDATE_USAGE}\n`);
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

    const reading: Reading = {
      inputName: options.input ?? 'standard input',
      validateOptions: { mode: options.mode },
      maxLineLength: options.maxLineLength,
      rejects,
      progress: io.stderr.isTTY === true ? io.stderr : undefined,
      interrupt: io.interrupt,
    };
    const { tally, interrupted, opening } = await check(input, reading);
    await rejects?.close();
    rejects = undefined;

    const summary = tally.summary();
    const hint = jsonLinesHint(opening, summary, options.input);
    await write(
      io.stdout,
      options.json ? `${JSON.stringify(hint === undefined ? summary : { ...summary, hint }, null, 2)}\n` : formatTable(summary, options.mode, { approximate: tally.issues.approximate, blank: tally.blank, hint }),
    );
    if (options.json && tally.issues.approximate) {
      await write(io.stderr, `note: more than ${ISSUE_TALLY_CAPACITY} distinct issue paths; topIssues counts are lower bounds\n`);
    }
    if (interrupted) {
      await write(io.stderr, `✘ interrupted: the summary counts the ${tally.physicalLines.toLocaleString('en-US')} line(s) read before it\n`);
      return INTERRUPTED_EXIT;
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

/** Whether `stream` reads the file `name` (standard input redirected from it): same device and inode. */
async function readsFrom(stream: NodeJS.ReadableStream, name: string): Promise<boolean> {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== 'number') return false;
  try {
    const [open, named] = [fstatSync(fd), await stat(name)];
    return open.dev === named.dev && open.ino === named.ino;
  } catch {
    return false;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lossy = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

interface Reading {
  inputName: string;
  validateOptions: ValidateOptions;
  maxLineLength: number;
  rejects: RejectsWriter | undefined;
  progress: NodeJS.WritableStream | undefined;
  interrupt: AbortSignal | undefined;
}

/** A line longer than the maximum: what the rejects file gets of it, and its length. */
function lineTooLong(kept: Buffer, bytes: number, max: number): { result: ValidationResult; raw: string } {
  const message = `line of ${bytes.toLocaleString('en-US')} bytes, longer than the maximum of ${max.toLocaleString('en-US')} (--max-line-length): not read as a message`;
  return {
    result: { ok: false, error: { code: 'malformed_message', message, issues: [{ path: '', code: 'line_too_long', message }] } },
    // An ASCII marker: one wider character would double the size of the whole text in memory.
    raw: `${utf8Lossy.decode(kept)} [cut: only the first ${kept.length.toLocaleString('en-US')} of ${bytes.toLocaleString('en-US')} bytes kept]`,
  };
}

/**
 * Reads the input chunk by chunk, checking each complete line as soon as it is there. A line
 * is held until its end only while it is at most `maxLineLength` bytes; past that, only its
 * first bytes are kept and the rest is counted as it streams by.
 */
async function check(input: NodeJS.ReadableStream, reading: Reading): Promise<{ tally: Tally; interrupted: boolean; opening: DocumentOpening | undefined }> {
  const { validateOptions, maxLineLength: max, rejects, progress, interrupt } = reading;
  const tally = new Tally(eventCatalog.map((event) => event.type));
  let lineNumber = 0;
  /** The start of the line being read, up to `max` bytes. */
  let carry: Buffer[] = [];
  let carried = 0;
  /** Bytes of the line being read, when it is longer than `max`. */
  let overlong = 0;
  /** Whether a line was counted yet, and what the first one opens (see `json-lines-hint.ts`). */
  let counted = false;
  let opening: DocumentOpening | undefined;
  const first = (text: string): void => {
    if (counted) return;
    counted = true;
    opening = documentOpening(text);
  };

  /** Counts every line's verdict; a rejected line also goes to the rejects file. */
  const record = (result: ValidationResult, raw: string): void => {
    tally.count(result);
    if (!result.ok && rejects) rejects.add({ line: lineNumber, error: result.error, raw });
  };

  const line = (bytes: Buffer): void => {
    lineNumber++;
    tally.physicalLines = lineNumber;
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
      result = decodeEvent(text, validateOptions);
    } catch {
      // Not UTF-8: decodeEvent says so from the bytes; the rejects file shows what could be read.
      text = utf8Lossy.decode(bytes);
      result = decodeEvent(bytes, validateOptions);
    }
    first(text);
    record(result, text);
  };

  const longLine = (): void => {
    lineNumber++;
    tally.physicalLines = lineNumber;
    const kept = Buffer.concat(carry);
    const { result, raw } = lineTooLong(kept, overlong, max);
    first(utf8Lossy.decode(kept.subarray(0, 64)));
    record(result, raw);
  };

  /** Adds part of the line being read; keeps no more than `max` bytes of it. */
  const add = (part: Buffer): void => {
    if (overlong > 0) overlong += part.length;
    else if (carried + part.length <= max) {
      carry.push(part);
      carried += part.length;
    } else {
      carry.push(part.subarray(0, max - carried));
      overlong = carried + part.length;
      carried = max;
    }
  };

  /** Ends the line being read. */
  const end = (): void => {
    if (overlong > 0) longLine();
    else line(carry.length === 1 ? carry[0]! : Buffer.concat(carry));
    carry = [];
    carried = 0;
    overlong = 0;
  };

  let interrupted = false;
  if (interrupt) {
    if (interrupt.aborted) return { tally, interrupted: true, opening };
    addAbortSignal(interrupt, input as NodeJS.ReadableStream & Readable);
  }
  try {
    for await (const chunk of input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
      let start = 0;
      for (let newline = bytes.indexOf(NEWLINE, start); newline !== -1; newline = bytes.indexOf(NEWLINE, start)) {
        if (carried === 0 && newline - start <= max) line(bytes.subarray(start, newline)); // the common case: a whole line in this chunk
        else {
          add(bytes.subarray(start, newline));
          end();
        }
        start = newline + 1;
      }
      if (start < bytes.length) add(start === 0 ? bytes : bytes.subarray(start));
      // What this chunk rejected is written before the next chunk is read.
      if (rejects) await rejects.flush();
    }
  } catch (error) {
    if (error instanceof IoFailure) throw error;
    if (!interrupt?.aborted) throw new IoFailure(`cannot read ${reading.inputName}: ${describe(error)}`);
    // Interrupted: the line being read is incomplete and not counted.
    interrupted = true;
  }
  if (!interrupted && (carried > 0 || overlong > 0)) end();
  if (progress && lineNumber >= PROGRESS_EVERY) progress.write(`\r${' '.repeat(40)}\r`);
  return { tally, interrupted, opening };
}
