/**
 * An independent reading of the seed event catalog (`001_a55880cd876b04bd.txt`).
 *
 * This parser reads the seed's prose/markdown text directly. It deliberately shares nothing
 * with the YAML catalog or its loader, so the fidelity test can check the transcription
 * against the seed: a mistake would have to be made twice, the same way, to go unnoticed.
 *
 * What it reads, by pattern (nothing is keyed on a particular event name):
 *
 * - `### Heading`                                   the current section, for messages
 * - `| type | vN | fields |` table rows             one event version each
 * - `` - `Name`: fields `` bullets                  one shared object type each
 * - ``Shared types: `A` (fields); `B` (fields).``   shared object types written in prose
 * - `` `a`, `b` (both v1) carry: fields. ``         a prose family of events
 * - ``The events `prefix.` followed by `x`, `y` (all v1) carry: fields.``
 * - `... base fields (called NAME ...): fields.` and `The <word> base fields are fields.`
 *                                                   field lists reused by later rows
 * - any statement ending in `not shown`             an open event, or a gap
 *
 * Reuse phrases inside a table's Fields cell are the only hard-coded vocabulary (see
 * `resolveFieldSpec`): `vN fields plus …`, `NAME` / `NAME plus …` (BASE, JOIN),
 * `same base fields, with …`, `the fields above plus …`, `same fields as X`, `same as X`.
 *
 * Field types are normalised to the catalog notation of `catalog/README.md`:
 * `s`→`string`, `i`→`integer`, `n`→`number`, `b`→`boolean`, `o`→`object`,
 * `a[T]`→`T[]`; shared type names are kept as written; `(defined below)` is dropped.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** One field of a payload or shared type, its type in catalog notation (`string`, `Period[]`). */
export interface SeedField {
  name: string;
  optional: boolean;
  type: string;
}

export interface SeedEventVersion {
  type: string;
  version: string;
  /** Fully resolved field list; `null` where the seed shows no fields at all. */
  fields: SeedField[] | null;
  /** Whether the seed says some (or all) of this payload's fields are not shown. */
  open: boolean;
  /** The seed heading this event is listed under. */
  section: string;
  /** `table` for a table row, `prose` for a member of a prose-defined family. */
  source: 'table' | 'prose';
  /** 1-based line in the seed. */
  line: number;
}

export interface SeedSharedType {
  name: string;
  fields: SeedField[];
  section: string;
  line: number;
}

export type SeedGapKind = 'events_not_shown' | 'unnamed_event' | 'not_shown';

export interface SeedGap {
  kind: SeedGapKind;
  /** The seed's sentence (or table cell) saying what is not shown. */
  seed: string;
  /** For `not_shown`: what the topic is (the text before `: not shown`). */
  topic?: string;
  /** For `unnamed_event`: the properties the seed does show. */
  visibleFields?: SeedField[];
  section: string;
  line: number;
}

export interface SeedCatalog {
  /** Every event version, in seed order. */
  events: SeedEventVersion[];
  /** Distinct event types, in order of first appearance. */
  eventTypes: string[];
  /** Shared object types, in seed order. */
  sharedTypes: SeedSharedType[];
  gaps: SeedGap[];
  counts: SeedCounts;
}

/** The same shape as the generator's catalog summary, so the two compare directly. */
export interface SeedCounts {
  eventTypes: number;
  eventVersions: number;
  sharedTypes: number;
  openEvents: number;
  gaps: number;
}

const SEED_NAME = '001_a55880cd876b04bd.txt';

/** Where to look for the seed: `$EVENT_CATALOG_SEED` if set, else `../shared/seeds/` beside the repository. */
export const SEED_PATH = process.env.EVENT_CATALOG_SEED
  ? resolve(process.env.EVENT_CATALOG_SEED)
  : fileURLToPath(new URL(`../../../shared/seeds/${SEED_NAME}`, import.meta.url));

/**
 * The seed's text, or why it cannot be read. The seed sits beside the repository, not in
 * it, so a clone elsewhere has none: the fidelity check then cannot run, and says so.
 */
export function readSeed(): { text: string } | { missing: string } {
  if (!existsSync(SEED_PATH)) {
    return { missing: `the seed ${SEED_NAME} is not at ${SEED_PATH} (set EVENT_CATALOG_SEED to its path)` };
  }
  return { text: readFileSync(SEED_PATH, 'utf8') };
}

