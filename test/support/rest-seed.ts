/**
 * An independent reading of the seed REST API document (`000_e61b847d51d75aa2.txt`).
 *
 * Like `seed-catalog.ts` for the events, this parser reads the seed's markdown directly and
 * shares nothing with the YAML catalog or its loader, so the fidelity test compares two
 * readings made apart: a mistake would have to be made twice, the same way, to go unnoticed.
 *
 * What it reads, by pattern:
 *
 * - `### Heading`                                  the current section
 * - `| # | Method | Path | Request | Success |`    one endpoint per row (the endpoints table)
 * - `| Code | Where | Condition | Body |`          error statuses (the status codes table)
 * - `| Field | Type | … |` tables                  one field per row (`note.body` rows belong to
 *                                                  the item, the others to the request's top level)
 * - ``Label: `a` (type, …), `b` (type).``         prose field lists (line item, error object, …)
 * - ``Request top level: `a`, `b`, `c` (array).`` a request's top-level fields
 * - `N. Title: …` under "Endpoint rules"           the numbered rules, by title
 * - any clause ending in `not shown`               a gap, in the seed's words
 *
 * The only vocabulary it holds is how the status codes table's "Where" column names an
 * endpoint (`WHERE_TO_PATH`), since the seed never spells that out.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RestSeedEndpoint {
  number: number;
  method: string;
  /** The path as the seed writes it (`/v1/…/<import-supplier-code>/`). */
  path: string;
  request: string;
  success: string;
  /** Success statuses: from the row, or else from the endpoint rule that names it. */
  successStatuses: number[];
  line: number;
}

export interface RestSeedError {
  status: number;
  where: string;
  condition: string;
  body: string;
  /** Numbers (the endpoints table's #) of the endpoints this row applies to. */
  endpoints: number[];
  line: number;
}

export interface RestSeedField {
  name: string;
  /** `string`, `number`, `boolean`, `date`, `datetime`, `object`, `<Label>[]` … as the seed says it. */
  type: string;
  nullable: boolean;
  optional: boolean;
  /** Backticked values the seed says were seen (documented, never an enum). */
  seen: string[];
  /** The complete list of values, where the cell is nothing but that list. */
  values?: string[];
}

export interface RestSeedFieldList {
  /** The `###` heading it sits under. */
  section: string;
  /** `table`, `table items` (`note.*` rows), or the prose label (`Line item`, `Request top level`). */
  label: string;
  fields: RestSeedField[];
  /** Fields of which at least one is required (`at least one of \`a\` or \`b\``). */
  atLeastOneOf?: string[];
  line: number;
}

export interface RestSeed {
  endpoints: RestSeedEndpoint[];
  errors: RestSeedError[];
  fieldLists: RestSeedFieldList[];
  /** Every clause of the seed that says something is not shown, in its words. */
  notShown: { text: string; section: string; line: number }[];
  /** The dry-run 400's exact message text. */
  dryRunText: string;
  /** `Result statuses: …` of the transactions section. */
  transactionResultStatuses: string[];
}

const SEED_NAME = '000_e61b847d51d75aa2.txt';

/** Where to look: `$REST_API_SEED` if set, else `../shared/seeds/` beside the repository. */
export const REST_SEED_PATH = process.env.REST_API_SEED
  ? resolve(process.env.REST_API_SEED)
  : fileURLToPath(new URL(`../../../shared/seeds/${SEED_NAME}`, import.meta.url));

/** The seed's text, or why it cannot be read (a clone elsewhere has no seed beside it). */
export function readRestSeed(): { text: string } | { missing: string } {
  if (!existsSync(REST_SEED_PATH)) return { missing: `the seed ${SEED_NAME} is not at ${REST_SEED_PATH} (set REST_API_SEED to its path)` };
  return { text: readFileSync(REST_SEED_PATH, 'utf8') };
}

/** How the status codes table's "Where" names an endpoint: a word of its path. */
const WHERE_TO_PATH: Record<string, string> = {
  stage: '/create-or-update/',
  process: '/account-import-process/process/',
  notes: '/notes/',
  transactions: '/transactions/',
  'payment instruction': '/payment-instruction/',
  'status lookup': '/account-transfer-status/',
};

