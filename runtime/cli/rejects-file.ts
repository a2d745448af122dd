/** The rejects file of `validate`: one JSON line per rejected input line, written with back-pressure. */
import { once } from 'node:events';
import type { FileHandle } from 'node:fs/promises';
import type { EventError } from '../index.js';
import { errorMessage } from '../internal/describe-error.js';

/** One line of the rejects file. */
export interface RejectedLine {
  line: number;
  error: EventError;
  raw: string;
}

/** A rejected line longer than this is written to the rejects file in slices of this many characters. */
const RAW_SLICE = 1 << 20;

/** Thrown for an input that cannot be read or a rejects file that cannot be written: exit 2. */
export class IoFailure extends Error {}

/** Writes to a file with back-pressure; any write error becomes an `IoFailure`. */
export class RejectsWriter {
  private readonly stream: NodeJS.WritableStream;
  private failure: Error | undefined;
  private readonly failed: Promise<never>;
  private buffer = '';
  /** Whether the file fell behind since the last flush. */
  private behind = false;

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
    const { raw } = rejected;
    if (raw.length <= RAW_SLICE) {
      this.buffer += `${JSON.stringify(rejected)}\n`;
      return;
    }
    // A long line, escaped as JSON, can be six times its length: it is escaped and handed to
    // the file slice by slice, so no more than one slice is ever held escaped. (A surrogate
    // pair cut between two slices is written as two escapes, which JSON reads back as the pair.)
    this.write(this.buffer);
    this.buffer = '';
    const head = JSON.stringify({ line: rejected.line, error: rejected.error });
    this.write(`${head.slice(0, -1)},"raw":"`);
    for (let at = 0; at < raw.length; at += RAW_SLICE) this.write(JSON.stringify(raw.slice(at, at + RAW_SLICE)).slice(1, -1));
    this.write('"}\n');
  }

  /** Hands what was added to the file; waits while the file is behind. */
  async flush(): Promise<void> {
    if (this.failure) await this.failed;
    this.write(this.buffer);
    this.buffer = '';
    if (!this.behind) return;
    this.behind = false;
    await Promise.race([once(this.stream, 'drain'), this.failed]);
  }

  private write(text: string): void {
    if (text.length > 0 && !this.stream.write(text)) this.behind = true;
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

/** An I/O error in plain words. */
export const describe = (error: unknown): string => {
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
      return errorMessage(error);
  }
};
