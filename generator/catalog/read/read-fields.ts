import { isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import type { SourcePosition } from '../../model.js';
import type { RawField, RawPayload, RawReference } from './raw-catalog.js';
import type { YamlReader } from './yaml-reader.js';

/** The keys of a field's long form on every surface: its type, what it means, whether it may be null. */
export const FIELD_KEYS: readonly string[] = ['type', 'description', 'nullable'];

/**
 * What the REST seed also says of a field: `enum` (the complete list of values), `examples`
 * (values seen), `default` (query parameters), `why_optional` and `not_shown` (the seed's
 * words), `min_length` (the fewest characters of a string: a path segment cannot be empty).
 * The events' sections refuse them: their validators enforce none of these.
 */
export const API_FIELD_KEYS: readonly string[] = [...FIELD_KEYS, 'enum', 'examples', 'default', 'why_optional', 'not_shown', 'min_length'];

/**
 * A field list: `name: type` (short form) or `name: { type, … }` (long form, the keys a
 * surface allows); `name?` is optional.
 */
export function readFields(reader: YamlReader, node: Node | null, what: string, position: SourcePosition, keys: readonly string[] = FIELD_KEYS): RawField[] {
  const map = reader.mapValue(node, what, position);
  if (!map) return [];
  const fields: RawField[] = [];
  for (const [key, value, keyPosition] of reader.entries(map, what)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    const field: RawField = { name, optional, typeText: '', nullable: false, position: keyPosition, typePosition: keyPosition };
    const label = `${what}: field "${key}"`;
    if (!isMap(value)) {
      const typeText = reader.stringValue(value, `${label}: type`, keyPosition);
      if (typeText === undefined) continue;
      field.typeText = typeText;
      field.typePosition = reader.nodeAt(value);
      fields.push(field);
      continue;
    }
    for (const [fieldKey, fieldValue, fieldKeyPosition] of reader.entries(value, label, keys)) readFieldKey(reader, field, label, fieldKey, fieldValue, fieldKeyPosition);
    if (!field.typeText) {
      reader.problems.error(keyPosition, `${label}: the long form needs a "type"`);
      continue;
    }
    fields.push(field);
  }
  return fields;
}

/** One key of a field's long form, into `field`, or a positioned error. */
function readFieldKey(reader: YamlReader, field: RawField, label: string, key: string, value: Node | null, keyPosition: SourcePosition): void {
  const at = value ? reader.nodeAt(value) : keyPosition;
  switch (key) {
    case 'type':
      field.typeText = reader.stringValue(value, `${label}: type`, keyPosition) ?? '';
      field.typePosition = at;
      break;
    case 'nullable':
      if (isScalar(value) && typeof value.value === 'boolean') field.nullable = value.value;
      else reader.problems.error(at, `${label}: nullable must be true or false`);
      break;
    case 'enum':
    case 'examples': {
      const list = readStringList(reader, value, `${label}: ${key}`, keyPosition);
      if (list) field[key] = list;
      break;
    }
    case 'default':
      if (isScalar(value) && ['string', 'number', 'boolean'].includes(typeof value.value)) field.default = value.value as string | number | boolean;
      else reader.problems.error(at, `${label}: default must be a string, number or boolean`);
      break;
    case 'description':
      field.description = reader.stringValue(value, `${label}: description`, keyPosition);
      break;
    case 'why_optional':
      field.whyOptional = reader.stringValue(value, `${label}: why_optional (the seed's words)`, keyPosition);
      break;
    case 'not_shown':
      field.notShown = reader.stringValue(value, `${label}: not_shown (the seed's words)`, keyPosition);
      break;
    case 'min_length':
      if (isScalar(value) && Number.isSafeInteger(value.value) && (value.value as number) >= 0) field.minLength = { value: value.value as number, position: at };
      else reader.problems.error(at, `${label}: min_length must be a whole number of characters, 0 or more`);
      break;
  }
}

/** A list of non-empty strings (`[a, b]`), or a positioned error. */
export function readStringList(reader: YamlReader, node: Node | null, what: string, position: SourcePosition): string[] | undefined {
  if (!isSeq(node) || node.items.length === 0) {
    reader.problems.error(node ? reader.nodeAt(node) : position, `${what} must be a non-empty list of strings`);
    return undefined;
  }
  const values: string[] = [];
  for (const item of node.items as Node[]) {
    if (isScalar(item) && typeof item.value === 'string' && item.value !== '') values.push(item.value);
    else reader.problems.error(reader.nodeAt(item), `${what}: each value must be a non-empty string`);
  }
  return values;
}

/** A list of names with their places (`at_least_one_of: [body, document_paths]`); `entry` says what each name is. */
export function readReferenceList(reader: YamlReader, node: Node | null, what: string, position: SourcePosition, entry = 'field name'): RawReference[] | undefined {
  if (!isSeq(node)) {
    reader.problems.error(node ? reader.nodeAt(node) : position, `${what} must be a list of ${entry}s`);
    return undefined;
  }
  const refs: RawReference[] = [];
  for (const item of node.items as Node[]) {
    if (isScalar(item) && typeof item.value === 'string') refs.push({ ref: item.value, position: reader.nodeAt(item) });
    else reader.problems.error(reader.nodeAt(item), `${what}: each entry must be a ${entry}`);
  }
  return refs;
}

/** `extends`: one reference or a list of them. */
export function readReferences(reader: YamlReader, node: Node | null, position: SourcePosition): RawReference[] {
  if (isScalar(node) && typeof node.value === 'string') return [{ ref: node.value, position: reader.nodeAt(node) }];
  if (isSeq(node)) {
    const refs: RawReference[] = [];
    for (const item of node.items as Node[]) {
      if (isScalar(item) && typeof item.value === 'string') refs.push({ ref: item.value, position: reader.nodeAt(item) });
      else reader.problems.error(reader.nodeAt(item), 'extends: each reference must be a string');
    }
    return refs;
  }
  reader.problems.error(node ? reader.nodeAt(node) : position, 'extends must be a reference or a list of references');
  return [];
}

/** The body of an event version or a fragment: fields, reuse, and (events) the seed's words when it is open. */
export function readPayload(reader: YamlReader, map: YAMLMap, what: string, allowed: readonly string[]): RawPayload {
  const payload: RawPayload = { fields: [], extends: [] };
  for (const [key, value, position] of reader.entries(map, what, allowed)) {
    if (key === 'fields') payload.fields = readFields(reader, value, `${what}: fields`, position);
    else if (key === 'extends') payload.extends = readReferences(reader, value, position);
    else if (key === 'open') payload.open = reader.stringValue(value, `${what}: open (the seed's words)`, position);
    else if (key === 'description') payload.description = reader.stringValue(value, `${what}: description`, position);
  }
  return payload;
}
