/**
 * A synthetic catalog N times the size of the real one, for the generation benchmark:
 * `tsx scripts/bench/synthetic-catalog.ts --factor 10 --out /tmp/catalog-x10`.
 *
 * Copy 0 is the real catalog, file for file. Copies 1…N-1 repeat every file under new names,
 * so each copy is a complete, valid catalog of its own and nothing clashes:
 *
 * - event types get a first segment `synK.` (`syn3.account.created`);
 * - shared types get a suffix `_synK`, fragments `_SYNK`, and every field type, `extends`
 *   reference and gap reference is renamed the same way;
 * - sections get ` (copy K)`.
 *
 * So shared types, fragments, reuse (`extends`), open events and gaps all grow with N, as a
 * catalog that really had N times the events would.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse, stringify } from 'yaml';
import { ROOT } from './common.js';

type Yaml = Record<string, unknown>;

interface Renamer {
  event(type: string): string;
  shared(name: string): string;
  fragment(name: string): string;
}

const isMap = (value: unknown): value is Yaml => typeof value === 'object' && value !== null && !Array.isArray(value);

function renamer(copy: number, sharedNames: ReadonlySet<string>): Renamer {
  return {
    event: (type) => `syn${copy}.${type}`,
    shared: (name) => (sharedNames.has(name) ? `${name}_syn${copy}` : name),
    fragment: (name) => `${name}_SYN${copy}`,
  };
}

/** `T`, `T[]`, `T[][]`: rename the shared type at the base, if it is one. */
function renameTypeText(text: string, names: Renamer): string {
  const match = /^(.*?)((?:\[\])*)$/.exec(text.trim())!;
  return names.shared(match[1]!) + match[2]!;
}

function renameFields(fields: unknown, names: Renamer): unknown {
  if (!isMap(fields)) return fields;
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => {
      if (typeof value === 'string') return [key, renameTypeText(value, names)];
      if (isMap(value) && typeof value.type === 'string') return [key, { ...value, type: renameTypeText(value.type, names) }];
      return [key, value];
    }),
  );
}

/** `v1` (same event) stays; `type@version` renames the type; anything else is a fragment. */
function renameReference(ref: string, names: Renamer): string {
  if (/^v/.test(ref) && !ref.includes('@')) return ref;
  const at = ref.lastIndexOf('@');
  if (at > 0) return `${names.event(ref.slice(0, at))}${ref.slice(at)}`;
  return names.fragment(ref);
}

function renameExtends(value: unknown, names: Renamer): unknown {
  if (typeof value === 'string') return renameReference(value, names);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? renameReference(v, names) : v));
  return value;
}

function renamePayload(body: unknown, names: Renamer): unknown {
  if (!isMap(body)) return body;
  const out: Yaml = { ...body };
  if ('fields' in out) out.fields = renameFields(out.fields, names);
  if ('extends' in out) out.extends = renameExtends(out.extends, names);
  return out;
}

function copyFile(doc: Yaml, copy: number, names: Renamer): Yaml {
  const out: Yaml = {};
  for (const [key, value] of Object.entries(doc)) {
    switch (key) {
      case 'section':
        out.section = `${String(value)} (copy ${copy})`;
        break;
      case 'shared_types':
        out.shared_types = isMap(value) ? Object.fromEntries(Object.entries(value).map(([name, body]) => [names.shared(name), renamePayload(body, names)])) : value;
        break;
      case 'fragments':
        out.fragments = isMap(value) ? Object.fromEntries(Object.entries(value).map(([name, body]) => [names.fragment(name), renamePayload(body, names)])) : value;
        break;
      case 'events':
        out.events = isMap(value)
          ? Object.fromEntries(
              Object.entries(value).map(([type, versions]) => [
                names.event(type),
                isMap(versions) ? Object.fromEntries(Object.entries(versions).map(([v, body]) => [v, renamePayload(body, names)])) : versions,
              ]),
            )
          : value;
        break;
      case 'gaps':
        out.gaps = Array.isArray(value)
          ? value.map((gap: unknown) => {
              if (!isMap(gap)) return gap;
              const renamed: Yaml = { ...gap };
              for (const side of ['after', 'before']) if (typeof renamed[side] === 'string') renamed[side] = renameReference(renamed[side], names);
              if ('visible_fields' in renamed) renamed.visible_fields = renameFields(renamed.visible_fields, names);
              return renamed;
            })
          : value;
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}

/** Writes the synthetic catalog (`factor` ≥ 1 copies of `source`) into `out`; returns the number of files. */
export function writeSyntheticCatalog(out: string, factor: number, source = join(ROOT, 'catalog')): number {
  if (!Number.isInteger(factor) || factor < 1) throw new RangeError(`factor must be a whole number ≥ 1, got ${factor}`);
  const files = readdirSync(source)
    .filter((name) => name.endsWith('.yaml'))
    .sort();
  const docs = files.map((name) => ({ name, text: readFileSync(join(source, name), 'utf8') }));
  const parsed = docs.map((d) => ({ name: d.name, doc: parse(d.text) as Yaml }));
  const sharedNames = new Set(parsed.flatMap(({ doc }) => (isMap(doc.shared_types) ? Object.keys(doc.shared_types) : [])));
  mkdirSync(out, { recursive: true });
  let written = 0;
  for (const { name, text } of docs) {
    writeFileSync(join(out, name), text);
    written++;
  }
  // The REST API (catalog/api/) once, as in the real catalog: every copy has the same stages.
  if (existsSync(join(source, 'api'))) {
    cpSync(join(source, 'api'), join(out, 'api'), { recursive: true });
    written += readdirSync(join(source, 'api')).filter((name) => name.endsWith('.yaml')).length;
  }
  const width = String(factor - 1).length;
  for (let copy = 1; copy < factor; copy++) {
    const names = renamer(copy, sharedNames);
    for (const { name, doc } of parsed) {
      // "c" sorts after the digits the real files start with: copy 0 first, then copy 1, …
      writeFileSync(join(out, `c${String(copy).padStart(width, '0')}-${name}`), stringify(copyFile(doc, copy, names), { lineWidth: 0 }));
      written++;
    }
  }
  return written;
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const { values } = parseArgs({ options: { factor: { type: 'string', default: '10' }, out: { type: 'string' } } });
  if (!values.out) {
    console.error('usage: tsx scripts/bench/synthetic-catalog.ts --factor N --out <dir>');
    process.exitCode = 2;
  } else {
    const files = writeSyntheticCatalog(values.out, Number(values.factor));
    console.error(`✔ wrote ${files} catalog files (${values.factor}× the real catalog) to ${values.out}`);
  }
}
