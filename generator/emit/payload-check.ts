import type { JsonSchema } from './schema-for.js';
import { unescapeToken } from '../../runtime/contract/json-pointer.js';
import { isPayloadKeyword } from '../../runtime/contract/payload-keywords.js';

/**
 * A payload schema as one plain boolean function: `true` exactly when ajv (the generator's
 * options, see `validatorAjvOptions`) would accept the payload (and, with `plainObject`, the
 * payload is an object as `JSON.parse` makes it), and nothing else. No error
 * objects, no options argument, no `evaluated`/`dynamicAnchors` bookkeeping: this is the
 * code every message runs; only a rejected payload runs ajv's validator for its errors.
 *
 * It mirrors ajv's own checks keyword by keyword (type tests accepting what ajv's accept, `=== undefined` for a
 * missing property, `for…in` for unlisted ones). It knows the keywords of
 * `runtime/contract/payload-keywords.ts` (the list the runtime's search of a rejected payload
 * knows too) and fails generation on any other, so a new keyword cannot be silently ignored.
 * `test/generator/payload-check.test.ts` holds it to ajv's verdicts.
 */
export function payloadCheckCode(name: string, root: JsonSchema, options: { plainObject?: boolean } = {}): string {
  return new CheckWriter(name, root).write(options.plainObject === true ? PLAIN_OBJECT_PAYLOAD : []);
}

/**
 * `plainObject`: the payload itself must be an object as `JSON.parse` makes it (no array, no
 * class instance), as the runtime requires. Tested by the event's own function, right after
 * its first member is read: the payloads seen there share a few shapes, and once a member has
 * been read the engine knows the shape and so the prototype, and the test costs next to nothing;
 * later, after a `for…in` or a call it did not inline, it would ask the engine at full price
 * (measured: most of what strict mode added). The caller, seeing every event's payloads, would
 * pay a full call for it. (A member is read before the prototype is tested; a read that
 * throws is the caller's to handle.)
 */
const PLAIN_OBJECT_PAYLOAD = [
  '  // After a member read the engine knows the prototype: this test is then free.',
  '  if (typeof data != "object" || data === null) return false;',
  '  const proto = Object.getPrototypeOf(data);',
  '  if (proto !== Object.prototype && proto !== null) return false;',
];

/** A test accepting exactly what ajv's test for each JSON type accepts (`compile/validate/dataType.ts`, `strictNumbers` on). */
function typeTest(type: string, v: string): string {
  switch (type) {
    case 'null':
      return `${v} === null`;
    case 'array':
      return `Array.isArray(${v})`;
    case 'object':
      return `${v} && typeof ${v} == "object" && !Array.isArray(${v})`;
    // ajv's tests (`typeof … == "number"` with `% 1`, `isNaN` and `isFinite`) accept exactly
    // what these do, and these compile to one cheap check each instead of a floating-point `%`.
    case 'integer':
      return `Number.isInteger(${v})`;
    case 'number':
      return `Number.isFinite(${v})`;
    case 'string':
    case 'boolean':
      return `typeof ${v} == "${type}"`;
    default:
      throw new Error(`payload check: unknown JSON type ${JSON.stringify(type)}`);
  }
}

class CheckWriter {
  /** Functions written so far (the entry first), each a complete declaration. */
  private readonly functions: string[] = [];
  /** `$defs` name → its function's name, assigned before its body is written (recursion). */
  private readonly defFunctions = new Map<string, string>();
  private helperCount = 0;
  private variableCount = 0;
  /** Whether the entry function (the payload's) is being written, not a helper. */
  private writingEntry = false;
  /** Checks written into the entry function after its first member read; `undefined` once written. */
  private afterFirstRead: readonly string[] | undefined;

  constructor(
    private readonly name: string,
    private readonly root: JsonSchema,
  ) {}

  /** `entryChecks` go into the entry function after its first member read (or last, if it reads none). */
  write(entryChecks: readonly string[]): string {
    this.afterFirstRead = entryChecks;
    this.functions.unshift(this.fn(this.name, this.root, true));
    return this.functions.join('\n');
  }

  /** A function `name(data)` returning whether `data` is valid against `schema`. */
  private fn(name: string, schema: unknown, entry = false): string {
    const lines: string[] = [];
    const outer = this.writingEntry;
    this.writingEntry = entry;
    this.schema(schema, 'data', lines, '  ');
    this.writingEntry = outer;
    if (entry && this.afterFirstRead !== undefined) lines.push(...this.afterFirstRead);
    return `function ${name}(data) {\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}  return true;\n}\n`;
  }

  /** The entry checks, if `v` is the entry function's own `data` and they are not written yet. */
  private entryChecksAt(v: string): readonly string[] {
    const checks = this.writingEntry && v === 'data' ? this.afterFirstRead : undefined;
    if (checks === undefined) return [];
    this.afterFirstRead = undefined;
    return checks;
  }

  private variable(): string {
    return `v${this.variableCount++}`;
  }

