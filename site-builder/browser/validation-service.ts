/// <reference lib="dom" />
/**
 * The validating side of a validator box: given a check (an event's entry, or the whole
 * catalog's `decodeEvent`), answers `{ id, text | file, strict }` with the verdict and the line
 * of each issue. A file is read here, so its text never passes through the page. In a Web
 * Worker it answers messages; on a page (where workers cannot start, as from `file://`) it
 * offers the same answer as `window.catalogCheck`.
 */
import { linesOfPointers } from './json-lines.js';

export interface CheckRequest {
  id: number;
  /** The message's text, or a file holding it. */
  text?: string;
  file?: Blob;
  strict: boolean;
}

export interface Issue {
  path: string;
  code: string;
  message: string;
}

export type Verdict = { ok: true; event: { type: string; version: string } } | { ok: false; error: { code: string; message: string; type?: string; version?: string; issues: Issue[] } };

export interface CheckAnswer {
  id: number;
  verdict: Verdict;
  /** The line each issue is on (1-based), in the order of `issues`; for JSON that does not parse, the line where it stops. */
  lines: (number | undefined)[];
}

export type Check = (text: string, strict: boolean) => Verdict;

declare global {
  interface Window {
    catalogCheck?: (request: CheckRequest) => Promise<CheckAnswer>;
  }
}

async function answer(check: Check, request: CheckRequest): Promise<CheckAnswer> {
  const text = request.file ? await request.file.text() : (request.text ?? '');
  const verdict = check(text, request.strict);
  if (verdict.ok) return { id: request.id, verdict, lines: [] };
  const located = linesOfPointers(text, verdict.error.issues.map((issue) => issue.path));
  const lines = located.ok ? located.lines : verdict.error.issues.map(() => located.errorLine);
  return { id: request.id, verdict, lines };
}

/** What this script needs of a worker's global scope. */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<CheckRequest>) => void): void;
  postMessage(message: CheckAnswer): void;
}

export function serveValidation(check: Check): void {
  if ('WorkerGlobalScope' in globalThis) {
    const worker = globalThis as unknown as WorkerScope;
    worker.addEventListener('message', (event) => void answer(check, event.data).then((reply) => worker.postMessage(reply)));
  } else {
    window.catalogCheck = (request) => answer(check, request);
  }
}
