import { codeBanner } from '../common/banner.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';

export const API_OPERATIONS_PATH = 'api/operations.ts';

/**
 * `api/operations.ts`: what the run time needs to know of each operation besides its
 * validators, as data: the public list (`apiOperations`: id, method, path, in seed order) and
 * each operation's parts (path and query parameter names, query defaults, whether it takes a
 * body, its statuses and which of them may be the seed's plain text), and the events each
 * operation's outcomes publish (`apiOperationEvents`: an assumption, read by the emulator).
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
  const text = [
    codeBanner(api.sourceFiles),
    "import type { OperationId } from './types.js';",
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
  ].join('\n');
  return [{ path: API_OPERATIONS_PATH, contents: text }];
}
