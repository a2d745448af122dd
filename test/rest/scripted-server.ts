/**
 * A node:http server on a loopback port that answers each request with the next answer of a
 * script, whatever the contract says (the contract test server keeps the contract; this one
 * breaks it on purpose), and keeps every request it received.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedAnswer {
  status: number;
  /** A JSON body, sent as `application/json`. */
  json?: unknown;
  /** A body sent as it is, with `contentType` (default `text/plain`). */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Close the connection without answering (a network error at the client). */
  drop?: true;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedServer {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Queue answers for the next requests, in order. */
  answer(...answers: ScriptedAnswer[]): void;
  /** Answers queued but not yet given. */
  unanswered(): number;
  /** Forget the requests and any answer not given. */
  reset(): void;
  close(): Promise<void>;
}

/** Status of a request that found no answer in the script: undocumented for every operation, so a test sees it. */
export const NO_ANSWER_STATUS = 599;

export async function startScriptedServer(): Promise<ScriptedServer> {
  let script: ScriptedAnswer[] = [];
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = script.shift() ?? { status: NO_ANSWER_STATUS, text: 'no answer scripted' };
      if (next.drop) {
        request.socket.destroy();
        return;
      }
      const body = next.json !== undefined ? JSON.stringify(next.json) : (next.text ?? '');
      const contentType = next.json !== undefined ? 'application/json' : (next.contentType ?? 'text/plain');
      response.writeHead(next.status, { 'content-type': contentType, ...next.headers });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    answer: (...answers) => void script.push(...answers),
    unanswered: () => script.length,
    reset() {
      script = [];
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
