import { parseMessageText } from './internal/message-text.js';
import type { ValidateOptions, ValidationResult } from './internal/result.js';
import { validateInMode } from './validate-event.js';
import { isStrict } from './internal/validate-options.js';

/**
 * Decodes one message from JSON text or UTF-8 bytes (a leading byte-order mark is
 * accepted) and validates it. Never throws for a message (only for options that do not
 * exist): bad bytes or bad JSON are `malformed_message` with the position where the text
 * stops being JSON.
 */
export function decodeEvent(raw: string | Uint8Array, options?: ValidateOptions): ValidationResult {
  const strict = isStrict(options); // options that do not exist throw whatever the message is
  const read = parseMessageText(raw);
  return read.ok ? validateInMode(read.message, strict) : read;
}