  /** Statements that `return false` when `v` is not valid against `schema`. */
  private schema(schema: unknown, v: string, out: string[], indent: string): void {
    if (schema === true) return;
    if (schema === false) {
      out.push(`${indent}return false;`);
      return;
    }
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error(`payload check: a schema must be an object or a boolean, got ${JSON.stringify(schema)}`);
    const s = schema as JsonSchema;
    for (const keyword of Object.keys(s)) {
      if (!isPayloadKeyword(keyword)) throw new Error(`payload check: keyword ${JSON.stringify(keyword)} is not supported (runtime/contract/payload-keywords.ts lists those that are)`);
    }

    if (s.$ref !== undefined) out.push(`${indent}if (!${this.defFunction(s.$ref)}(${v})) return false;`);
    if (s.anyOf !== undefined) {
      if (!Array.isArray(s.anyOf) || s.anyOf.length === 0) throw new Error('payload check: anyOf must be a non-empty array');
      const branches = s.anyOf.map((branch) => {
        const helper = `${this.name}_${this.helperCount++}`;
        this.functions.push(this.fn(helper, branch));
        return `${helper}(${v})`;
      });
      out.push(`${indent}if (!(${branches.join(' || ')})) return false;`);
    }

    const types = s.type === undefined ? undefined : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (types !== undefined) {
      // ajv tests `number` alone when a schema allows both `number` and `integer`.
      const tested = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
      out.push(`${indent}if (!(${tested.map((t) => (tested.length > 1 ? `(${typeTest(t, v)})` : typeTest(t, v))).join(' || ')})) return false;`);
    }
    const onlyObject = types?.length === 1 && types[0] === 'object';
    const onlyArray = types?.length === 1 && types[0] === 'array';

    const objectKeywords = s.properties !== undefined || s.required !== undefined || s.additionalProperties !== undefined;
    if (objectKeywords) {
      const body: string[] = [];
      const inner = onlyObject ? indent : `${indent}  `;
      this.objectKeywords(s, v, body, inner);
      if (onlyObject) out.push(...body);
      else if (body.length > 0) out.push(`${indent}if (${typeTest('object', v)}) {`, ...body, `${indent}}`);
    }
    if (s.items !== undefined) {
      if (typeof s.items !== 'object' && typeof s.items !== 'boolean') throw new Error('payload check: items must be a schema');
      const body: string[] = [];
      const inner = onlyArray ? indent : `${indent}  `;
      const i = this.variable();
      const item = this.variable();
      const itemLines: string[] = [];
      this.schema(s.items, item, itemLines, `${inner}  `);
      if (itemLines.length > 0) body.push(`${inner}for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`, `${inner}  const ${item} = ${v}[${i}];`, ...itemLines, `${inner}}`);
      if (onlyArray) out.push(...body);
      else if (body.length > 0) out.push(`${indent}if (Array.isArray(${v})) {`, ...body, `${indent}}`);
    }
  }

  private objectKeywords(s: JsonSchema, v: string, out: string[], indent: string): void {
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    const required = (s.required ?? []) as string[];
    if (!Array.isArray(required)) throw new Error('payload check: required must be an array');
    // A property is read once: a required one is tested for presence and checked in one go.
    const requiredSet = new Set(required);
    for (const name of required) {
      if (Object.prototype.hasOwnProperty.call(properties, name)) continue;
      out.push(`${indent}if (${v}[${JSON.stringify(name)}] === undefined) return false;`, ...this.entryChecksAt(v));
    }
    for (const [name, sub] of Object.entries(properties)) {
      const value = this.variable();
      const isRequired = requiredSet.has(name);
      const lines: string[] = [];
      this.schema(sub, value, lines, isRequired ? indent : `${indent}  `);
      if (isRequired) {
        out.push(`${indent}const ${value} = ${v}[${JSON.stringify(name)}];`, ...this.entryChecksAt(v), `${indent}if (${value} === undefined) return false;`, ...lines);
      } else if (lines.length > 0) {
        out.push(`${indent}const ${value} = ${v}[${JSON.stringify(name)}];`, ...this.entryChecksAt(v), `${indent}if (${value} !== undefined) {`, ...lines, `${indent}}`);
      }
    }
    const extra = s.additionalProperties;
    if (extra === undefined || extra === true) return;
    const key = this.variable();
    const listed = Object.keys(properties);
    const isListed = listed.length === 0 ? 'false' : listed.map((name) => `${key} === ${JSON.stringify(name)}`).join(' || ');
    if (extra === false) {
      out.push(`${indent}for (const ${key} in ${v}) {`, `${indent}  if (!(${isListed})) return false;`, `${indent}}`);
      return;
    }
    const lines: string[] = [];
    const value = this.variable();
    this.schema(extra, value, lines, `${indent}    `);
    if (lines.length === 0) return;
    out.push(`${indent}for (const ${key} in ${v}) {`, `${indent}  if (!(${isListed})) {`, `${indent}    const ${value} = ${v}[${key}];`, ...lines, `${indent}  }`, `${indent}}`);
  }

  /** The function checking `$defs/<name>`, written once per name. */
  private defFunction(ref: unknown): string {
    const match = typeof ref === 'string' ? /^#\/\$defs\/([^/]+)$/.exec(ref) : null;
    if (!match) throw new Error(`payload check: only "#/$defs/<name>" references are supported, got ${JSON.stringify(ref)}`);
    const defName = unescapeToken(match[1]!);
    const known = this.defFunctions.get(defName);
    if (known !== undefined) return known;
    const defs = (this.root.$defs ?? {}) as Record<string, unknown>;
    if (!Object.prototype.hasOwnProperty.call(defs, defName)) throw new Error(`payload check: no $defs entry ${JSON.stringify(defName)}`);
    const fnName = `${this.name}_${this.helperCount++}`;
    this.defFunctions.set(defName, fnName);
    this.functions.push(this.fn(fnName, defs[defName]));
    return fnName;
  }
}
