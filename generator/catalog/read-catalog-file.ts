import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import type { SourcePosition } from '../model.js';
import type { ProblemList } from './problems.js';
import { suggestion } from './names.js';

/** A field as written: type text not yet resolved. */
export interface RawField {
  name: string;
  optional: boolean;
  typeText: string;
  nullable: boolean;
  description?: string;
  position: SourcePosition;
  typePosition: SourcePosition;
}

export interface RawReference {
  ref: string;
  position: SourcePosition;
}

/** A field list with its reuse: what an event version or fragment declares. */
export interface RawPayload {
  fields: RawField[];
  extends: RawReference[];
  open?: string;
  description?: string;
}

export interface RawEvent extends RawPayload {
  type: string;
  version: string;
  section: string;
  position: SourcePosition;
  typePosition: SourcePosition;
}

export interface RawFragment extends RawPayload {
  name: string;
  position: SourcePosition;
}

export interface RawSharedType {
  name: string;
  fields: RawField[];
  description?: string;
  section: string;
  position: SourcePosition;
}

export type RawGap =
  | { kind: 'events_not_shown'; after?: RawReference; before?: RawReference; seed: string; section: string; position: SourcePosition }
  | {
      kind: 'unnamed_event';
      after?: RawReference;
      before?: RawReference;
      seed: string;
      visibleFields: RawField[];
      section: string;
      position: SourcePosition;
    }
  | { kind: 'not_shown'; topic: string; seed: string; section: string; position: SourcePosition };

export interface RawCatalogFile {
  file: string;
  section: string;
  sharedTypes: RawSharedType[];
  fragments: RawFragment[];
  events: RawEvent[];
  gaps: RawGap[];
}

const FILE_KEYS = ['section', 'shared_types', 'fragments', 'events', 'gaps'];
const SHARED_TYPE_KEYS = ['description', 'fields'];
const FRAGMENT_KEYS = ['description', 'extends', 'fields'];
const VERSION_KEYS = ['description', 'extends', 'fields', 'open'];
const FIELD_KEYS = ['type', 'description', 'nullable'];
const GAP_KEYS: Record<RawGap['kind'], string[]> = {
  events_not_shown: ['kind', 'after', 'before', 'seed'],
  unnamed_event: ['kind', 'after', 'before', 'seed', 'visible_fields'],
  not_shown: ['kind', 'topic', 'seed'],
};

/**
 * Reads one catalog file into raw declarations, checking its shape (keys, value kinds)
 * but not its references; those need the whole catalog.
 */
