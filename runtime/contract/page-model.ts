/**
 * The reference's page model: whatever both the Markdown reference (`generated/docs/*.md`,
 * `generated/api/README.md`) and the site show, built once by the generator from the catalog
 * (`generator/emit/page-model.ts`). It is published as `generated/docs/pages.json`, which holds
 * only what `generated/manifest.json` does not (`PublishedPages`); the site's reader joins the
 * two back into a `PageModel` (`site-builder/read-pages.ts`).
 *
 * A type is written in catalog notation: a primitive (`string`, `integer`, `number`,
 * `boolean`, `object`), a REST format (`date`, `datetime`, `decimal`) or a named type (a
 * shared type, a REST type), then `[]` per list level.
 */

/** The class of a change, from the consumer's side (the compatibility rules). */
export type Severity = 'breaking' | 'changes-types' | 'compatible';

/** Who a change can break: consumers validating tolerantly, strictly, and code compiled against the types. */
export type Reader = 'tolerant' | 'strict' | 'types';

/** The words both renderers use for verdicts: one vocabulary. */
export interface VerdictWords {
  /** The class of a change (`breaking`, `changes types`, `compatible`). */
  severity: Readonly<Record<Severity, string>>;
  /** A diff with no change at all. */
  unchanged: string;
  /** Each reader, as a diff's impact names it: `tolerant` and `strict` (readers), `code compiled against the earlier types`. */
  readers: Readonly<Record<Reader, string>>;
}

/** A compatibility rule (`generator/compat/rules.ts`): its class, what it does to each reader, and which readers it breaks. */
export interface PageRule {
  severity: Severity;
  /** The change, as the README's table names it. */
  change: string;
  tolerant: string;
  strict: string;
  breaks: readonly Reader[];
}

export interface PageField {
  name: string;
  /** Catalog notation (see above). */
  type: string;
  /** The named type (shared or REST) its value, or each item, is: a link, and fields to expand. */
  namedType?: string;
  optional: boolean;
  nullable: boolean;
  description?: string;
  /** REST fields only: the complete list of values. */
  enum?: readonly string[];
  /** REST fields only: values seen, never enforced. */
  examples?: readonly string[];
  /** A query parameter's default. */
  default?: string | number | boolean;
  /** The seed's words on why an optional field is. */
  whyOptional?: string;
  /** The seed's words about this field, not shown. */
  notShown?: string;
  /** The fewest characters a string may have. */
  minLength?: number;
}

/** One change between two versions of an event type, as the compatibility check words it. */
export interface VersionChange {
  /** A key of `PageModel.rules`. */
  kind: string;
  severity: Severity;
  /** Dotted through swapped shared types (`ledger.number`). */
  field?: string;
  /** One line, with `code` spans. */
  message: string;
}

/** What a consumer of version `from` meets in messages of version `to`, classified by the rules. */
export interface VersionDiff {
  from: string;
  to: string;
  changes: readonly VersionChange[];
  /** The worst change; none when nothing changed. */
  severity?: Severity;
  /** Every reader some change breaks. */
  breaks: readonly Reader[];
  /** The same in words (`breaks tolerant and strict readers`, `breaks no reader`, `no change to the payload`). */
  impact: string;
}

/** A gap of the seed, as the manifest lists it (event keys `type@version`). */
export type PageGap =
  | { kind: 'not_shown'; topic: string; seed: string; section: string }
  | { kind: 'events_not_shown'; after: string | null; before: string | null; seed: string; section: string }
  | { kind: 'unnamed_event'; after: string | null; before: string | null; visibleFields: readonly PageField[]; seed: string; section: string };

export interface PageEvent {
  /** `type@version`. */
  key: string;
  type: string;
  version: string;
  /** The catalog name (`account.created-v1`): the anchor of its section. */
  name: string;
  section: string;
  /** The seed's words when its fields are not all shown. */
  openSeed?: string;
  description?: string;
  /** What it extends, as written: a version of its type (`v1`), an event (`type@version`) or a fragment (`BASE`). */
  extends: readonly string[];
  fields: readonly PageField[];
  /** The catalog files its page comes from. */
  sources: readonly string[];
}

export interface PageEventType {
  type: string;
  section: string;
  /** In catalog order; the last is the latest. */
  versions: readonly string[];
  /** Every ordered pair of two of its versions. */
  diffs: readonly VersionDiff[];
}

