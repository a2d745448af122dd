import type { ApiEmitsModel, ApiModel, ApiOperationModel, ApiResponseModel, FieldModel, ObjectTypeModel } from '../../model.js';
import { suggestion } from '../names.js';
import type { ProblemList } from '../problems.js';
import type { RawCatalog, RawEmits, RawField } from '../read/raw-catalog.js';
import { firstByKey } from './flatten-reuse.js';
import { resolveApiTags } from './resolve-api-tags.js';
import { FORMATS, resolveField, resolveObjectType, resolveType, type TypeVocabulary } from './resolve-type.js';

/** Outcome names: what the emulator and the docs call them. */
const OUTCOME = /^[a-z][a-z0-9_]*$/;

/**
 * An operation's `emits`, each `type@version` an event version of the catalog, or a
 * positioned error saying what is there instead.
 */
function resolveEmits(emits: readonly RawEmits[], owner: string, versionsByType: ReadonlyMap<string, readonly string[]>, problems: ProblemList): ApiEmitsModel[] {
  return emits.map(({ outcome, events, position }) => {
    if (!OUTCOME.test(outcome)) problems.error(position, `${owner}: emits outcome "${outcome}" must be lower_snake_case letters and digits`);
    const what = `${owner} emits ${outcome}`;
    const resolved = events.flatMap(({ ref, position: at }) => {
      const [type = '', version, ...rest] = ref.split('@');
      const versions = versionsByType.get(type);
      if (!versions) problems.error(at, `${what}: unknown event type "${type}"${suggestion(type, versionsByType.keys())}`);
      else if (version === undefined || rest.length > 0) problems.error(at, `${what}: write the event as type@version ("${type}@${versions.at(-1)!}")`);
      else if (!versions.includes(version)) problems.error(at, `${what}: event "${type}" has no version "${version}" (it has ${versions.join(', ')})`);
      else return [{ type, version }];
      return [];
    });
    const keys = resolved.map((e) => `${e.type}@${e.version}`);
    const twice = keys.find((key, i) => keys.indexOf(key) !== i);
    if (twice) problems.error(position, `${what}: "${twice}" is listed twice`);
    return { outcome, events: resolved, position };
  });
}

/**
 * The REST API's part of the model: types resolved (primitives, formats, API types),
 * responses in status order. `undefined` when the catalog declares no API.
 */
export function resolveApi(catalog: RawCatalog, problems: ProblemList): ApiModel | undefined {
  if (catalog.apiFiles.length === 0) return undefined;
  const typesByName = firstByKey(catalog.apiTypes, (t) => t.name);
  const vocabulary: TypeVocabulary = { names: new Set(typesByName.keys()), aName: 'an API type', formats: FORMATS };
  const toField = (field: RawField, owner: string): FieldModel[] => {
    const resolved = resolveField(field, `field "${field.name}" of ${owner}`, vocabulary, problems);
    return resolved ? [resolved] : [];
  };
  // A REST API type's name is its TypeScript name (the api-types rule holds it to PascalCase).
  const types: ObjectTypeModel[] = [...typesByName.values()].map((raw) => resolveObjectType(raw, raw.name, vocabulary, problems, `API type "${raw.name}"`));

  const versionsByType = new Map<string, string[]>();
  for (const event of catalog.events) versionsByType.set(event.type, [...(versionsByType.get(event.type) ?? []), event.version]);

  const operations: ApiOperationModel[] = [...firstByKey(catalog.operations, (o) => o.operationId).values()].map((raw) => {
    const owner = `operation "${raw.operationId}"`;
    const responses = raw.responses
      .map((r): ApiResponseModel => {
        const response: ApiResponseModel = { status: Number(r.status), description: r.description ?? '', position: r.position };
        const json = r.json.flatMap((t) => resolveType(t, `${owner} response ${r.status}`, vocabulary, problems) ?? []);
        if (json.length > 0) response.json = json;
        if (r.text !== undefined) response.text = r.text;
        if (r.notShown !== undefined) response.notShown = r.notShown;
        if (r.retry !== undefined) response.retry = { retried: r.retry.retried, seed: r.retry.seed };
        return response;
      })
      .sort((a, b) => a.status - b.status);
    const model: ApiOperationModel = {
      operationId: raw.operationId,
      method: raw.method === 'GET' ? 'GET' : 'POST',
      path: raw.path,
      params: raw.params.flatMap((f) => toField(f, `${owner} params`)),
      query: raw.query.flatMap((f) => toField(f, `${owner} query`)),
      responses,
      emits: resolveEmits(raw.emits, owner, versionsByType, problems),
      section: raw.section,
      position: raw.position,
    };
    if (raw.summary !== undefined) model.summary = raw.summary;
    if (raw.description !== undefined) model.description = raw.description;
    if (raw.request) {
      const request = resolveType(raw.request, `${owner} request`, vocabulary, problems);
      if (request) model.request = request;
    }
    return model;
  });

  const gaps = catalog.apiGaps.map(({ topic, seed, section, position }) => ({ topic, seed, section, position }));
  const [info, ...more] = catalog.apiInfo;
  if (!info) problems.error({ file: catalog.apiFiles[0]!, line: 1, col: 1 }, 'the REST API needs an "api_info" with its title (in one of its files)');
  for (const extra of more) problems.error(extra.position, `api_info is declared once (first at ${info!.position.file}:${info!.position.line}:${info!.position.col})`);
  const contradictions = catalog.apiContradictions.map(({ topic, seed, accepted, position }) => ({ topic, seed, accepted, position }));
  const assumptions = catalog.apiAssumptions.map(({ topic, seed, assumed, position }) => ({ topic, seed, assumed, position }));
  const tags = resolveApiTags(info?.tags ?? [], operations.map((op) => op.operationId), problems);
  return { sourceFiles: catalog.apiFiles, title: info?.title ?? '', ...(info?.description !== undefined && { description: info.description }), ...(info?.contact !== undefined && { contact: info.contact }), tags, contradictions, assumptions, operations, types, gaps };
}
