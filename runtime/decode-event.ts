import { clip } from './internal/echo.js';
import { locateJsonSyntaxError } from './internal/json-syntax.js';
import { rejection, type ValidateOptions, type ValidationResult } from './internal/result.js';
import { validateInMode } from './validate-event.js';
import { isStrict } from './internal/validate-options.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const malformed = (message: string, code: string): ValidationResult => rejection('malformed_message', message, { path: '', code, message });

/**
 * Decodes one message from JSON text or UTF-8 bytes (a leading byte-order mark is
 * accepted) and validates it. Never throws for a message (only for options that do not
 * exist): bad bytes or bad JSON are `malformed_message` with the position where the text
 * stops being JSON.
 */
export function decodeEvent(raw: string | Uint8Array, options?: ValidateOptions): ValidationResult {
  const strict = isStrict(options); // options that do not exist throw whatever the message is
  let text: string;
  if (typeof raw === 'string') {
    text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  } else if (ArrayBuffer.isView(raw) && raw instanceof Uint8Array) {
    // `isView` first: it reads no trap of a proxy, so a hostile one is simply not text.
    try {
      text = utf8.decode(raw);
    } catch {
      return malformed('message is not valid UTF-8', 'invalid_utf8');
    }
  } else {
    return malformed('decodeEvent takes a string or a Uint8Array', 'not_text');
  }

  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch (parseError) {
    const parserSays = parseError instanceof Error ? parseError.message : 'invalid JSON';
    try {
      const at = locateJsonSyntaxError(text);
      return malformed(`invalid JSON at line ${at.line}, column ${at.column} (offset ${at.offset}): expected ${at.expected}`, 'json_syntax');
    } catch {
      return malformed(`invalid JSON: ${clip(parserSays)}`, 'json_syntax');
    }
  }
  return validateInMode(message, strict);
}
