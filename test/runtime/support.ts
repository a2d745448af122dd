/**
 * Shared by the runtime suites: the real catalog model (tests only: the runtime itself never
 * imports the generator), envelopes around sample payloads, and checks on results.
 */
import { expect } from 'vitest';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { formatProblem } from '../../generator/catalog/problems.js';
import type { CatalogModel, EventVersionModel } from '../../generator/model.js';
import type { EventError, ValidationResult } from '../../runtime/index.js';

const loaded = loadCatalogFromDisk('catalog');
if (!loaded.model) throw new Error(`catalog did not load:\n${loaded.errors.map(formatProblem).join('\n')}`);
export const model: CatalogModel = loaded.model;

export type Envelope = { type: string; version: string; payload: unknown; [key: string]: unknown };

export const envelope = (event: Pick<EventVersionModel, 'type' | 'version'>, payload: unknown): Envelope => ({
  type: event.type,
  version: event.version,
  payload,
});

export const ERROR_CODES: readonly EventError['code'][] = ['malformed_message', 'unknown_event_type', 'unknown_event_version', 'invalid_payload'];

/** RFC 6901: `''`, or `/`-separated tokens in which `~` is only ever `~0` or `~1`. */
export const JSON_POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/** Decodes a JSON Pointer into its reference tokens. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a JSON Pointer (own properties only), with whether it exists. */
export function resolvePointer(root: unknown, pointer: string): { found: boolean; value?: unknown } {
  let current: unknown = root;
  for (const token of pointerTokens(pointer)) {
    if (typeof current !== 'object' || current === null || !Object.prototype.hasOwnProperty.call(current, token)) return { found: false };
    current = (current as Record<string, unknown>)[token];
  }
  return { found: true, value: current };
}

/**
 * The shape every result must have, whatever the input: without reading the input (it may be
 * hostile). Returns a reason when the result is not well formed, else `undefined`.
 */
export function malformedResultReason(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return 'result is not an object';
  const r = result as Record<string, unknown>;
  if (r.ok === true) return 'event' in r ? undefined : 'ok result without event';
  if (r.ok !== false) return 'ok is not a boolean';
  const error = r.error as Record<string, unknown> | undefined;
  if (typeof error !== 'object' || error === null) return 'error result without error';
  if (!ERROR_CODES.includes(error.code as EventError['code'])) return `unknown error code ${String(error.code)}`;
  if (typeof error.message !== 'string' || error.message === '') return 'error without message';
  if (!Array.isArray(error.issues) || error.issues.length === 0) return 'error without issues';
  for (const issue of error.issues as unknown[]) {
    if (typeof issue !== 'object' || issue === null) return 'issue is not an object';
    const { path, code, message } = issue as Record<string, unknown>;
    if (typeof path !== 'string' || typeof code !== 'string' || typeof message !== 'string') return 'issue field is not a string';
    if (!JSON_POINTER.test(path)) return `issue path ${JSON.stringify(path)} is not a JSON Pointer`;
    if (code === '' || message === '') return 'empty issue code or message';
  }
  if (error.code === 'unknown_event_version') {
    if (!Array.isArray(error.knownVersions) || error.knownVersions.length === 0) return 'unknown_event_version without knownVersions';
  }
  if ((error.code === 'unknown_event_type' || error.code === 'unknown_event_version' || error.code === 'invalid_payload') && (typeof error.type !== 'string' || typeof error.version !== 'string')) {
    return `${String(error.code)} without type and version`;
  }
  return undefined;
}

/** Well formed; and when `input` is given, a valid result returns that very object. */
export function expectWellFormed(result: ValidationResult, ...input: [unknown?]): void {
  expect(malformedResultReason(result)).toBeUndefined();
  if (result.ok && input.length > 0) expect(result.event).toBe(input[0]);
}

export function expectValid(result: ValidationResult, label = ''): void {
  if (!result.ok) expect.fail(`${label} expected valid, got ${result.error.code}: ${result.error.message}`);
}

export function expectError(result: ValidationResult, code: EventError['code'], label = ''): EventError {
  if (result.ok) return expect.fail(`${label} expected ${code}, got a valid event`);
  expect(result.error.code, `${label}: ${result.error.message}`).toBe(code);
  return result.error;
}

/** A snapshot of an object's own properties (names, symbols and full descriptors). */
export function ownSnapshot(target: object): Map<string | symbol, PropertyDescriptor> {
  return new Map(Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)!]));
}

/** Differences between two snapshots, as readable lines (empty: unchanged). */
export function snapshotDiff(before: Map<string | symbol, PropertyDescriptor>, after: Map<string | symbol, PropertyDescriptor>): string[] {
  const diffs: string[] = [];
  for (const [key, d] of after) {
    const b = before.get(key);
    if (!b) {
      diffs.push(`added ${String(key)}`);
      continue;
    }
    for (const f of ['value', 'get', 'set', 'writable', 'enumerable', 'configurable'] as const) {
      if (!Object.is(b[f], d[f])) diffs.push(`changed ${String(key)}.${f}`);
    }
  }
  for (const key of before.keys()) if (!after.has(key)) diffs.push(`removed ${String(key)}`);
  return diffs;
}