export interface PageSharedType {
  name: string;
  tsName: string;
  section: string;
  description?: string;
  fields: readonly PageField[];
  /** `type@version` of every event version reaching it, directly or nested. */
  usedBy: readonly string[];
  /** The catalog file it is declared in. */
  source: string;
}

/** A field list the catalog writes once and reuses (`BASE`). */
export interface PageFragment {
  name: string;
  description?: string;
  extends: readonly string[];
  fields: readonly PageField[];
  /** `type@version` of the event versions extending it directly. */
  extendedBy: readonly string[];
  source: string;
}

export interface PageResponse {
  status: number;
  description: string;
  /** Catalog notation of each type a JSON body may be. */
  json?: readonly string[];
  /** A plain-text body: the seed's words. */
  text?: string;
  /** The seed's words when the body is not shown. */
  notShown?: string;
  /** The seed's rule on sending the request again after this response (`apiRetryRules`). */
  retry?: { retried: boolean; seed: string };
}

export interface PageOperation {
  operationId: string;
  method: 'GET' | 'POST';
  path: string;
  summary?: string;
  description?: string;
  params: readonly PageField[];
  query: readonly PageField[];
  /** Catalog notation of the request body's type. */
  request?: string;
  responses: readonly PageResponse[];
  /** The events each outcome publishes (`type@version`): an assumption (`PageApi.assumptions`). */
  emits: readonly { outcome: string; events: readonly string[] }[];
}

export interface PageApiType {
  name: string;
  description?: string;
  /** The seed's words when more fields may be sent. */
  openSeed?: string;
  /** The seed's words when it does not say which fields are required. */
  requiredNotShown?: string;
  atLeastOneOf?: readonly string[];
  fields: readonly PageField[];
  /** Operations whose request or response body is this type (or a list of it). */
  usedBy: readonly string[];
}

export interface PageApi {
  title: string;
  description?: string;
  sourceFiles: readonly string[];
  contradictions: readonly { topic: string; seed: string; accepted: string }[];
  /** Where the seeds say nothing (which operation emits which event): their words, and what is assumed. */
  assumptions: readonly { topic: string; seed: string; assumed: string }[];
  gaps: readonly { topic: string; seed: string }[];
  operations: readonly PageOperation[];
  types: readonly PageApiType[];
}

export interface PageModel {
  /** Every catalog file, in load order. */
  sourceFiles: readonly string[];
  words: VerdictWords;
  /** The compatibility rules, by change kind. */
  rules: Readonly<Record<string, PageRule>>;
  /** Catalog order. */
  events: readonly PageEvent[];
  /** In order of first appearance. */
  eventTypes: readonly PageEventType[];
  sharedTypes: readonly PageSharedType[];
  fragments: readonly PageFragment[];
  gaps: readonly PageGap[];
  api?: PageApi;
}

/** A field as `pages.json` writes it where the manifest does not, as the manifest writes one: its named type read from its notation, `nullable` only when true. */
export type PublishedField = Omit<PageField, 'namedType' | 'nullable'> & { nullable?: true };

/**
 * `generated/docs/pages.json`: the page model less what `generated/manifest.json` holds (each
 * event version's and shared type's fields, names, sections, `usedBy`, gaps and sources),
 * keyed by the manifest's names.
 */
export interface PublishedPages {
  $comment: string;
  sourceFiles: readonly string[];
  words: VerdictWords;
  rules: Readonly<Record<string, PageRule>>;
  /** By `type@version`, only the event versions that have any: description, `extends`, field descriptions by name. */
  events: Readonly<Record<string, { description?: string; extends?: readonly string[]; fieldDescriptions?: Readonly<Record<string, string>> }>>;
  /** By event type with more than one version: every ordered pair. */
  diffs: Readonly<Record<string, readonly VersionDiff[]>>;
  /** By name: its catalog file, and its description and field descriptions when it has any. */
  sharedTypes: Readonly<Record<string, { source: string; description?: string; fieldDescriptions?: Readonly<Record<string, string>> }>>;
  fragments: readonly (Omit<PageFragment, 'fields'> & { fields: readonly PublishedField[] })[];
  api?: Omit<PageApi, 'operations' | 'types'> & {
    operations: readonly (Omit<PageOperation, 'params' | 'query'> & { params: readonly PublishedField[]; query: readonly PublishedField[] })[];
    types: readonly (Omit<PageApiType, 'fields'> & { fields: readonly PublishedField[] })[];
  };
}

/** Where the page model is published, in `generated/`. */
export const PUBLISHED_PAGES_PATH = 'docs/pages.json';
