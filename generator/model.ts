/**
 * The resolved catalog: the intermediate representation every emitter reads.
 * Nothing here refers back to YAML; reuse (`extends`) is already flattened.
 */

/** Where something was written, for messages: `catalog/<file>.yaml:<line>:<col>`. */
export interface SourcePosition {
  file: string;
  line: number;
  col: number;
}

export type PrimitiveName = 'string' | 'integer' | 'number' | 'boolean' | 'object';

/** A string with a format the REST seed states: `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SSZ`, a two-place decimal. The events' seed states none. */
export type FormatName = 'date' | 'datetime' | 'decimal';

/** A field's type, on every surface. */
export type TypeRef =
  | { kind: 'primitive'; name: PrimitiveName }
  | { kind: 'format'; name: FormatName }
  | { kind: 'array'; items: TypeRef }
  /** An object type of the same surface (an events' shared type, a REST API type), by its catalog name. */
  | { kind: 'named'; name: string };

/**
 * What a field may say besides its name and type, on every surface: what the REST seed says
 * (value lists, examples, defaults, its words on why a field is optional or not shown) are
 * options the events' catalog does not use.
 */
export interface FieldOptions {
  description?: string;
  /** The complete list of values, where the seed gives one. */
  enum?: string[];
  /** Values seen: documented, never enforced. */
  examples?: string[];
  /** A query parameter's default. */
  default?: string | number | boolean;
  /** The seed's words saying why an optional field is optional. */
  whyOptional?: string;
  /** The seed's words about this field that is not shown. */
  notShown?: string;
}

/** A field, on every surface. */
export interface FieldModel extends FieldOptions {
  name: string;
  type: TypeRef;
  optional: boolean;
  nullable: boolean;
  /** The fewest characters a string field may have (a path parameter: at least 1). */
  minLength?: number;
  position: SourcePosition;
}

/** A named object type, on every surface: an events' shared type, a REST API type. */
export interface ObjectTypeModel {
  /** Catalog name, exactly as the seed writes it (`billing-_billing-Ledger`, `NotesRequest`). */
  name: string;
  /** TypeScript name (`BillingBillingLedger`; a REST API type's name is one already). */
  tsName: string;
  fields: FieldModel[];
  description?: string;
  /** `false`, or the seed's words saying which fields are not shown: more fields may be sent. */
  open: false | { seed: string };
  /** The seed's words when it does not say which fields are required: every field is optional. */
  requiredNotShown?: string;
  /** Field names of which at least one must be present. */
  atLeastOneOf?: string[];
  section: string;
  position: SourcePosition;
}

/** A named object schema that is not an event (the events' seed's shared object types). */
export interface SharedTypeModel extends ObjectTypeModel {
  /** Keys (`type@version`) of the events whose payloads reach this type, directly or nested. */
  usedBy: string[];
}

export interface EventVersionModel {
  type: string;
  version: string;
  /** `type@version`: the lookup key used across the package. */
  key: string;
  /** The seed's catalog name, `<event type>-<version>`. */
  name: string;
  /** TypeScript base name (`AccountCreatedV1`); payload interface is `<tsName>Payload`. */
  tsName: string;
  fields: FieldModel[];
  /** `false`, or the seed's words saying which fields are not shown. */
  open: false | { seed: string };
  description?: string;
  /** Where the payload's fields came from, for docs: the references it extends. */
  extends: string[];
  section: string;
  position: SourcePosition;
}

/** A field list the catalog writes once and reuses (`BASE`, `DEPOSIT_BASE`): documented, never emitted as a type. */
export interface FragmentModel {
  name: string;
  /** Its fields, with its own reuse flattened. */
  fields: FieldModel[];
  description?: string;
  /** The references it extends, as written. */
  extends: string[];
  /** Keys (`type@version`) of the event versions that extend it directly. */
  extendedBy: string[];
  position: SourcePosition;
}

export type GapModel =
  | { kind: 'events_not_shown'; after?: string; before?: string; seed: string; section: string; position: SourcePosition }
  | {
      kind: 'unnamed_event';
      after?: string;
      before?: string;
      seed: string;
      visibleFields: FieldModel[];
      section: string;
      position: SourcePosition;
    }
  | { kind: 'not_shown'; topic: string; seed: string; section: string; position: SourcePosition };

