/**
 * Import suppliers: their statuses and settings, and the `--suppliers FILE` that lists them
 * (JSON, or the small YAML shape below), every problem reported at once with its place.
 *
 * ```yaml
 * SUP:
 *   status: Ongoing          # Ongoing, Paused or Complete
 *   document_root: imports/sup
 *   automated_emails: false
 * OLD: { status: Complete }
 * ```
 */
import { errorMessage } from '../internal/describe-error.js';
import { isPlainObject } from '../internal/plain-object.js';

export const SUPPLIER_STATUSES = ['Ongoing', 'Paused', 'Complete'] as const;
export type SupplierStatus = (typeof SUPPLIER_STATUSES)[number];

/** A supplier as the seed describes it: a status set by the operator, a document root, whether customers get automated emails. */
export interface SupplierSettings {
  status: SupplierStatus;
  document_root?: string;
  automated_emails?: boolean;
}

const SETTING_KINDS = { status: 'string', document_root: 'string', automated_emails: 'boolean' } as const;

/** A value read from the file, and where it was (`file:line:col`, or `file` and a JSON Pointer). */
interface Located {
  value: unknown;
  at: string;
}

/** Problems with a suppliers file, or a supplier's settings: every one, each with its place. */
export class SuppliersError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'SuppliersError';
  }
}

/** One supplier's settings from a parsed value, or problems (pushed) naming where. */
function settingsOf(code: string, entries: ReadonlyMap<string, Located> | undefined, at: string, problems: string[]): SupplierSettings | undefined {
  if (!entries) {
    problems.push(`${at} supplier "${code}": its settings must be a mapping, e.g. { "status": "Ongoing" }`);
    return undefined;
  }
  const settings: Record<string, unknown> = {};
  for (const [key, { value, at: keyAt }] of entries) {
    const kind = Object.hasOwn(SETTING_KINDS, key) ? SETTING_KINDS[key as keyof typeof SETTING_KINDS] : undefined;
    if (!kind) problems.push(`${keyAt} supplier "${code}": unknown setting "${key}"; allowed: ${Object.keys(SETTING_KINDS).join(', ')}`);
    else if (typeof value !== kind) problems.push(`${keyAt} supplier "${code}": ${key} must be a ${kind}`);
    else if (key === 'status' && !(SUPPLIER_STATUSES as readonly unknown[]).includes(value)) problems.push(`${keyAt} supplier "${code}": status must be one of ${SUPPLIER_STATUSES.join(', ')}, not ${JSON.stringify(value)}`);
    else settings[key] = value;
  }
  if (!entries.has('status')) problems.push(`${at} supplier "${code}": missing "status" (${SUPPLIER_STATUSES.join(', ')})`);
  return settings.status === undefined ? undefined : (settings as unknown as SupplierSettings);
}

/** A supplier's settings sent as JSON (`PUT /_emulator/suppliers/{code}`), or the problems. */
export function supplierSettings(code: string, body: unknown): SupplierSettings {
  const problems: string[] = [];
  const entries = isPlainObject(body) ? new Map(Object.entries(body).map(([key, value]) => [key, { value, at: `/${key}` }])) : undefined;
  const settings = settingsOf(code, entries, '/', problems);
  if (problems.length > 0 || !settings) throw new SuppliersError(problems);
  return settings;
}

/** The suppliers of a `--suppliers` file, JSON or YAML, in the file's order. */
export function parseSuppliers(text: string, file: string): Map<string, SupplierSettings> {
  const problems: string[] = [];
  const suppliers = new Map<string, SupplierSettings>();
  const top = text.trimStart().startsWith('{') ? readJson(text, file, problems) : readYaml(text, file, problems);
  for (const [code, { entries, at }] of top) {
    const settings = settingsOf(code, entries, at, problems);
    if (settings) suppliers.set(code, settings);
  }
  if (problems.length === 0 && suppliers.size === 0) problems.push(`${file}: lists no supplier`);
  if (problems.length > 0) throw new SuppliersError(problems);
  return suppliers;
}

type TopLevel = Map<string, { entries: Map<string, Located> | undefined; at: string }>;

function readJson(text: string, file: string, problems: string[]): TopLevel {
  const top: TopLevel = new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    problems.push(`${file}: not valid JSON: ${errorMessage(error)}`);
    return top;
  }
  if (!isPlainObject(parsed)) problems.push(`${file}: must be an object of supplier codes`);
  else {
    for (const [code, settings] of Object.entries(parsed)) {
      const at = `${file} /${code}`;
      top.set(code, { at, entries: isPlainObject(settings) ? new Map(Object.entries(settings).map(([key, value]) => [key, { value, at: `${at}/${key}` }])) : undefined });
    }
  }
  return top;
}