export function readCatalogFile(file: string, text: string, problems: ProblemList): RawCatalogFile | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const at = (offset: number | undefined): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset ?? 0);
    return { file, line, col };
  };
  const nodeAt = (node: Node | Pair | null | undefined): SourcePosition =>
    at(node && 'range' in node ? node.range?.[0] : node && 'key' in node ? (node.key as Node | null)?.range?.[0] : 0);

  if (doc.errors.length > 0) {
    // The parser often reports one mistake twice at one place; report each place once.
    const byOffset = new Map<number, string[]>();
    for (const error of doc.errors) byOffset.set(error.pos[0], [...(byOffset.get(error.pos[0]) ?? []), error.message]);
    for (const [offset, messages] of byOffset) problems.error(at(offset), `YAML syntax: ${messages.join('; ')}`);
    return undefined;
  }

  const out: RawCatalogFile = { file, section: '', sharedTypes: [], fragments: [], events: [], gaps: [] };
  const root = doc.contents;
  if (!isMap(root)) {
    problems.error(nodeAt(root), 'a catalog file must be a mapping with a "section" key');
    return undefined;
  }

  /** Pairs of a mapping, reporting non-string keys, duplicates and keys outside `allowed`. */
  const entries = (map: YAMLMap, what: string, allowed?: string[]): [string, Node | null, SourcePosition][] => {
    const seen = new Map<string, SourcePosition>();
    const result: [string, Node | null, SourcePosition][] = [];
    for (const pair of map.items) {
      const keyNode = pair.key as Node | null;
      const position = nodeAt(keyNode);
      if (!isScalar(keyNode) || typeof keyNode.value !== 'string') {
        problems.error(position, `${what}: keys must be strings`);
        continue;
      }
      const key = keyNode.value;
      const first = seen.get(key);
      if (first) {
        problems.error(position, `${what}: duplicate key "${key}" (first at ${first.line}:${first.col})`);
        continue;
      }
      seen.set(key, position);
      if (allowed && !allowed.includes(key)) {
        problems.error(position, `${what}: unknown key "${key}"${suggestion(key, allowed)}; allowed: ${allowed.join(', ')}`);
        continue;
      }
      result.push([key, pair.value as Node | null, position]);
    }
    return result;
  };

  const stringValue = (node: Node | null, what: string, position: SourcePosition): string | undefined => {
    if (isScalar(node) && typeof node.value === 'string' && node.value.trim() !== '') return node.value;
    problems.error(node ? nodeAt(node) : position, `${what} must be a non-empty string`);
    return undefined;
  };

  const mapValue = (node: Node | null, what: string, position: SourcePosition): YAMLMap | undefined => {
    if (isMap(node)) return node;
    problems.error(node ? nodeAt(node) : position, `${what} must be a mapping`);
    return undefined;
  };

  const readFields = (node: Node | null, what: string, position: SourcePosition): RawField[] => {
    const map = mapValue(node, what, position);
    if (!map) return [];
    const fields: RawField[] = [];
    for (const [key, value, keyPosition] of entries(map, what)) {
      const optional = key.endsWith('?');
      const name = optional ? key.slice(0, -1) : key;
      const field: RawField = { name, optional, typeText: '', nullable: false, position: keyPosition, typePosition: keyPosition };
      if (isMap(value)) {
        for (const [fieldKey, fieldValue, fieldKeyPosition] of entries(value, `field "${key}"`, FIELD_KEYS)) {
          if (fieldKey === 'type') {
            field.typeText = stringValue(fieldValue, `field "${key}": type`, fieldKeyPosition) ?? '';
            field.typePosition = nodeAt(fieldValue);
          } else if (fieldKey === 'description') {
            field.description = stringValue(fieldValue, `field "${key}": description`, fieldKeyPosition);
          } else if (isScalar(fieldValue) && typeof fieldValue.value === 'boolean') {
            field.nullable = fieldValue.value;
          } else {
            problems.error(fieldValue ? nodeAt(fieldValue) : fieldKeyPosition, `field "${key}": nullable must be true or false`);
          }
        }
        if (!field.typeText) {
          problems.error(keyPosition, `field "${key}": the long form needs a "type"`);
          continue;
        }
      } else {
        const typeText = stringValue(value, `field "${key}": type`, keyPosition);
        if (typeText === undefined) continue;
        field.typeText = typeText;
        field.typePosition = nodeAt(value);
      }
      fields.push(field);
    }
    return fields;
  };

  const readReferences = (node: Node | null, position: SourcePosition): RawReference[] => {
    if (isScalar(node) && typeof node.value === 'string') return [{ ref: node.value, position: nodeAt(node) }];
    if (isSeq(node)) {
      const refs: RawReference[] = [];
      for (const item of node.items as Node[]) {
        if (isScalar(item) && typeof item.value === 'string') refs.push({ ref: item.value, position: nodeAt(item) });
        else problems.error(nodeAt(item), 'extends: each reference must be a string');
      }
      return refs;
    }
    problems.error(node ? nodeAt(node) : position, 'extends must be a reference or a list of references');
    return [];
  };

  const readPayload = (map: YAMLMap, what: string, allowed: string[]): RawPayload => {
    const payload: RawPayload = { fields: [], extends: [] };
    for (const [key, value, position] of entries(map, what, allowed)) {
      if (key === 'fields') payload.fields = readFields(value, `${what}: fields`, position);
      else if (key === 'extends') payload.extends = readReferences(value, position);
      else if (key === 'open') payload.open = stringValue(value, `${what}: open (the seed's words)`, position);
      else if (key === 'description') payload.description = stringValue(value, `${what}: description`, position);
    }
    return payload;
  };

  const sections: [string, Node | null, SourcePosition][] = entries(root, 'catalog file', FILE_KEYS);
  const sectionEntry = sections.find(([key]) => key === 'section');
  if (!sectionEntry) problems.error(nodeAt(root), 'catalog file: missing "section" (the seed heading it transcribes)');
  else out.section = stringValue(sectionEntry[1], 'section', sectionEntry[2]) ?? '';

  for (const [key, value, position] of sections) {
    if (key === 'shared_types') {
      const map = mapValue(value, 'shared_types', position);
      for (const [name, typeNode, typePosition] of map ? entries(map, 'shared_types') : []) {
        const body = mapValue(typeNode, `shared type "${name}"`, typePosition);
        if (!body) continue;
        const shared: RawSharedType = { name, fields: [], section: out.section, position: typePosition };
        for (const [bodyKey, bodyValue, bodyPosition] of entries(body, `shared type "${name}"`, SHARED_TYPE_KEYS)) {
          if (bodyKey === 'fields') shared.fields = readFields(bodyValue, `shared type "${name}": fields`, bodyPosition);
          else shared.description = stringValue(bodyValue, `shared type "${name}": description`, bodyPosition);
        }
        out.sharedTypes.push(shared);
      }
    } else if (key === 'fragments') {
      const map = mapValue(value, 'fragments', position);
      for (const [name, fragmentNode, fragmentPosition] of map ? entries(map, 'fragments') : []) {
        const body = mapValue(fragmentNode, `fragment "${name}"`, fragmentPosition);
        if (body) out.fragments.push({ name, position: fragmentPosition, ...readPayload(body, `fragment "${name}"`, FRAGMENT_KEYS) });
      }
    } else if (key === 'events') {
      const map = mapValue(value, 'events', position);
      for (const [type, versionsNode, typePosition] of map ? entries(map, 'events') : []) {
        const versions = mapValue(versionsNode, `event "${type}" (a mapping of versions)`, typePosition);
        for (const [version, payloadNode, versionPosition] of versions ? entries(versions, `event "${type}"`) : []) {
          const body = mapValue(payloadNode, `event "${type}" ${version}`, versionPosition);
          if (!body) continue;
          out.events.push({
            type,
            version,
            section: out.section,
            position: versionPosition,
            typePosition,
            ...readPayload(body, `event "${type}" ${version}`, VERSION_KEYS),
          });
        }
      }
    } else if (key === 'gaps') {
      if (!isSeq(value)) {
        problems.error(value ? nodeAt(value) : position, 'gaps must be a list');
        continue;
      }
      for (const item of value.items as Node[]) {
        const gap = readGap(item);
        if (gap) out.gaps.push(gap);
      }
    }
  }
  return out;

  function readGap(node: Node): RawGap | undefined {
    const map = mapValue(node, 'gap', nodeAt(node));
    if (!map) return undefined;
    const position = nodeAt(map);
    const kindNode = map.get('kind', true) as Node | undefined;
    const kind = isScalar(kindNode) ? kindNode.value : undefined;
    if (kind !== 'events_not_shown' && kind !== 'unnamed_event' && kind !== 'not_shown') {
      const kinds = Object.keys(GAP_KEYS);
      problems.error(
        kindNode ? nodeAt(kindNode) : position,
        `gap: "kind" must be one of ${kinds.join(', ')}${typeof kind === 'string' ? suggestion(kind, kinds) : ''}`,
      );
      return undefined;
    }
    const fields: Record<string, [Node | null, SourcePosition]> = {};
    for (const [key, value, keyPosition] of entries(map, `gap (${kind})`, GAP_KEYS[kind])) fields[key] = [value, keyPosition];
    const seed = fields.seed ? stringValue(fields.seed[0], 'gap: seed', fields.seed[1]) : undefined;
    if (!fields.seed) problems.error(position, `gap (${kind}): missing "seed" (the seed's words)`);
    const reference = (key: string): RawReference | undefined => {
      const entry = fields[key];
      if (!entry) return undefined;
      const ref = stringValue(entry[0], `gap: ${key}`, entry[1]);
      return ref === undefined ? undefined : { ref, position: nodeAt(entry[0]) };
    };
    if (kind === 'not_shown') {
      const topic = fields.topic ? stringValue(fields.topic[0], 'gap: topic', fields.topic[1]) : undefined;
      if (!fields.topic) problems.error(position, 'gap (not_shown): missing "topic"');
      return { kind, topic: topic ?? '', seed: seed ?? '', section: out.section, position };
    }
    const after = reference('after');
    const before = reference('before');
    if (kind === 'events_not_shown') return { kind, after, before, seed: seed ?? '', section: out.section, position };
    const visibleFields = fields.visible_fields ? readFields(fields.visible_fields[0], 'gap: visible_fields', fields.visible_fields[1]) : [];
    if (!fields.visible_fields) problems.error(position, 'gap (unnamed_event): missing "visible_fields"');
    return { kind, after, before, seed: seed ?? '', visibleFields, section: out.section, position };
  }
}