const cells = (line: string): string[] => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim());
const backticked = (text: string): string[] => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** A seed type phrase → the notation the test compares: `array of line item` → `line item[]`. */
function readType(raw: string): { type: string; nullable: boolean } {
  let text = raw.trim();
  const nullable = / or null$/.test(text);
  text = text.replace(/ or null$/, '');
  if (/^number in requests/.test(text)) text = 'number';
  const array = /^array of (.+)$/.exec(text);
  if (array) {
    const items = /^object `\{(\w+): (\w+)\}`$/.exec(array[1]!);
    return { type: items ? `{${items[1]}: ${items[2]}}[]` : `${readType(array[1]!).type}[]`, nullable };
  }
  return { type: text, nullable };
}

function fieldFrom(name: string, typeText: string, notes: string, allOptional: boolean): RestSeedField {
  // `(`A` or `B`)`: the values are the type, a string of one of them.
  if (/^(`[A-Z_]+`(, | or )?)+$/.test(typeText.trim())) [typeText, notes] = ['string', typeText];
  const { type, nullable } = readType(typeText);
  const optional = allOptional || /(^|; )optional\b/.test(notes) || /^accepted in requests/.test(notes) || /at least one of/.test(notes);
  const seen = /values? seen|example/.test(notes) ? backticked(notes.slice(notes.search(/values? seen|example/))) : [];
  const listOnly = /^(`[A-Z_]+`(, | or )?)+$/.test(notes.trim());
  return { name, type, nullable, optional, seen, ...(listOnly && { values: backticked(notes) }) };
}

/** `` `a` (string, value seen `X`), `b` (date) `` → fields; `` `a`, `b`, `c` (array) `` → names. */
function proseFields(text: string, allOptional: boolean): RestSeedField[] {
  const fields: RestSeedField[] = [];
  for (const match of text.matchAll(/`([a-z_]+)`(?: \(([^()]*(?:\([^()]*\))?[^()]*)\))?/g)) {
    const [typeText, ...rest] = (match[2] ?? 'unstated').split(/, (.*)/s);
    const notes = rest.join('');
    const parenthesised = /^\((.*)\)$/.exec(notes.trim());
    fields.push(fieldFrom(match[1]!, typeText!, parenthesised ? parenthesised[1]! : notes, allOptional));
  }
  return fields;
}