/** A quoted or plain scalar at the start of `text`: its value and the rest of the text. */
function scalar(text: string): { value: string | boolean; rest: string } | undefined {
  if (text.startsWith('"')) {
    const end = /^"(?:[^"\\]|\\.)*"/.exec(text);
    return end ? { value: JSON.parse(end[0]) as string, rest: text.slice(end[0].length) } : undefined;
  }
  if (text.startsWith("'")) {
    const end = /^'(?:[^']|'')*'/.exec(text);
    return end ? { value: end[0].slice(1, -1).replace(/''/g, "'"), rest: text.slice(end[0].length) } : undefined;
  }
  // Up to a `: ` (or `:` at the end), a `,` or `}` of a flow mapping, or a ` #` comment.
  const plain = /^(?:[^,{}[\]#"'\s:]|:(?=[^\s,}]))(?:[^,{}:#]|:(?=[^\s,}])|(?<=\S)#)*/.exec(text);
  if (!plain) return undefined;
  const word = plain[0].trimEnd();
  return { value: word === 'true' ? true : word === 'false' ? false : word, rest: text.slice(plain[0].length) };
}

/** `{ key: value, … }` (one line, scalars only). */
function flowMap(text: string, at: (col: number) => string, col: number): Map<string, Located> | undefined {
  const entries = new Map<string, Located>();
  let rest = text.slice(1).trimStart();
  while (!rest.startsWith('}')) {
    const start = col + text.length - rest.length;
    const key = scalar(rest);
    if (!key || typeof key.value !== 'string' || !key.rest.trimStart().startsWith(':')) return undefined;
    const value = scalar(key.rest.trimStart().slice(1).trimStart());
    if (!value) return undefined;
    entries.set(key.value, { value: value.value, at: at(start) });
    rest = value.rest.trimStart();
    if (rest.startsWith(',')) rest = rest.slice(1).trimStart();
    else if (!rest.startsWith('}')) return undefined;
  }
  return rest.slice(1).trim() === '' || rest.slice(1).trimStart().startsWith('#') ? entries : undefined;
}

/**
 * The YAML this reader takes: supplier codes at the left margin, each followed by its
 * settings, indented one `key: value` per line, or on the same line as `{ key: value, … }`;
 * strings plain or quoted, `true` / `false`, comments. Anything else is a problem at its line
 * (use JSON for more).
 */
function readYaml(text: string, file: string, problems: string[]): TopLevel {
  const top: TopLevel = new Map();
  let current: { code: string; entries: Map<string, Located> | undefined; indent?: number } | undefined;
  const shape = `expected "CODE:" at the left margin, then indented "key: value" lines (or "CODE: { key: value }"); for anything else use JSON`;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const at = (col: number): string => `${file}:${line}:${col}`;
    if (/^\s*(#.*)?$/.test(raw) || (line === 1 && raw.trim() === '---')) return;
    const indent = /^ */.exec(raw)![0].length;
    if (raw[indent] === '\t') {
      problems.push(`${at(indent + 1)} indent with spaces, not tabs`);
      return;
    }
    const key = scalar(raw.slice(indent));
    const afterKey = key?.rest.trimStart();
    if (!key || typeof key.value !== 'string' || !afterKey?.startsWith(':')) {
      problems.push(`${at(indent + 1)} ${shape}`);
      return;
    }
    const valueText = afterKey.slice(1).trim();
    const valueCol = raw.length - afterKey.slice(1).trimStart().length + 1;
    if (indent === 0) {
      const entries = valueText.startsWith('{') ? flowMap(valueText, at, valueCol) : valueText === '' || valueText.startsWith('#') ? new Map<string, Located>() : undefined;
      if (valueText.startsWith('{') && !entries) problems.push(`${at(valueCol)} ${shape}`);
      current = { code: key.value, entries };
      if (top.has(key.value)) problems.push(`${at(1)} supplier "${key.value}" is listed twice`);
      top.set(key.value, { entries, at: at(1) });
      return;
    }
    if (!current?.entries || (current.indent !== undefined && indent !== current.indent)) {
      problems.push(`${at(indent + 1)} ${shape}`);
      return;
    }
    current.indent = indent;
    const value = scalar(valueText);
    if (!value || (value.rest.trim() !== '' && !value.rest.trimStart().startsWith('#'))) {
      problems.push(`${at(valueCol)} ${shape}`);
      return;
    }
    current.entries.set(key.value, { value: value.value, at: at(indent + 1) });
  });
  return top;
}
