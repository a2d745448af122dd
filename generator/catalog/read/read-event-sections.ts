import { isScalar, isSeq, type Node } from 'yaml';
import type { SourcePosition } from '../../model.js';
import { suggestion } from '../names.js';
import type { RawGap, RawReference } from './raw-catalog.js';
import { FIELD_KEYS, readFields, readPayload } from './read-fields.js';
import { objectTypesReader } from './read-object-types.js';
import type { SectionReader } from './section-reader.js';
import type { YamlReader } from './yaml-reader.js';

const FRAGMENT_KEYS = ['description', 'extends', 'fields'];
const VERSION_KEYS = ['description', 'extends', 'fields', 'open'];
const GAP_KEYS: Record<RawGap['kind'], string[]> = {
  events_not_shown: ['kind', 'after', 'before', 'seed'],
  unnamed_event: ['kind', 'after', 'before', 'seed', 'visible_fields'],
  not_shown: ['kind', 'topic', 'seed'],
};

/** `shared_types: { <Name>: { description?, fields } }` */
const readSharedTypes = objectTypesReader({ key: 'shared_types', label: 'shared type', bodyKeys: ['description', 'fields'], fieldKeys: FIELD_KEYS, into: (out) => out.sharedTypes });

/** `fragments: { <NAME>: { description?, extends?, fields? } }`: field lists written once and reused. */
const readFragments: SectionReader = (reader, value, position, out) => {
  const map = reader.mapValue(value, 'fragments', position);
  for (const [name, fragmentNode, fragmentPosition] of map ? reader.entries(map, 'fragments') : []) {
    const body = reader.mapValue(fragmentNode, `fragment "${name}"`, fragmentPosition);
    if (body) out.fragments.push({ name, position: fragmentPosition, ...readPayload(reader, body, `fragment "${name}"`, FRAGMENT_KEYS) });
  }
};

/** `events: { <type>: { <version>: { description?, extends?, fields?, open? } } }` */
const readEvents: SectionReader = (reader, value, position, out) => {
  const map = reader.mapValue(value, 'events', position);
  for (const [type, versionsNode, typePosition] of map ? reader.entries(map, 'events') : []) {
    const versions = reader.mapValue(versionsNode, `event "${type}" (a mapping of versions)`, typePosition);
    for (const [version, payloadNode, versionPosition] of versions ? reader.entries(versions, `event "${type}"`) : []) {
      const body = reader.mapValue(payloadNode, `event "${type}" ${version}`, versionPosition);
      if (!body) continue;
      out.events.push({ type, version, section: out.section, position: versionPosition, typePosition, ...readPayload(reader, body, `event "${type}" ${version}`, VERSION_KEYS) });
    }
  }
};

/** `gaps: [{ kind, seed, … }]`: what the seed does not show, in its words. */
const readGaps: SectionReader = (reader, value, position, out) => {
  if (!isSeq(value)) {
    reader.problems.error(value ? reader.nodeAt(value) : position, 'gaps must be a list');
    return;
  }
  for (const item of value.items as Node[]) {
    const gap = readGap(reader, item, out.section);
    if (gap) out.gaps.push(gap);
  }
};

function readGap(reader: YamlReader, node: Node, section: string): RawGap | undefined {
  const map = reader.mapValue(node, 'gap', reader.nodeAt(node));
  if (!map) return undefined;
  const position = reader.nodeAt(map);
  const kindNode = map.get('kind', true) as Node | undefined;
  const kind = isScalar(kindNode) ? kindNode.value : undefined;
  if (kind !== 'events_not_shown' && kind !== 'unnamed_event' && kind !== 'not_shown') {
    const kinds = Object.keys(GAP_KEYS);
    reader.problems.error(kindNode ? reader.nodeAt(kindNode) : position, `gap: "kind" must be one of ${kinds.join(', ')}${typeof kind === 'string' ? suggestion(kind, kinds) : ''}`);
    return undefined;
  }
  const fields: Record<string, [Node | null, SourcePosition]> = {};
  for (const [key, value, keyPosition] of reader.entries(map, `gap (${kind})`, GAP_KEYS[kind])) fields[key] = [value, keyPosition];
  const seed = fields.seed ? reader.stringValue(fields.seed[0], 'gap: seed', fields.seed[1]) : undefined;
  if (!fields.seed) reader.problems.error(position, `gap (${kind}): missing "seed" (the seed's words)`);
  const reference = (key: string): RawReference | undefined => {
    const entry = fields[key];
    if (!entry) return undefined;
    const ref = reader.stringValue(entry[0], `gap: ${key}`, entry[1]);
    return ref === undefined ? undefined : { ref, position: reader.nodeAt(entry[0]) };
  };
  if (kind === 'not_shown') {
    const topic = fields.topic ? reader.stringValue(fields.topic[0], 'gap: topic', fields.topic[1]) : undefined;
    if (!fields.topic) reader.problems.error(position, 'gap (not_shown): missing "topic"');
    return { kind, topic: topic ?? '', seed: seed ?? '', section, position };
  }
  const after = reference('after');
  const before = reference('before');
  if (kind === 'events_not_shown') return { kind, after, before, seed: seed ?? '', section, position };
  const visibleFields = fields.visible_fields ? readFields(reader, fields.visible_fields[0], 'gap: visible_fields', fields.visible_fields[1]) : [];
  if (!fields.visible_fields) reader.problems.error(position, 'gap (unnamed_event): missing "visible_fields"');
  return { kind, after, before, seed: seed ?? '', visibleFields, section, position };
}

/** The events' sections of a catalog file. */
export const EVENT_SECTION_READERS: Readonly<Record<string, SectionReader>> = {
  shared_types: readSharedTypes,
  fragments: readFragments,
  events: readEvents,
  gaps: readGaps,
};
