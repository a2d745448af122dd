import { DEAD_LETTER_FIELDS } from './dead-letter-fields.js';

/** A field name or value in `original_fields`: its text when it is UTF-8, else its bytes in base64. */
type EncodedBytes = string | { base64: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

function encode(bytes: Buffer): EncodedBytes {
  try {
    return utf8.decode(bytes);
  } catch {
    return { base64: bytes.toString('base64') };
  }
}

function decode(value: unknown): Buffer | undefined {
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  if (typeof value === 'object' && value !== null && typeof (value as { base64?: unknown }).base64 === 'string') return Buffer.from((value as { base64: string }).base64, 'base64');
  return undefined;
}

/**
 * `original_fields` of a dead letter: every pair of the original entry, in order; the first
 * `message` field's value is `null` (it travels as the dead letter's own `message` field).
 */
export function encodeOriginalFields(pairs: readonly [Buffer, Buffer][]): string {
  let messageSeen = false;
  return JSON.stringify(
    pairs.map(([name, value]) => {
      if (!messageSeen && name.toString('utf8') === DEAD_LETTER_FIELDS.message) {
        messageSeen = true;
        return [encode(name), null];
      }
      return [encode(name), encode(value)];
    }),
  );
}

/**
 * The original entry's fields, flat (`name, value, …`) and byte for byte, from a dead letter's
 * `original_fields` and `message`; `undefined` when `original_fields` cannot be read.
 */
export function decodeOriginalFields(json: string, message: Buffer): Buffer[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const flat: Buffer[] = [];
  for (const pair of parsed) {
    if (!Array.isArray(pair) || pair.length !== 2) return undefined;
    const name = decode(pair[0]);
    const value = pair[1] === null ? message : decode(pair[1]);
    if (name === undefined || value === undefined) return undefined;
    flat.push(name, value);
  }
  return flat;
}
