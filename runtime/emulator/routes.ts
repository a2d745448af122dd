/**
 * Which operation a request is: the table of the 11 operations (`apiOperations`: method and
 * path template), each template a pattern of its own. No other routing.
 */
import { apiOperations, type OperationId } from '../rest/index.js';

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const TABLE = apiOperations.map((op) => {
  const names: string[] = [];
  const source = op.path
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name === undefined) return escape(part);
      names.push(name);
      return '([^/]+)';
    })
    .join('');
  return { ...op, names, pattern: new RegExp(`^${source}$`) };
});

export type RouteMatch =
  | { kind: 'operation'; operationId: OperationId; method: 'GET' | 'POST'; params: Record<string, string> }
  /** A path of an operation asked with another method: the methods it takes (`Allow`). */
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

/** The operation a method and path are (path parameters decoded), or why none is. */
export function matchOperation(method: string, path: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of TABLE) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    try {
      route.names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
    } catch {
      return { kind: 'none' }; // malformed percent-encoding names no path
    }
    return { kind: 'operation', operationId: route.operationId, method: route.method, params };
  }
  return allowed.length > 0 ? { kind: 'method', allowed } : { kind: 'none' };
}