export function parseRestSeed(text: string): RestSeed {
  const lines = text.split('\n');
  const seed: RestSeed = { endpoints: [], errors: [], fieldLists: [], notShown: [], dryRunText: '', transactionResultStatuses: [] };
  const rules = new Map<string, string>();
  let section = '';
  let table: 'endpoints' | 'errors' | 'fields' | 'other' | undefined;
  let fieldTable: { table?: RestSeedFieldList; items?: RestSeedFieldList } = {};
  // A section whose required fields are not shown makes every field of its lists optional.
  const requiredNotShown = (s: string): boolean => lines.some((l, i) => /^Which .* fields are required.*: not shown\.$/.test(l) && sectionOf(i) === s);
  const sectionOf = (index: number): string => {
    for (let i = index; i >= 0; i--) if (lines[i]!.startsWith('### ') || lines[i]!.startsWith('## ')) return lines[i]!.replace(/^#+ /, '');
    return '';
  };

  lines.forEach((line, index) => {
    const lineNo = index + 1;
    if (/^#{2,3} /.test(line)) {
      section = line.replace(/^#+ /, '');
      table = undefined;
      return;
    }
    for (const clause of line.replace(/^- /, '').split(/(?<=\.) |; |\|/)) {
      if (/not shown\.?\s*$/.test(clause.trim())) seed.notShown.push({ text: clause.trim(), section, line: lineNo });
    }
    if (line.startsWith('|')) {
      const row = cells(line);
      if (row.every((c) => /^-+$/.test(c))) return;
      if (table === undefined) {
        table = row[0] === '#' ? 'endpoints' : row[0] === 'Code' ? 'errors' : row[0] === 'Field' && row[1] === 'Type' ? 'fields' : 'other';
        if (table === 'fields') fieldTable = { table: { section, label: 'table', fields: [], line: lineNo }, items: { section, label: 'table items', fields: [], line: lineNo } };
        return;
      }
      if (table === 'endpoints') {
        const [number, method, path, request, success] = row;
        seed.endpoints.push({ number: Number(number), method: method!, path: backticked(path!)[0]!, request: request!, success: success!, successStatuses: (success!.match(/\b[1-5]\d\d\b/g) ?? []).map(Number), line: lineNo });
      } else if (table === 'errors') {
        const [status, where, condition, body] = row;
        seed.errors.push({ status: Number(status), where: where!, condition: condition!, body: body!, endpoints: [], line: lineNo });
        if (/^message text: /.test(body!)) seed.dryRunText = body!.replace(/^message text: /, '');
      } else if (table === 'fields') {
        const [name, type, notes = ''] = row;
        const allOptional = requiredNotShown(section);
        const item = /^\w+\.(\w+)$/.exec(name!);
        const target = item ? fieldTable.items! : fieldTable.table!;
        target.fields.push(fieldFrom(item ? item[1]! : name!, type!, notes, allOptional));
        if (target.fields.length === 1) seed.fieldLists.push(target);
        // "at least one of `a` or `b` is required": both are optional, one at a time.
        const oneOf = /at least one of (`\w+`(?: or `\w+`)+)/.exec(notes);
        if (oneOf) target.atLeastOneOf = backticked(oneOf[1]!);
        for (const field of target.fields) if (target.atLeastOneOf?.includes(field.name)) field.optional = true;
      }
      return;
    }
    table = undefined;
    const rule = /^(\d+)\. ([A-Z][a-z]+(?: [a-z]+)*?)(?: query parameters)?(?: results| failure)?: (.*)$/.exec(line);
    if (rule && section === 'Endpoint rules' && !rules.has(rule[2]!)) rules.set(rule[2]!, rule[3]!);
    const topLevel = /^Request top level: (.*)$/.exec(line);
    if (topLevel) {
      seed.fieldLists.push({ section, label: 'Request top level', fields: proseFields(topLevel[1]!, false).map((f) => ({ ...f, type: f.type === 'array' ? 'array' : 'string' })), line: lineNo });
      return;
    }
    const results = /^Result statuses: (.*)$/.exec(line);
    if (results) seed.transactionResultStatuses = backticked(results[1]!.split('.')[0]!);
    const prose = /^(Line item|Tax item|Response item|Error object): (.*)$/.exec(line);
    if (prose) seed.fieldLists.push({ section, label: prose[1]!, fields: proseFields(prose[2]!, requiredNotShown(section) && prose[1] !== 'Response item'), line: lineNo });
  });

  const posts = seed.endpoints.filter((e) => e.method === 'POST').map((e) => e.number);
  for (const error of seed.errors) {
    if (error.where === 'all POST endpoints') error.endpoints = posts;
    else {
      const fragment = WHERE_TO_PATH[error.where];
      if (fragment === undefined) throw new Error(`rest-seed: line ${error.line}: no endpoint known for "${error.where}"`);
      error.endpoints = seed.endpoints.filter((e) => e.path.includes(fragment)).map((e) => e.number);
    }
  }
  // An endpoint row that names no status: the endpoint rule with its name says which.
  for (const endpoint of seed.endpoints.filter((e) => e.successStatuses.length === 0)) {
    for (const [title, body] of rules) {
      if (endpoint.path.includes(`/${title.toLowerCase().replace(/ /g, '-')}/`)) endpoint.successStatuses = (body.match(/\b[1-5]\d\d\b/g) ?? []).map(Number).sort();
    }
  }
  return seed;
}

/** `<import-supplier-code>` → `{import_supplier_code}`: the seed's path in OpenAPI's template form. */
export const templatePath = (seedPath: string): string => seedPath.replace(/<([a-z-]+)>/g, (_, name: string) => `{${name.replace(/-/g, '_')}}`);
