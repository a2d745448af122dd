import type { CompiledValidatorError } from './compiled-validator.js';
import type { EventIssue } from './result.js';

/** Issues on one line, for an error's `message`: `/payload/a missing required property "a"; …`. */
export const summarizeIssues = (issues: readonly EventIssue[]): string => issues.map((i) => `${i.path} ${i.message}`).join('; ');

/** RFC 6901 escaping of one reference token. */
export const pointerToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The unescaped reference tokens of a JSON Pointer: `/a~1b/0` → `['a/b', '0']`. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at a JSON Pointer below `root`, or `undefined`. */
function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const key of pointerTokens(pointer)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = Object.prototype.hasOwnProperty.call(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/** `string`, `integer`, `number`, `boolean`, `null`, `array`, `object`: the JSON type a reader would name. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : Number.isFinite(value) ? 'number' : 'non-finite number';
  return typeof value;
}

/**
 * Turns the validator's errors (paths relative to the payload) into issues with JSON
 * Pointers into the whole message. A missing or unexpected property is reported at its
 * own pointer, not at its parent's.
 */
export function toIssues(errors: readonly CompiledValidatorError[], payload: unknown, base = '/payload'): EventIssue[] {
  return errors.map((error): EventIssue => {
    const at = error.instancePath;
    switch (error.keyword) {
      case 'required': {
        const name = String(error.params.missingProperty);
        return { path: `${base}${at}/${pointerToken(name)}`, code: 'required', message: `missing required property "${name}"` };
      }
      case 'additionalProperties': {
        const name = String(error.params.additionalProperty);
        return { path: `${base}${at}/${pointerToken(name)}`, code: 'additional_property', message: `property "${name}" is not in the catalog (strict mode)` };
      }
      case 'type': {
        const expected = Array.isArray(error.params.type) ? error.params.type.join(' or ') : String(error.params.type);
        return { path: `${base}${at}`, code: 'type', message: `expected ${expected}, got ${jsonTypeOf(valueAt(payload, at))}` };
      }
      default:
        return { path: `${base}${at}`, code: error.keyword, message: error.message ?? `fails "${error.keyword}"` };
    }
  });
}
