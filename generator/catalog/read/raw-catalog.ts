import type { FieldOptions, SourcePosition } from '../../model.js';

/**
 * Declarations as written in the YAML, with their positions: what the read stage produces and
 * the rules check. Nothing here is resolved yet (type notation is text, `extends` names).
 */

/** A field as written, type text not yet resolved: the notation every surface shares, and the options only the REST API's sections accept. */
export interface RawField extends FieldOptions {
  name: string;
  optional: boolean;
  typeText: string;
  nullable: boolean;
  /** The fewest characters a string may have, and where that is written. */
  minLength?: { value: number; position: SourcePosition };
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

/** A named object type as written: an events' shared type, or a REST API type (which alone may be open, leave required fields unshown or need one of several). */
export interface RawObjectType {
  name: string;
  fields: RawField[];
  description?: string;
  open?: string;
  requiredNotShown?: string;
  atLeastOneOf?: RawReference[];
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

/** A type as written where a body is named (`Note`, `NoteResult[]`), with its place. */
export interface RawTypeText {
  typeText: string;
  position: SourcePosition;
}

export interface RawApiResponse {
  status: string;
  description?: string;
  json: RawTypeText[];
  text?: string;
  notShown?: string;
  /** What the seed says of sending the request again: whether a client does, its words, and where they are written. */
  retry?: { retried: boolean; seed: string; position: SourcePosition };
  position: SourcePosition;
}

export interface RawOperation {
  operationId: string;
  method: string;
  path: string;
  summary?: string;
  description?: string;
  params: RawField[];
  query: RawField[];
  request?: RawTypeText;
  responses: RawApiResponse[];
  /** The events each outcome publishes (`created: [type@version, …]`), as written: an assumption. */
  emits: RawEmits[];
  section: string;
  position: SourcePosition;
  /** Where `method` and `path` are written, for the rules' messages. */
  methodPosition: SourcePosition;
  pathPosition: SourcePosition;
}

/** One outcome of an operation and the events it publishes, each `type@version` with its place. */
export interface RawEmits {
  outcome: string;
  events: RawReference[];
  position: SourcePosition;
}

export interface RawApiGap {
  topic: string;
  seed: string;
  section: string;
  position: SourcePosition;
}

/** The API as a whole: its title, what it is for, whom to contact, how its operations are grouped. */
export interface RawApiInfo {
  title: string;
  description?: string;
  contact?: string;
  tags: RawApiTag[];
  position: SourcePosition;
}

/** A group of operations (OpenAPI's tag): its name, what it holds, its operations by id. */
export interface RawApiTag {
  name: string;
  description: string;
  operations: RawReference[];
  position: SourcePosition;
}

/** Where the seed contradicts itself: its words, and what the contract accepts. */
export interface RawApiContradiction {
  topic: string;
  seed: string;
  accepted: string;
  position: SourcePosition;
}

/** Where the seeds say nothing and the package assumes something: their words, and what is assumed. */
export interface RawApiAssumption {
  topic: string;
  seed: string;
  assumed: string;
  position: SourcePosition;
}

/** Declarations of each kind, in the order they are written: what one file declares, and all files together. */
export interface RawDeclarations {
  sharedTypes: RawObjectType[];
  fragments: RawFragment[];
  events: RawEvent[];
  gaps: RawGap[];
  apiTypes: RawObjectType[];
  operations: RawOperation[];
  apiGaps: RawApiGap[];
  apiInfo: RawApiInfo[];
  apiContradictions: RawApiContradiction[];
  apiAssumptions: RawApiAssumption[];
}

const DECLARATION_KINDS: readonly (keyof RawDeclarations)[] = ['sharedTypes', 'fragments', 'events', 'gaps', 'apiTypes', 'operations', 'apiGaps', 'apiInfo', 'apiContradictions', 'apiAssumptions'];

/** The REST API's kinds of declaration. */
const API_KINDS: readonly (keyof RawDeclarations)[] = ['apiTypes', 'operations', 'apiGaps', 'apiInfo', 'apiContradictions', 'apiAssumptions'];

/** No declaration yet, of any kind. */
export const noDeclarations = (): RawDeclarations => ({ sharedTypes: [], fragments: [], events: [], gaps: [], apiTypes: [], operations: [], apiGaps: [], apiInfo: [], apiContradictions: [], apiAssumptions: [] });

export interface RawCatalogFile extends RawDeclarations {
  file: string;
  section: string;
}

/** A file that declares any part of the REST API: its path goes to the API's outputs, not the events'. */
export const isApiFile = (f: RawCatalogFile): boolean => API_KINDS.some((kind) => f[kind].length > 0);

/** Every file's declarations side by side, in load order: what the rules check and the resolver reads. */
export interface RawCatalog extends RawDeclarations {
  /** The events' files. */
  files: string[];
  /** The REST API's files: those that declare any of its kinds. */
  apiFiles: string[];
}

export function mergeFiles(files: readonly RawCatalogFile[]): RawCatalog {
  const merged = noDeclarations();
  for (const kind of DECLARATION_KINDS) Object.assign(merged, { [kind]: files.flatMap((f): readonly unknown[] => f[kind]) });
  return { files: files.filter((f) => !isApiFile(f)).map((f) => f.file), apiFiles: files.filter(isApiFile).map((f) => f.file), ...merged };
}

/** Every field list of the catalog with what owns it, for rules about fields. */
export function allFieldLists(catalog: RawCatalog): RawField[][] {
  return [
    ...catalog.sharedTypes.map((t) => t.fields),
    ...catalog.fragments.map((f) => f.fields),
    ...catalog.events.map((e) => e.fields),
    ...catalog.gaps.flatMap((g) => (g.kind === 'unnamed_event' ? [g.visibleFields] : [])),
  ];
}

export const eventKeyOf = (e: Pick<RawEvent, 'type' | 'version'>): string => `${e.type}@${e.version}`;
