/**
 * The emulator's own endpoints under `/_emulator/` (not the service's, not in the OpenAPI
 * document): the events emitted, a reset, a supplier's status, faults to inject, coverage.
 * A table of five, like the operations'.
 */
import type { IncomingMessage } from 'node:http';
import { errorBody, type Reply } from './answer.js';
import type { Emulation } from './emulation.js';
import { readFaultRequest } from './faults.js';
import { parseJson, readBody } from './read-body.js';
import { supplierSettings, SuppliersError } from './suppliers.js';

export interface ControlContext {
  emulation: Emulation;
  reset(): void;
}

type ControlHandler = (context: ControlContext, request: IncomingMessage, match: RegExpExecArray) => Reply | Promise<Reply>;

const invalid = (detail: string, code: string, problems: readonly string[]): Reply => ({ status: 400, body: { detail, code, errors: problems.map((p) => ({ detail: p, code, attr: '' })) } });

/** The JSON body of a control request, or the reply refusing it. */
async function jsonBody(request: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; reply: Reply }> {
  const read = await readBody(request);
  if (!read.ok) return { ok: false, reply: { status: 413, body: errorBody('The request body is larger than 1 MiB.', 'payload_too_large'), headers: { connection: 'close' } } };
  const parsed = parseJson(read.bytes);
  return parsed.ok ? parsed : { ok: false, reply: invalid('The request body is not JSON.', 'parse_error', [parsed.reason]) };
}

const CONTROL: readonly { method: string; pattern: RegExp; handle: ControlHandler }[] = [
  { method: 'GET', pattern: /^\/_emulator\/events$/, handle: ({ emulation }) => ({ status: 200, body: emulation.events }) },
  {
    method: 'POST',
    pattern: /^\/_emulator\/reset$/,
    handle: ({ reset }) => {
      reset();
      return { status: 204 };
    },
  },
  {
    method: 'PUT',
    pattern: /^\/_emulator\/suppliers\/([^/]+)$/,
    handle: async ({ emulation }, request, match) => {
      let code: string;
      try {
        code = decodeURIComponent(match[1]!);
      } catch {
        return invalid('The supplier code is not valid percent-encoding.', 'invalid_supplier', [match[1]!]);
      }
      const body = await jsonBody(request);
      if (!body.ok) return body.reply;
      try {
        const settings = supplierSettings(code, body.value);
        emulation.state.suppliers.set(code, settings);
        return { status: 200, body: { code, ...settings } };
      } catch (error) {
        if (error instanceof SuppliersError) return invalid('The supplier settings are invalid.', 'invalid_supplier', error.problems);
        throw error;
      }
    },
  },
  {
    method: 'POST',
    pattern: /^\/_emulator\/faults$/,
    handle: async ({ emulation }, request) => {
      const body = await jsonBody(request);
      if (!body.ok) return body.reply;
      const read = readFaultRequest(body.value);
      if (!read.ok) return invalid('The fault is invalid.', 'invalid_fault', read.problems);
      return { status: 201, body: { operationId: read.fault.operationId, waiting: emulation.faults.add(read.fault) } };
    },
  },
  { method: 'GET', pattern: /^\/_emulator\/coverage$/, handle: ({ emulation }) => ({ status: 200, body: emulation.coverage.report() }) },
];

/** The reply to a request under `/_emulator/`: its handler's, 405 (with `Allow`) or 404. */
export async function answerControl(context: ControlContext, request: IncomingMessage, path: string): Promise<Reply> {
  const matches = CONTROL.map((route) => ({ route, match: route.pattern.exec(path) })).filter((m) => m.match !== null);
  const chosen = matches.find((m) => m.route.method === request.method);
  if (chosen) return chosen.route.handle(context, request, chosen.match!);
  if (matches.length > 0) return { status: 405, body: errorBody(`${path} takes ${matches.map((m) => m.route.method).join(', ')}.`, 'method_not_allowed'), headers: { allow: matches.map((m) => m.route.method).join(', ') } };
  return { status: 404, body: errorBody(`No emulator endpoint at ${path}: there are /_emulator/events, reset, suppliers/{code}, faults and coverage.`, 'not_found') };
}
