import { isScalar, isSeq, type Node } from 'yaml';
import type { RawApiResponse, RawApiTag, RawEmits, RawOperation, RawReference, RawTypeText } from './raw-catalog.js';
import { API_FIELD_KEYS, readFields, readReferenceList } from './read-fields.js';
import { objectTypesReader } from './read-object-types.js';
import type { SectionReader } from './section-reader.js';
import type { YamlReader } from './yaml-reader.js';

const API_TYPE_KEYS = ['description', 'fields', 'open', 'required_not_shown', 'at_least_one_of'];
const OPERATION_KEYS = ['method', 'path', 'summary', 'description', 'params', 'query', 'request', 'responses', 'emits'];
const RESPONSE_KEYS = ['description', 'json', 'text', 'not_shown', 'retry'];
const RETRY_KEYS = ['retried', 'seed'];
const API_GAP_KEYS = ['topic', 'seed'] as const;
const API_CONTRADICTION_KEYS = ['topic', 'seed', 'accepted'] as const;
const API_INFO_KEYS = ['title', 'description', 'contact', 'tags'];
const API_TAG_KEYS = ['name', 'description', 'operations'];
const API_ASSUMPTION_KEYS = ['topic', 'seed', 'assumed'] as const;

/** `api_types: { <Name>: { description?, open?, required_not_shown?, at_least_one_of?, fields } }` */
const readApiTypes = objectTypesReader({ key: 'api_types', label: 'API type', bodyKeys: API_TYPE_KEYS, fieldKeys: API_FIELD_KEYS, into: (out) => out.apiTypes });

/** `operations: { <operationId>: { method, path, summary?, description?, params?, query?, request?, responses, emits? } }`, in seed order. */
const readOperations: SectionReader = (reader, value, position, out) => {
  const map = reader.mapValue(value, 'operations', position);
  for (const [operationId, opNode, opPosition] of map ? reader.entries(map, 'operations') : []) {
    const what = `operation "${operationId}"`;
    const body = reader.mapValue(opNode, what, opPosition);
    if (!body) continue;
    const op: RawOperation = { operationId, method: '', path: '', params: [], query: [], responses: [], emits: [], section: out.section, position: opPosition, methodPosition: opPosition, pathPosition: opPosition };
    const entries = reader.entries(body, what, OPERATION_KEYS);
    for (const [key, v, at] of entries) {
      if (key === 'method') [op.method, op.methodPosition] = [reader.stringValue(v, `${what}: method`, at) ?? '', v ? reader.nodeAt(v) : at];
      else if (key === 'path') [op.path, op.pathPosition] = [reader.stringValue(v, `${what}: path`, at) ?? '', v ? reader.nodeAt(v) : at];
      else if (key === 'summary') op.summary = reader.stringValue(v, `${what}: summary`, at);
      else if (key === 'description') op.description = reader.stringValue(v, `${what}: description`, at);
      else if (key === 'params') op.params = readFields(reader, v, `${what}: params`, at, API_FIELD_KEYS);
      else if (key === 'query') op.query = readFields(reader, v, `${what}: query`, at, API_FIELD_KEYS);
      else if (key === 'request') op.request = typeText(reader, v, `${what}: request`, at);
      else if (key === 'responses') op.responses = readResponses(reader, v, what, at);
      else op.emits = readEmits(reader, v, what, at);
    }
    for (const required of ['method', 'path', 'responses']) {
      if (!entries.some(([key]) => key === required)) reader.problems.error(opPosition, `${what}: missing "${required}"`);
    }
    out.operations.push(op);
  }
};

function typeText(reader: YamlReader, node: Node | null, what: string, at: RawApiResponse['position']): RawTypeText | undefined {
  const text = reader.stringValue(node, what, at);
  return text === undefined ? undefined : { typeText: text, position: node ? reader.nodeAt(node) : at };
}

