import { isMap, isScalar, isSeq, type Node } from 'yaml';
import type { SourcePosition } from '../../model.js';
import type { RawApiField, RawReference } from './raw-catalog.js';
import type { YamlReader } from './yaml-reader.js';

const API_FIELD_KEYS = ['type', 'description', 'nullable', 'enum', 'examples', 'default', 'why_optional', 'not_shown', 'min_length'];

/**
 * An API field list: the event notation (`name: type`, `name?: …`, the long form) plus what
 * the REST seed needs: `enum` (the complete list of values), `examples` (values seen),
 * `default` (query parameters), `why_optional` and `not_shown` (the seed's words), `min_length`
 * (the fewest characters of a string: a path segment cannot be empty).
 */
export function readApiFields(reader: YamlReader, node: Node | null, what: string, position: SourcePosition): RawApiField[] {
  const map = reader.mapValue(node, what, position);
  if (!map) return [];
  const fields: RawApiField[] = [];
  for (const [key, value, keyPosition] of reader.entries(map, what)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    const field: RawApiField = { name, optional, typeText: '', nullable: false, position: keyPosition, typePosition: keyPosition };
    const label = `${what}: field "${key}"`;
    if (!isMap(value)) {
      const typeText = reader.stringValue(value, `${label}: type`, keyPosition);
      if (typeText === undefined) continue;
      field.typeText = typeText;
      field.typePosition = reader.nodeAt(value);
      fields.push(field);
      continue;
    }
    for (const [fieldKey, fieldValue, fieldKeyPosition] of reader.entries(value, label, API_FIELD_KEYS)) {
      const at = fieldValue ? reader.nodeAt(fieldValue) : fieldKeyPosition;
      switch (fieldKey) {
        case 'type':
          field.typeText = reader.stringValue(fieldValue, `${label}: type`, fieldKeyPosition) ?? '';
          field.typePosition = at;
          break;
        case 'nullable':
          if (isScalar(fieldValue) && typeof fieldValue.value === 'boolean') field.nullable = fieldValue.value;
          else reader.problems.error(at, `${label}: nullable must be true or false`);
          break;
        case 'enum':
        case 'examples': {
          const list = readStringList(reader, fieldValue, `${label}: ${fieldKey}`, fieldKeyPosition);
          if (list) field[fieldKey] = list;
          break;
        }
        case 'default':
          if (isScalar(fieldValue) && ['string', 'number', 'boolean'].includes(typeof fieldValue.value)) field.default = fieldValue.value as string | number | boolean;
          else reader.problems.error(at, `${label}: default must be a string, number or boolean`);
          break;
        case 'description':
          field.description = reader.stringValue(fieldValue, `${label}: description`, fieldKeyPosition);
          break;
        case 'why_optional':
          field.whyOptional = reader.stringValue(fieldValue, `${label}: why_optional (the seed's words)`, fieldKeyPosition);
          break;
        case 'not_shown':
          field.notShown = reader.stringValue(fieldValue, `${label}: not_shown (the seed's words)`, fieldKeyPosition);
          break;
        case 'min_length':
          if (isScalar(fieldValue) && Number.isSafeInteger(fieldValue.value) && (fieldValue.value as number) >= 0) field.minLength = { value: fieldValue.value as number, position: at };
          else reader.problems.error(at, `${label}: min_length must be a whole number of characters, 0 or more`);
          break;
      }
    }
    if (!field.typeText) {
      reader.problems.error(keyPosition, `${label}: the long form needs a "type"`);
      continue;
    }
    fields.push(field);
  }
  return fields;
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
