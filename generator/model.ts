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

export type TypeRef =
  | { kind: 'primitive'; name: PrimitiveName }
  | { kind: 'array'; items: TypeRef }
  /** A shared object type, by its catalog (seed) name. */
  | { kind: 'named'; name: string };

export interface FieldModel {
  name: string;
  type: TypeRef;
  optional: boolean;
  nullable: boolean;
  description?: string;
  position: SourcePosition;
}

/** A named object schema that is not an event (the seed's shared object types). */
export interface ObjectTypeModel {
  /** Catalog name, exactly as the seed writes it (`billing-_billing-Ledger`). */
  name: string;
  /** TypeScript interface name (`BillingBillingLedger`). */
  tsName: string;
  fields: FieldModel[];
  description?: string;
  section: string;
  position: SourcePosition;
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
  sharedTypes: ObjectTypeModel[];
  /** Fragments, in catalog order. */
  fragments: FragmentModel[];
  gaps: GapModel[];
}
