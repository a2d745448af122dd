import { isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import type { SourcePosition } from '../../model.js';
import type { RawField, RawPayload, RawReference } from './raw-catalog.js';
import type { YamlReader } from './yaml-reader.js';

const FIELD_KEYS = ['type', 'description', 'nullable'];

/** A field list: `name: type` (short form) or `name: { type, description?, nullable? }`; `name?` is optional. */
export function readFields(reader: YamlReader, node: Node | null, what: string, position: SourcePosition): RawField[] {
  const map = reader.mapValue(node, what, position);
  if (!map) return [];
  const fields: RawField[] = [];
  for (const [key, value, keyPosition] of reader.entries(map, what)) {
    const optional = key.endsWith('?');
    const name = optional ? key.slice(0, -1) : key;
    const field: RawField = { name, optional, typeText: '', nullable: false, position: keyPosition, typePosition: keyPosition };
    if (isMap(value)) {
      for (const [fieldKey, fieldValue, fieldKeyPosition] of reader.entries(value, `field "${key}"`, FIELD_KEYS)) {
        if (fieldKey === 'type') {
          field.typeText = reader.stringValue(fieldValue, `field "${key}": type`, fieldKeyPosition) ?? '';
          field.typePosition = reader.nodeAt(fieldValue);
        } else if (fieldKey === 'description') {
          field.description = reader.stringValue(fieldValue, `field "${key}": description`, fieldKeyPosition);
        } else if (isScalar(fieldValue) && typeof fieldValue.value === 'boolean') {
          field.nullable = fieldValue.value;
        } else {
          reader.problems.error(fieldValue ? reader.nodeAt(fieldValue) : fieldKeyPosition, `field "${key}": nullable must be true or false`);
        }
      }
      if (!field.typeText) {
        reader.problems.error(keyPosition, `field "${key}": the long form needs a "type"`);
        continue;
      }
    } else {
      const typeText = reader.stringValue(value, `field "${key}": type`, keyPosition);
      if (typeText === undefined) continue;
      field.typeText = typeText;
      field.typePosition = reader.nodeAt(value);
    }
    fields.push(field);
  }
  return fields;
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