/** `responses: { "<status>": { description?, json?, text?, not_shown? } }` */
function readResponses(reader: YamlReader, node: Node | null, what: string, position: RawApiResponse['position']): RawApiResponse[] {
  const map = reader.mapValue(node, `${what}: responses`, position);
  const responses: RawApiResponse[] = [];
  for (const [status, responseNode, at] of map ? reader.entries(map, `${what}: responses (status codes as quoted strings)`) : []) {
    const label = `${what}: response ${status}`;
    const body = reader.mapValue(responseNode, label, at);
    if (!body) continue;
    const response: RawApiResponse = { status, json: [], position: at };
    for (const [key, v, keyAt] of reader.entries(body, label, RESPONSE_KEYS)) {
      if (key === 'description') response.description = reader.stringValue(v, `${label}: description`, keyAt);
      else if (key === 'text') response.text = reader.stringValue(v, `${label}: text (the seed's exact words)`, keyAt);
      else if (key === 'not_shown') response.notShown = reader.stringValue(v, `${label}: not_shown (the seed's words)`, keyAt);
      else if (key === 'retry') response.retry = readRetry(reader, v, `${label}: retry`, keyAt);
      else if (isSeq(v)) response.json = (v.items as Node[]).flatMap((item) => typeText(reader, item, `${label}: json`, keyAt) ?? []);
      else if (isScalar(v)) response.json = [typeText(reader, v, `${label}: json`, keyAt)].flatMap((t) => t ?? []);
      else reader.problems.error(v ? reader.nodeAt(v) : keyAt, `${label}: json must be a type or a list of types`);
    }
    responses.push(response);
  }
  return responses;
}

/** `retry: { retried, seed }`: whether a client sends the request again after this response, and the seed's words saying so. */
function readRetry(reader: YamlReader, node: Node | null, what: string, position: RawApiResponse['position']): RawApiResponse['retry'] {
  const map = reader.mapValue(node, what, position);
  if (!map) return undefined;
  const at = reader.nodeAt(map);
  const entries = reader.entries(map, what, RETRY_KEYS);
  let retried: boolean | undefined;
  let seed: string | undefined;
  for (const [key, v, keyAt] of entries) {
    if (key === 'seed') seed = reader.stringValue(v, `${what}: seed (the seed's words)`, keyAt);
    else if (isScalar(v) && typeof v.value === 'boolean') retried = v.value;
    else reader.problems.error(v ? reader.nodeAt(v) : keyAt, `${what}: retried must be true or false`);
  }
  for (const key of RETRY_KEYS) if (!entries.some(([k]) => k === key)) reader.problems.error(at, `${what}: missing "${key}"`);
  return retried === undefined || seed === undefined ? undefined : { retried, seed, position: at };
}

/** `emits: { <outcome>: [<type>@<version>, …] }`: the events each outcome publishes (an assumption). */
function readEmits(reader: YamlReader, node: Node | null, what: string, position: RawApiResponse['position']): RawEmits[] {
  const map = reader.mapValue(node, `${what}: emits`, position);
  const emits: RawEmits[] = [];
  for (const [outcome, list, at] of map ? reader.entries(map, `${what}: emits`) : []) {
    const label = `${what}: emits ${outcome}`;
    if (!isSeq(list) || list.items.length === 0) {
      reader.problems.error(list ? reader.nodeAt(list) : at, `${label} must be a non-empty list of events (type@version)`);
      continue;
    }
    const events: RawReference[] = [];
    for (const item of list.items as Node[]) {
      if (isScalar(item) && typeof item.value === 'string') events.push({ ref: item.value, position: reader.nodeAt(item) });
      else reader.problems.error(reader.nodeAt(item), `${label}: each entry must be an event, type@version`);
    }
    emits.push({ outcome, events, position: at });
  }
  return emits;
}

/**
 * `<key>: [{ <keys> }]`: a list of records of text (the seed's words and what is made of them),
 * every key required; `label` names one record in messages.
 */
function readTextRecords<K extends string>(reader: YamlReader, value: Node | null, position: RawApiResponse['position'], key: string, label: string, keys: readonly K[]): { texts: Record<K, string>; position: RawApiResponse['position'] }[] {
  if (!isSeq(value)) {
    reader.problems.error(value ? reader.nodeAt(value) : position, `${key} must be a list`);
    return [];
  }
  return (value.items as Node[]).flatMap((item) => {
    const map = reader.mapValue(item, label, reader.nodeAt(item));
    if (!map) return [];
    const at = reader.nodeAt(map);
    const entries = new Map(reader.entries(map, label, keys).map(([k, v, keyAt]) => [k, reader.stringValue(v, `${label}: ${k}`, keyAt)]));
    for (const k of keys) if (!entries.has(k)) reader.problems.error(at, `${label}: missing "${k}"`);
    const texts = Object.fromEntries(keys.map((k) => [k, entries.get(k) ?? ''])) as Record<K, string>;
    return [{ texts, position: at }];
  });
}