export interface CatalogModel {
  /** Catalog files read, relative to the catalog's parent (`catalog/05-account-events.yaml`), in load order. */
  sourceFiles: string[];
  /** Every event version, in catalog order (file order, then order within the file). */
  events: EventVersionModel[];
  /** Shared object types, in catalog order. */
  sharedTypes: SharedTypeModel[];
  /** Fragments, in catalog order. */
  fragments: FragmentModel[];
  gaps: GapModel[];
  /** The REST API (`catalog/api/*.yaml`); absent when the catalog declares none. */
  api?: ApiModel;
}

// ---------------------------------------------------------------------------------------
// The REST API
// ---------------------------------------------------------------------------------------

export interface ApiResponseModel {
  /** HTTP status code. */
  status: number;
  description: string;
  /** JSON body: one type, or several the body may be (any of them). */
  json?: TypeRef[];
  /** A plain-text body: the seed's exact words. */
  text?: string;
  /** The seed's words when the body is not shown. */
  notShown?: string;
  /** What the seed says of sending the request again after this response: its words, and whether a client does. */
  retry?: ApiRetryModel;
  position: SourcePosition;
}

/** A retry rule of the seed (`retry as-is`, `do not retry in the same form`). */
export interface ApiRetryModel {
  /** Whether a client sends the same request again (after a back-off). */
  retried: boolean;
  /** The seed's words. */
  seed: string;
}

export interface ApiOperationModel {
  /** The operation id (`createNotes`): the name every API output uses. */
  operationId: string;
  method: 'GET' | 'POST';
  /** OpenAPI path template below `{base_url}` (`/v1/…/{import_supplier_code}/`). */
  path: string;
  /** A short title (the seed's name for the endpoint): OpenAPI's `summary`, docs' headings. */
  summary?: string;
  description?: string;
  params: FieldModel[];
  query: FieldModel[];
  request?: TypeRef;
  /** In ascending status order. */
  responses: ApiResponseModel[];
  /** The events each outcome publishes, in catalog order: an assumption (see `ApiModel.assumptions`). */
  emits: ApiEmitsModel[];
  section: string;
  position: SourcePosition;
}

/** One outcome of an operation (`created`, `refused`) and the catalog events it publishes. */
export interface ApiEmitsModel {
  outcome: string;
  events: { type: string; version: string }[];
  position: SourcePosition;
}

export interface ApiGapModel {
  topic: string;
  seed: string;
  section: string;
  position: SourcePosition;
}

export interface ApiContradictionModel {
  topic: string;
  /** The seed's words (a quote of it). */
  seed: string;
  /** What the contract accepts because of it. */
  accepted: string;
  position: SourcePosition;
}

/** Where the seeds say nothing and the package assumes something: their words, and what is assumed. */
export interface ApiAssumptionModel {
  topic: string;
  /** The seed's words (a quote of it). */
  seed: string;
  assumed: string;
  position: SourcePosition;
}

/** A group of operations (OpenAPI's tag): every operation is in exactly one when the catalog groups them. */
export interface ApiTagModel {
  name: string;
  description: string;
  /** Operation ids, as listed. */
  operations: string[];
}

export interface ApiModel {
  /** The API's catalog files, in load order. */
  sourceFiles: string[];
  title: string;
  description?: string;
  /** Whom to contact about the API: the one party the seed names, without an address. */
  contact?: string;
  /** Groups of operations, in catalog order; empty when the catalog does not group them. */
  tags: ApiTagModel[];
  /** Where the seed contradicts itself, and what is accepted: said in the docs and the OpenAPI document. */
  contradictions: ApiContradictionModel[];
  /** What is assumed where the seeds are silent (which operation emits which event): said in the docs, never in the OpenAPI document. */
  assumptions: ApiAssumptionModel[];
  /** In catalog order. */
  operations: ApiOperationModel[];
  /** In catalog order. */
  types: ObjectTypeModel[];
  gaps: ApiGapModel[];
}
