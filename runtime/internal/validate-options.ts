import { quote } from './echo.js';

/** `tolerant` accepts payload properties the catalog does not list; `strict` rejects them. */
export type ValidationMode = 'tolerant' | 'strict';

/** How to validate: the options every validating function takes. */
export interface ValidateOptions {
  /**
   * `tolerant` (default): payload properties the catalog does not list are allowed and kept.
   * `strict`: they are rejected (`additional_property`), except in open events.
   */
  mode?: ValidationMode;
}

/**
 * Whether `options` ask for strict mode. Options come from the program, not from a message:
 * options that do not exist (`{ mode: 'Strict' }`) are a programming error, so this throws a
 * `TypeError` naming the valid values rather than quietly validating in another mode.
 */
export function isStrict(options: ValidateOptions | undefined): boolean {
  if (options === undefined) return false;
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`validation options must be an object such as { mode: 'strict' }, got ${options === null ? 'null' : typeof options}`);
  }
  const mode: unknown = options.mode;
  if (mode === 'strict') return true;
  if (mode === undefined || mode === 'tolerant') return false;
  throw new TypeError(`unknown validation mode ${typeof mode === 'string' ? quote(mode) : typeof mode}: the mode is 'tolerant' (the default) or 'strict'`);
}
