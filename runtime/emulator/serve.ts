/**
 * One request, start to end: its operation (the routes' table), the token, the body (at most
 * 1 MiB, JSON), a fault if one waits, `validateRequest`, the operation's handler, then
 * `validateResponse` on the answer (one that would break the contract becomes a 500 naming
 * it) and `validateEvent` on each event, before the events are logged and published and
 * the answer is sent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateEvent, type CatalogEvent } from '../index.js';
import { apiOperationDetails } from '../../generated/api/operations.js';
import { describeError } from '../internal/describe-error.js';
import { toValidationErrorBody, validateRequest, validateResponse, type OperationId } from '../rest/index.js';
import { errorBody, type Answer, type Reply } from './answer.js';
import { toDatetime } from './clock.js';
import { answerControl } from './control.js';
import type { Emulation } from './emulation.js';
import type { EventSink } from './event-sinks.js';
import { eventsOf } from './events.js';
import { OPERATION_HANDLERS } from './operations.js';
import { parseJson, readBody } from './read-body.js';
import { matchOperation } from './routes.js';

export interface ServeSettings {
  /** Only this token is accepted; any token when undefined. */
  token: string | undefined;
  concurrencyLimit: number | undefined;
  processingMs: number;
  onRequest: ((request: IncomingMessage) => void) | undefined;
}

export interface ServeContext {
  settings: ServeSettings;
  sink: EventSink | undefined;
  current(): Emulation;
  reset(): void;
}

export function send(response: ServerResponse, reply: Reply): void {
  const payload = reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  const headers: Record<string, string> = { ...reply.headers, 'content-length': String(Buffer.byteLength(payload)) };
  if (payload !== '' && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = reply.text !== undefined ? 'text/plain; charset=utf-8' : 'application/json';
  }
  response.writeHead(reply.status, headers).end(payload);
}

/**
 * The token of an `Authorization` header: `Token <token>` as the seed's request example
 * writes it, or the bare token, as its prose says.
 */
function tokenOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const scheme = /^Token +(\S+)$/i.exec(header);
  if (scheme) return scheme[1];
  return /^\S+$/.test(header) && header.toLowerCase() !== 'token' ? header : undefined;
}

function unauthorized(header: string | undefined): Reply {
  const body = header === undefined ? errorBody('Authentication credentials were not provided: send Authorization: Token <token>.', 'not_authenticated') : errorBody('Invalid token.', 'authentication_failed');
  return { status: 401, body, headers: { 'www-authenticate': 'Token' } };
}

/** The answer and events of a call whose body was read, before the contract checks. */
async function handleCall(context: ServeContext, emulation: Emulation, operationId: OperationId, params: Record<string, string>, rawQuery: string, bytes: Buffer | undefined, now: number): Promise<{ answer: Answer; events: CatalogEvent[] }> {
  const details = apiOperationDetails[operationId];
  const parsed = bytes === undefined ? { ok: true as const, value: undefined } : parseJson(bytes);
  if (!parsed.ok) return { answer: { reply: { status: 400, body: { detail: 'The request body could not be read.', code: 'parse_error', errors: [{ detail: parsed.reason, code: 'parse_error', attr: '' }] } } }, events: [] };
  // Query parameters an operation does not take are ignored; those it takes are checked.
  const query = details.query.length > 0 ? Object.fromEntries(new URLSearchParams(rawQuery)) : {};
  const checked = validateRequest(operationId, { params, ...(details.query.length > 0 && { query }), ...(details.request && { body: parsed.value }) });
  if (!checked.ok) return { answer: { reply: { status: 400, body: toValidationErrorBody(checked.error.issues) } }, events: [] };
  const { state } = emulation;
  const { concurrencyLimit, processingMs } = context.settings;
  const answer = await OPERATION_HANDLERS[operationId]({ params, query, body: parsed.value }, { state, now, concurrencyLimit, processingMs });
  return { answer, events: answer.outcome ? eventsOf(operationId, answer.outcome.name, answer.outcome.facts) : [] };
}

