import { formatPosition } from '../problems.js';
import type { DeclarationRule } from './catalog-rule.js';

const OPERATION_ID = { pattern: /^[a-z][A-Za-z0-9]*$/, text: 'lowerCamelCase letters and digits' };
const METHODS = ['GET', 'POST'];

/**
 * Operations: camelCase ids declared once; GET or POST; a path below `/v1/` whose `{name}`
 * templates are exactly the declared path parameters, in order; a request body on POST
 * only, defaults only on optional query parameters; three-digit statuses, each with a body
 * (JSON, text) or the seed's words saying it is not shown, and a retry rule on failures only.
 */
export const apiOperations: DeclarationRule = {
  name: 'api-operations',
  check(catalog, problems) {
    const first = new Map<string, (typeof catalog.operations)[number]>();
    const routes = new Map<string, (typeof catalog.operations)[number]>();
    for (const op of catalog.operations) {
      const what = `operation "${op.operationId}"`;
      if (!OPERATION_ID.pattern.test(op.operationId)) problems.error(op.position, `invalid operation id "${op.operationId}": use ${OPERATION_ID.text}`);
      const existing = first.get(op.operationId);
      if (existing) problems.error(op.position, `duplicate ${what} (first defined at ${formatPosition(existing.position)})`);
      else first.set(op.operationId, op);
      if (op.method && !METHODS.includes(op.method)) problems.error(op.methodPosition, `${what}: method must be one of ${METHODS.join(', ')}`);
      if (op.method === 'GET' && op.request) problems.error(op.methodPosition, `${what}: a GET has no request body`);
      if (op.method === 'POST' && !op.request) problems.error(op.methodPosition, `${what}: a POST needs a request body type ("request")`);
      if (op.path) {
        if (!/^\/v1\/[A-Za-z0-9_\-/{}]*$/.test(op.path)) problems.error(op.pathPosition, `${what}: path must start with /v1/ and hold only letters, digits, "-", "_", "/" and {parameters}`);
        const templates = [...op.path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);
        const params = op.params.map((p) => p.name);
        if (templates.join(',') !== params.join(',')) problems.error(op.pathPosition, `${what}: path parameters {${templates.join('}, {')}} must be the declared params (${params.join(', ') || 'none'}), in order`);
        const route = `${op.method} ${op.path}`;
        const sameRoute = routes.get(route);
        if (sameRoute) problems.error(op.pathPosition, `${what}: ${route} is already ${sameRoute.operationId}`);
        else routes.set(route, op);
      }
      for (const param of op.params) if (param.optional) problems.error(param.position, `${what}: path parameter "${param.name}" cannot be optional`);
      for (const field of [...op.params, ...op.query]) {
        if (field.default !== undefined && !(op.query.includes(field) && field.optional)) problems.error(field.position, `${what}: only optional query parameters take a default ("${field.name}")`);
      }
      for (const response of op.responses) {
        if (!/^[1-5][0-9][0-9]$/.test(response.status)) problems.error(response.position, `${what}: response status "${response.status}" must be a three-digit HTTP status`);
        if (response.json.length === 0 && response.text === undefined && response.notShown === undefined) {
          problems.error(response.position, `${what}: response ${response.status} needs a body (json, text) or the seed's words (not_shown)`);
        }
        if (response.retry && !/^[45]/.test(response.status)) problems.error(response.retry.position, `${what}: response ${response.status} is not a failure: only a 4xx or 5xx response has a retry rule`);
        if (response.notShown !== undefined && (response.json.length > 0 || response.text !== undefined)) {
          problems.error(response.position, `${what}: response ${response.status} is either shown (json, text) or not_shown, not both`);
        }
      }
    }
  },
};
