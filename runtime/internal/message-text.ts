import { clip } from './echo.js';
import { locateJsonSyntaxError } from './json-syntax.js';
import { rejection, type EventError } from './result.js';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

const malformed = (message: string, code: string) => rejection('malformed_message', message, { path: '', code, message });

/**
 * A message read from JSON text or UTF-8 bytes (a leading byte-order mark is accepted), not
 * yet validated; or why it is not JSON: `malformed_message`, with the position where the text
 * stops being JSON. `decodeEvent` validates what it reads against the whole catalog; the
 * browsable catalog's event pages against one event.
 */
export function parseMessageText(raw: string | Uint8Array): { ok: true; message: unknown } | { ok: false; error: EventError } {
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

  try {
    return { ok: true, message: JSON.parse(text) };
  } catch (parseError) {
    const parserSays = parseError instanceof Error ? parseError.message : 'invalid JSON';
    try {
      const at = locateJsonSyntaxError(text);
      return malformed(`invalid JSON at line ${at.line}, column ${at.column} (offset ${at.offset}): expected ${at.expected}`, 'json_syntax');
    } catch {
      return malformed(`invalid JSON: ${clip(parserSays)}`, 'json_syntax');
    }
  }
}
