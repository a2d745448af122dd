/**
 * Stream replies as plain values, whichever protocol the connection speaks: RESP2 arrays,
 * RESP3 maps flattened to arrays (ioredis' default) or RESP3 maps as objects.
 */

/** One stream entry: its id and its fields, names and values kept as the bytes stored. */
export interface StreamEntry {
  id: string;
  /** Every field in order, as stored (a name may even repeat). */
  pairs: [Buffer, Buffer][];
}

const names = new Map<string, Buffer>();

/**
 * The value of the entry's first field named `name`, or `undefined`. An entry has a few fields:
 * a scan, comparing bytes, costs less than a map built per entry.
 */
export function fieldOf(entry: StreamEntry, name: string): Buffer | undefined {
  let wanted = names.get(name);
  if (wanted === undefined) names.set(name, (wanted = Buffer.from(name)));
  for (const [fieldName, value] of entry.pairs) if (fieldName.equals(wanted)) return value;
  return undefined;
}

const text = (value: unknown): string => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value));
const bytes = (value: unknown): Buffer => (Buffer.isBuffer(value) ? value : Buffer.from(String(value)));

/** `[id, [field, value, …]]` → a `StreamEntry`; `null` for an entry deleted while pending. */
export function toEntry(raw: unknown): StreamEntry | null {
  if (!Array.isArray(raw) || raw.length < 2) return null;
  const [id, flat] = raw as [unknown, unknown];
  const pairs: [Buffer, Buffer][] = [];
  if (Array.isArray(flat)) {
    for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([bytes(flat[i]), bytes(flat[i + 1])]);
  } else if (flat === null) {
    return null;
  }
  return { id: text(id), pairs };
}

export const toEntries = (raw: unknown): StreamEntry[] => (Array.isArray(raw) ? raw.map(toEntry).filter((e): e is StreamEntry => e !== null) : []);

/** The entries of the single stream an `XREADGROUP … STREAMS <stream> >` read. */
export function readGroupEntries(reply: unknown): StreamEntry[] {
  if (reply === null || reply === undefined) return [];
  if (Array.isArray(reply)) {
    if (reply.length === 0) return [];
    // RESP2: [[key, entries]]; RESP3 map flattened: [key, entries].
    return Array.isArray(reply[0]) ? toEntries((reply[0] as unknown[])[1]) : toEntries(reply[1]);
  }
  if (typeof reply === 'object') {
    const values = Object.values(reply as Record<string, unknown>);
    return toEntries(values[0]);
  }
  return [];
}

/** `XAUTOCLAIM` → the next cursor and the claimed entries (deleted ones left out). */
export function autoClaimReply(reply: unknown): { cursor: string; entries: StreamEntry[] } {
  const [cursor, entries] = Array.isArray(reply) ? (reply as [unknown, unknown]) : ['0-0', []];
  return { cursor: text(cursor), entries: toEntries(entries) };
}

/** The delivery count in an extended `XPENDING <key> <group> <id> <id> 1` reply, or 1 if absent. */
export function pendingDeliveries(reply: unknown): number {
  const first = Array.isArray(reply) ? (reply[0] as unknown) : undefined;
  const count = Array.isArray(first) ? Number(text(first[3])) : Number.NaN;
  return Number.isInteger(count) && count > 0 ? count : 1;
}

export { text as replyText };