// ---------------------------------------------------------------------------------------
// Fields and types
// ---------------------------------------------------------------------------------------

const PRIMITIVES: Record<string, string> = {
  s: 'string',
  i: 'integer',
  n: 'number',
  b: 'boolean',
  o: 'object',
};

/** Seed type → catalog notation: `a[a[i]]` → `integer[][]`, `Period` → `Period`. */
export function normaliseType(raw: string): string {
  const text = raw.replace(/\s*\(defined below\)\s*$/, '').trim();
  const primitive = PRIMITIVES[text];
  if (primitive !== undefined) return primitive;
  const array = /^a\[(.+)\]$/.exec(text);
  if (array) return `${normaliseType(array[1]!)}[]`;
  // Anything else must be a shared object type's full name.
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(text)) return text;
  throw new Error(`seed-catalog: cannot read type "${raw}"`);
}

/** `name?:a[s]` → `{ name, optional: true, type: 'string[]' }`. */
function parseField(raw: string): SeedField {
  const match = /^([a-z0-9_]+)(\?)?:(.+)$/.exec(raw.trim());
  if (!match) throw new Error(`seed-catalog: cannot read field "${raw}"`);
  return { name: match[1]!, optional: match[2] === '?', type: normaliseType(match[3]!) };
}

/**
 * A comma-separated field list. Types never contain commas (`a[T]` has one element type),
 * so a plain split is safe. A trailing full stop (prose sentences) is dropped.
 */
export function parseFieldList(raw: string): SeedField[] {
  const text = raw.trim().replace(/\.$/, '');
  if (text === '') return [];
  return text.split(',').map(parseField);
}

// ---------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------

/** A table row before its reuse phrases are resolved. */
interface RawRow {
  type: string;
  version: string;
  /** The field-list part of the cell (may be a reuse phrase); `null` if none is shown. */
  spec: string | null;
  open: boolean;
  section: string;
  line: number;
  /** Fields of the nearest prose family above this row, for "the fields above". */
  fieldsAbove: SeedField[] | null;
}

/** A named, reusable field list (BASE, JOIN, the deposit base fields). */
interface Fragment {
  fields: SeedField[];
  section: string;
}

type Pending =
  | { kind: 'row'; row: RawRow }
  | { kind: 'prose'; event: SeedEventVersion };