/** `api_gaps: [{ topic, seed }]`: what the REST seed does not show, in its words. */
const readApiGaps: SectionReader = (reader, value, position, out) => {
  for (const { texts, position: at } of readTextRecords(reader, value, position, 'api_gaps', 'API gap', API_GAP_KEYS)) out.apiGaps.push({ ...texts, section: out.section, position: at });
};

/** `api_info: { title, description?, contact?, tags? }`: the API as a whole. */
const readApiInfo: SectionReader = (reader, value, position, out) => {
  const map = reader.mapValue(value, 'api_info', position);
  if (!map) return;
  const texts = new Map<string, string | undefined>();
  let tags: RawApiTag[] = [];
  for (const [key, v, at] of reader.entries(map, 'api_info', API_INFO_KEYS)) {
    if (key === 'tags') tags = readApiTags(reader, v, at);
    else texts.set(key, reader.stringValue(v, `api_info: ${key}`, at));
  }
  if (!texts.has('title')) reader.problems.error(position, 'api_info: missing "title"');
  const description = texts.get('description');
  const contact = texts.get('contact');
  out.apiInfo.push({ title: texts.get('title') ?? '', ...(description !== undefined && { description }), ...(contact !== undefined && { contact }), tags, position });
};

/** `tags: [{ name, description, operations: [<operationId>, …] }]`: the groups operations are listed in. */
function readApiTags(reader: YamlReader, node: Node | null, position: RawApiTag['position']): RawApiTag[] {
  if (!isSeq(node)) {
    reader.problems.error(node ? reader.nodeAt(node) : position, 'api_info: tags must be a list');
    return [];
  }
  const tags: RawApiTag[] = [];
  for (const item of node.items as Node[]) {
    const map = reader.mapValue(item, 'API tag', reader.nodeAt(item));
    if (!map) continue;
    const at = reader.nodeAt(map);
    const tag: RawApiTag = { name: '', description: '', operations: [], position: at };
    const entries = reader.entries(map, 'API tag', API_TAG_KEYS);
    for (const [key, v, keyAt] of entries) {
      if (key === 'name') tag.name = reader.stringValue(v, 'API tag: name', keyAt) ?? '';
      else if (key === 'description') tag.description = reader.stringValue(v, 'API tag: description', keyAt) ?? '';
      else tag.operations = readReferenceList(reader, v, 'API tag: operations', keyAt, 'operation id') ?? [];
    }
    for (const key of API_TAG_KEYS) if (!entries.some(([k]) => k === key)) reader.problems.error(at, `API tag: missing "${key}"`);
    tags.push(tag);
  }
  return tags;
}

/** `api_contradictions: [{ topic, seed, accepted }]`: where the seed contradicts itself, and what is accepted. */
const readApiContradictions: SectionReader = (reader, value, position, out) => {
  for (const { texts, position: at } of readTextRecords(reader, value, position, 'api_contradictions', 'API contradiction', API_CONTRADICTION_KEYS)) out.apiContradictions.push({ ...texts, position: at });
};

/** `api_assumptions: [{ topic, seed, assumed }]`: where the seeds say nothing, and what the package assumes. */
const readApiAssumptions: SectionReader = (reader, value, position, out) => {
  for (const { texts, position: at } of readTextRecords(reader, value, position, 'api_assumptions', 'API assumption', API_ASSUMPTION_KEYS)) out.apiAssumptions.push({ ...texts, position: at });
};

/** The REST API's sections of a catalog file. */
export const API_SECTION_READERS: Readonly<Record<string, SectionReader>> = {
  api_types: readApiTypes,
  operations: readOperations,
  api_gaps: readApiGaps,
  api_info: readApiInfo,
  api_contradictions: readApiContradictions,
  api_assumptions: readApiAssumptions,
};
