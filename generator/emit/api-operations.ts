import { codeBanner } from '../common/banner.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';

export const API_OPERATIONS_PATH = 'api/operations.ts';

/**
 * `api/operations.ts`: what the run time needs to know of each operation besides its
 * validators, as data: the public list (`apiOperations`: id, method, path, in seed order) and
 * each operation's parts (path and query parameter names, query defaults, whether it takes a
 * body, its statuses and which of them may be the seed's plain text), the events each
 * operation's outcomes publish (`apiOperationEvents`: an assumption, read by the emulator), and
 * the seed's retry rules (`apiRetryRules`, read by the REST client).
 */
export function emitApiOperations(model: CatalogModel): EmittedFile[] {
  const api = model.api;
  if (!api) return [];
  const list = api.operations.map((op) => ({ operationId: op.operationId, method: op.method, path: op.path }));
  const details = Object.fromEntries(
    api.operations.map((op) => [
      op.operationId,
      {
        params: op.params.map((p) => p.name),
        query: op.query.map((q) => ({ name: q.name, ...(q.default !== undefined && { default: q.default }) })),
        request: op.request !== undefined,
        responses: op.responses.map((r) => ({ status: r.status, ...(r.text !== undefined && { text: r.text }), ...(r.json !== undefined && { json: true }) })),
      },
    ]),
  );
  const events = Object.fromEntries(api.operations.filter((op) => op.emits.length > 0).map((op) => [op.operationId, Object.fromEntries(op.emits.map((e) => [e.outcome, e.events]))]));
  const retries = Object.fromEntries(
    api.operations.flatMap((op) => {
      const rules = op.responses.flatMap((r) => (r.retry ? [[r.status, r.retry] as const] : []));
      return rules.length > 0 ? [[op.operationId, Object.fromEntries(rules)]] : [];
    }),
  );
  const text = [
    codeBanner(api.sourceFiles),
    "import type { ApiStatus, OperationId } from './types.js';",
    '',
    '/** Every operation of the REST API, in seed order. */',
    `export const apiOperations: readonly { readonly operationId: OperationId; readonly method: 'GET' | 'POST'; readonly path: string }[] = ${JSON.stringify(list, null, 2)};`,
    '',
    'export interface ApiOperationDetails {',
    '  readonly params: readonly string[];',
    '  readonly query: readonly { readonly name: string; readonly default?: string | number | boolean }[];',
    '  readonly request: boolean;',
    '  /** In ascending order; `text` is a plain-text body the seed quotes, `json` a JSON body the seed shows. */',
    '  readonly responses: readonly { readonly status: number; readonly text?: string; readonly json?: boolean }[];',
    '}',
    '',
    '/** The parts of each operation, by operation id. */',
    `export const apiOperationDetails: Readonly<Record<OperationId, ApiOperationDetails>> = ${JSON.stringify(details, null, 2)};`,
    '',
    '/**',
    ' * The catalog events each operation publishes, by operation id and outcome. An assumption: the',
    ' * seeds do not say which operation emits which event (api/README.md, "Assumptions").',
    ' */',
    `export const apiOperationEvents = ${JSON.stringify(events, null, 2)} as const;`,
    '',
    '/** A rule of the seed on sending a request again after a response: whether a client does, and its words. */',
    'export interface ApiRetryRule {',
    '  readonly retried: boolean;',
    '  readonly seed: string;',
    '}',
    '',
    '/**',
    ' * The seed\'s retry rules, by operation id and status (the catalog\'s `retry`); a response with',
    ' * none is not retried. Typed by the operations\' statuses: a rule for a status the contract',
    ' * does not name does not compile.',
    ' */',
    `export const apiRetryRules: { readonly [Op in OperationId]?: { readonly [Status in ApiStatus<Op>]?: ApiRetryRule } } = ${JSON.stringify(retries, null, 2)};`,
    '',
  ].join('\n');
  return [{ path: API_OPERATIONS_PATH, contents: text }];
}
