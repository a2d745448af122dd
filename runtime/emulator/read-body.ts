/** A request's body, up to a limit: a larger one is refused as soon as it is known to be (its `Content-Length`, or the bytes read). */
import type { IncomingMessage } from 'node:http';
import { errorMessage } from '../internal/describe-error.js';

/** 1 MiB: the seed shows no maximum payload size; a body larger than this is answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Resolves as soon as the body is complete, or is known to be too large; a body too large is
 * left to flow on unread (Node discards it), so the client still reads the 413.
 */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<{ ok: true; bytes: Buffer } | { ok: false }> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ ok: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        request.off('data', onData).off('end', onEnd).off('error', reject);
        request.resume();
        resolve({ ok: false });
      }
    };
    const onEnd = (): void => resolve({ ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
    request.on('data', onData).once('end', onEnd).once('error', reject);
  });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as JSON (`undefined` when empty), or why it cannot be read. */
export function parseJson(bytes: Buffer): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (bytes.length === 0) return { ok: true, value: undefined };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'the body is not UTF-8 text' };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, reason: `the body is not JSON: ${errorMessage(error)}` };
  }
}