/** A call of one of the 11 operations: the answer sent, its events logged and published first. */
async function answerOperation(context: ServeContext, request: IncomingMessage, response: ServerResponse, operationId: OperationId, method: 'GET' | 'POST', params: Record<string, string>, rawQuery: string): Promise<void> {
  const emulation = context.current();
  const { coverage } = emulation;
  const reply = (answer: Reply, fault = false): void => {
    coverage.answer(operationId, answer.status, fault);
    send(response, answer);
  };
  const header = request.headers.authorization;
  const token = tokenOf(header);
  if (token === undefined || (context.settings.token !== undefined && token !== context.settings.token)) return reply(unauthorized(header));
  // A GET's body is not read: the operation takes none, and the contract names no 400 for it.
  const read = method === 'POST' ? await readBody(request) : undefined;
  if (read && !read.ok) return reply({ status: 413, body: errorBody('The request body is larger than 1 MiB.', 'payload_too_large'), headers: { connection: 'close' } });
  const now = emulation.clock.tick();
  const fault = emulation.faults.take(operationId);
  if (fault?.dropConnection) {
    coverage.drop(operationId);
    request.socket.destroy();
    return;
  }
  if (fault) return reply({ status: fault.status!, body: fault.body, ...(fault.headers && { headers: fault.headers }) }, true);

  const { answer, events } = await handleCall(context, emulation, operationId, params, rawQuery, read?.bytes, now);
  const verdict = validateResponse(operationId, answer.reply.status, answer.reply.text ?? answer.reply.body);
  const refused = events.map((event) => validateEvent(event, { mode: 'strict' })).find((result) => !result.ok);
  const violation = !verdict.ok ? `${operationId} answered ${answer.reply.status}, which breaks the contract: ${verdict.error.message}` : refused && !refused.ok ? `${operationId} emitted an invalid event: ${refused.error.message}` : undefined;
  if (violation) {
    coverage.violation(violation);
    return reply({ status: 500, body: errorBody(`emulator bug: ${violation}`, 'emulator_contract_violation') });
  }
  if (answer.transition) coverage.transition(answer.transition);
  if (answer.outcome) {
    coverage.outcome(operationId, answer.outcome.name, events);
    const time = toDatetime(now);
    for (const event of events) emulation.events.push({ sequence: emulation.events.length + 1, time, operationId, outcome: answer.outcome.name, event });
  }
  if (context.sink && events.length > 0) {
    try {
      await Promise.all(events.map((event) => context.sink!.publish(event)));
    } catch (error) {
      return reply({ status: 500, body: errorBody(`The emulator could not publish its event: ${describeError(error)}`, 'event_not_published') });
    }
  }
  reply(answer.reply);
}

/** Node's request listener: every request answered, whatever fails. */
export function createRequestListener(context: ServeContext): (request: IncomingMessage, response: ServerResponse) => void {
  const respond = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    context.settings.onRequest?.(request);
    const url = request.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const rawQuery = queryAt === -1 ? '' : url.slice(queryAt + 1);
    if (path === '/_emulator' || path.startsWith('/_emulator/')) return send(response, await answerControl({ emulation: context.current(), reset: context.reset }, request, path));
    const route = matchOperation(request.method ?? '', path);
    if (route.kind === 'none') return send(response, { status: 404, body: errorBody(`No operation at ${request.method ?? ''} ${path}.`, 'not_found') });
    if (route.kind === 'method') return send(response, { status: 405, body: errorBody(`${path} takes ${route.allowed.join(', ')}, not ${request.method ?? ''}.`, 'method_not_allowed'), headers: { allow: route.allowed.join(', ') } });
    return answerOperation(context, request, response, route.operationId, route.method, route.params, rawQuery);
  };
  return (request, response) => {
    respond(request, response).catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else send(response, { status: 500, body: errorBody(`emulator bug: ${describeError(error)}`, 'emulator_error') });
    });
  };
}