export function parseSeedCatalog(text: string): SeedCatalog {
  const lines = text.split(/\r?\n/);
  const pending: Pending[] = [];
  const sharedTypes: SeedSharedType[] = [];
  const gaps: SeedGap[] = [];
  const fragments = new Map<string, Fragment>();
  let section = '';
  let fieldsAbove: SeedField[] | null = null;

  lines.forEach((rawLine, index) => {
    const line = rawLine.trim();
    const lineNo = index + 1;
    if (line === '') return;

    // Section heading. "The fields above" never reaches across a heading.
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      section = heading[1]!.trim();
      fieldsAbove = null;
      return;
    }

    // Table row: | event type | version | fields |. Header and separator rows fail the
    // version pattern and are skipped.
    const row = /^\|\s*([^|]+?)\s*\|\s*(v[A-Za-z0-9-]*)\s*\|\s*(.*?)\s*\|$/.exec(line);
    if (row) {
      const [, type, version, cell] = row as unknown as [string, string, string, string];
      // The cell is `field list` or `field list; note` or just `note`; a note is a
      // `…: not shown` clause. Notes about fields/properties make the event open; a note
      // about events (the rows that follow) is also a gap.
      const parts = cell.split(';').map((part) => part.trim());
      const notes = parts.filter((part) => /not shown/.test(part));
      const specs = parts.filter((part) => !/not shown/.test(part));
      if (specs.length > 1) throw new Error(`seed-catalog: line ${lineNo}: two field lists in one cell`);
      const open = notes.some((note) => /\b(fields|properties)\b/.test(note));
      for (const note of notes) {
        if (/\bevents\b/.test(note)) gaps.push({ kind: 'events_not_shown', seed: note, section, line: lineNo });
      }
      pending.push({
        kind: 'row',
        row: { type, version, spec: specs[0] ?? null, open, section, line: lineNo, fieldsAbove },
      });
      return;
    }

    // Shared type bullet: - `Name`: fields
    const bullet = /^-\s+`([^`]+)`:\s*(.*)$/.exec(line);
    if (bullet) {
      sharedTypes.push({ name: bullet[1]!, fields: parseFieldList(bullet[2]!), section, line: lineNo });
      return;
    }

    // Shared types in prose: Shared types: `A` (fields); `B` (fields).
    if (/^Shared types:/.test(line)) {
      for (const match of line.matchAll(/`([^`]+)`\s*\(([^)]*)\)/g)) {
        sharedTypes.push({ name: match[1]!, fields: parseFieldList(match[2]!), section, line: lineNo });
      }
      return;
    }

    // Prose family, prefixed form: The events `prefix.` followed by `a`, `b` (all v1) carry: …
    const prefixed = /^The events `([^`]+)` followed by (.+?) \((?:both|all) (v[A-Za-z0-9-]*)\) carry:\s*(.+)$/.exec(line);
    // Prose family, listed form: `a`, `b` (both v1) carry: …
    const listed = /^((?:`[^`]+`(?:,\s*|\s+and\s+)?)+)\s*\((?:both|all) (v[A-Za-z0-9-]*)\) carry:\s*(.+)$/.exec(line);
    if (prefixed || listed) {
      const [prefix, names, version, fieldText] = prefixed
        ? [prefixed[1]!, prefixed[2]!, prefixed[3]!, prefixed[4]!]
        : ['', listed![1]!, listed![2]!, listed![3]!];
      const fields = parseFieldList(fieldText);
      for (const match of names.matchAll(/`([^`]+)`/g)) {
        pending.push({
          kind: 'prose',
          event: {
            type: prefix + match[1]!,
            version,
            fields: fields.map((f) => ({ ...f })),
            open: false,
            section,
            source: 'prose',
            line: lineNo,
          },
        });
      }
      fieldsAbove = fields;
      return;
    }

    // Named fragment: Conversation base fields (called BASE below): fields.
    const called = /^.*\bbase fields \(called ([A-Z][A-Z0-9_]*)(?: below)?\):\s*(.+)$/.exec(line);
    if (called) {
      fragments.set(called[1]!, { fields: parseFieldList(called[2]!), section });
      return;
    }
    // Unnamed fragment: The deposit base fields are fields.
    const baseAre = /^The (\w+) base fields are\s+(.+)$/.exec(line);
    if (baseAre) {
      fragments.set(`${baseAre[1]!} base`, { fields: parseFieldList(baseAre[2]!), section });
      return;
    }

    // Any other statement that something is not shown is a gap.
    if (/not shown\.?$/.test(line)) {
      const statement = line.replace(/^-\s+/, '');
      if (/^-\s/.test(line)) {
        // A conventions bullet: a whole topic the seed does not show.
        const topic = statement.replace(/:\s*not shown\.?$/, '');
        gaps.push({ kind: 'not_shown', topic, seed: statement, section, line: lineNo });
      } else if (/^Events\b/.test(statement)) {
        gaps.push({ kind: 'events_not_shown', seed: statement, section, line: lineNo });
        // "… and the event whose visible properties are x:s and y:s, and the name … of that
        // event: not shown": an event whose name is not shown.
        const unnamed = /the event whose visible properties are (.+?), and the name/.exec(statement);
        if (unnamed) {
          const visibleFields = unnamed[1]!.split(/,\s*|\s+and\s+/).map(parseField);
          gaps.push({ kind: 'unnamed_event', seed: statement, visibleFields, section, line: lineNo });
        }
      } else {
        throw new Error(`seed-catalog: line ${lineNo}: unrecognised "not shown" statement`);
      }
    }
  });

  // Second pass, in seed order: resolve reuse phrases. Fragments may be defined after the
  // rows that use them (the deposit base fields are), hence two passes.
  const events: SeedEventVersion[] = [];
  for (const item of pending) {
    if (item.kind === 'prose') {
      events.push(item.event);
      continue;
    }
    const { row } = item;
    events.push({
      type: row.type,
      version: row.version,
      fields: row.spec === null ? null : resolveFieldSpec(row, events, fragments),
      open: row.open,
      section: row.section,
      source: 'table',
      line: row.line,
    });
  }

  checkUnique(events.map((e) => `${e.type}@${e.version}`), 'event version');
  checkUnique(sharedTypes.map((t) => t.name), 'shared type');
  for (const event of events) {
    checkUnique((event.fields ?? []).map((f) => f.name), `field of ${event.type}@${event.version}`);
  }

  const eventTypes = [...new Set(events.map((e) => e.type))];
  return {
    events,
    eventTypes,
    sharedTypes,
    gaps,
    counts: {
      eventTypes: eventTypes.length,
      eventVersions: events.length,
      sharedTypes: sharedTypes.length,
      openEvents: events.filter((e) => e.open).length,
      gaps: gaps.length,
    },
  };
}

/**
 * A Fields cell → its full field list. The reuse phrases are the seed's handful of
 * shorthands; each is resolved to the list it points at, followed by the row's own fields.
 */
function resolveFieldSpec(row: RawRow, earlier: SeedEventVersion[], fragments: Map<string, Fragment>): SeedField[] {
  const where = `line ${row.line} (${row.type} ${row.version})`;
  const copy = (fields: SeedField[]): SeedField[] => fields.map((f) => ({ ...f }));
  let match: RegExpExecArray | null;

  // "v1 fields plus x:i": another version of the same event type, listed earlier.
  if ((match = /^(v[A-Za-z0-9-]*) fields plus (.+)$/.exec(row.spec!))) {
    const base = earlier.find((e) => e.type === row.type && e.version === match![1]);
    if (!base?.fields) throw new Error(`seed-catalog: ${where}: no earlier ${match[1]} to extend`);
    return [...copy(base.fields), ...parseFieldList(match[2]!)];
  }

  // "BASE", "BASE plus x:s", "JOIN", "JOIN plus …": a named fragment.
  if ((match = /^([A-Z][A-Z0-9_]*)(?: plus (.+))?$/.exec(row.spec!))) {
    const fragment = fragments.get(match[1]!);
    if (!fragment) throw new Error(`seed-catalog: ${where}: no fragment ${match[1]}`);
    return [...copy(fragment.fields), ...parseFieldList(match[2] ?? '')];
  }

  // "same base fields, with x:s": the "<word> base fields" paragraph of the same section.
  if ((match = /^same base fields, with (.+)$/.exec(row.spec!))) {
    const candidates = [...fragments.entries()].filter(
      ([name, fragment]) => name.endsWith(' base') && fragment.section === row.section,
    );
    if (candidates.length !== 1) throw new Error(`seed-catalog: ${where}: ${candidates.length} base-field paragraphs`);
    return [...copy(candidates[0]![1].fields), ...parseFieldList(match[1]!)];
  }

  // "the fields above plus x:o": the prose family written just above the table.
  if ((match = /^the fields above plus (.+)$/.exec(row.spec!))) {
    if (!row.fieldsAbove) throw new Error(`seed-catalog: ${where}: no field list above`);
    return [...copy(row.fieldsAbove), ...parseFieldList(match[1]!)];
  }

  // "same fields as creation.started", "same as phishing-report-dismissed": an earlier event
  // named by the tail of its type (the one event type ending in `.<tail>`).
  if ((match = /^same (?:fields )?as (\S+)$/.exec(row.spec!))) {
    const tail = match[1]!;
    const targets = earlier.filter((e) => e.type === tail || e.type.endsWith(`.${tail}`));
    const types = new Set(targets.map((e) => e.type));
    if (types.size !== 1 || targets.length !== 1 || !targets[0]!.fields) {
      throw new Error(`seed-catalog: ${where}: "${tail}" does not name exactly one earlier event version`);
    }
    return copy(targets[0]!.fields);
  }

  // Otherwise: a plain field list.
  return parseFieldList(row.spec!);
}

function checkUnique(names: string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new Error(`seed-catalog: duplicate ${what} "${name}"`);
    seen.add(name);
  }
}

/** `name?: type` lines, handy for readable diffs. */
export function renderFields(fields: SeedField[]): string[] {
  return fields.map((f) => `${f.name}${f.optional ? '?' : ''}: ${f.type}`);
}
