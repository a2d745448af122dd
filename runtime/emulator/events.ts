/**
 * The events an outcome publishes: which ones is catalog data (`apiOperationEvents`, an
 * assumption: the seeds do not say), what they carry is written here, one builder per event
 * the catalog names: a new event in the mapping does not compile until it has one.
 */
import { apiOperationEvents } from '../../generated/api/operations.js';
import type { CatalogEvent } from '../index.js';
import type { OperationId } from '../rest/index.js';

/** What an outcome's events say about the account and the operation. */
export interface EventFacts {
  /** What the operation imported: `ACCOUNT`, `NOTE`, `TRANSACTION`, `HISTORICAL_STATEMENT`, `PAYMENT_INSTRUCTION`. */
  resourceType: string;
  externalAccountNumber: string;
  platformAccountNumber?: string;
  /** A refusal's `code` and `detail`, as the response body gives them. */
  errorCode?: string;
  errorDetail?: string;
}

type Mapping = typeof apiOperationEvents;
type MappedRef = { [Op in keyof Mapping]: { [Outcome in keyof Mapping[Op]]: Mapping[Op][Outcome] extends readonly (infer Ref)[] ? Ref : never }[keyof Mapping[Op]] }[keyof Mapping];
type EventOfRef<Ref> = Ref extends { type: infer T; version: infer V } ? Extract<CatalogEvent, { type: T; version: V }> : never;
/** Every event the catalog's mapping names. */
export type EmulatedEvent = EventOfRef<MappedRef>;

/** A fact an event needs that the outcome did not give is a bug of the emulator's own. */
function required(value: string | undefined, name: string, facts: EventFacts): string {
  if (value === undefined) throw new Error(`emulator: an event needs ${name}, which the ${facts.resourceType} outcome did not give`);
  return value;
}

const PAYLOADS: { [E in EmulatedEvent as `${E['type']}@${E['version']}`]: (facts: EventFacts) => E['payload'] } = {
  'data_import.import_process.complete@v1': (f) => ({ resource_type: f.resourceType, external_identifier: f.externalAccountNumber, identifier: required(f.platformAccountNumber, 'the platform account number', f) }),
  'data_import.import_process.error@v1': (f) => ({ resource_type: f.resourceType, external_identifier: f.externalAccountNumber, error_code: required(f.errorCode, 'an error code', f), error_detail: required(f.errorDetail, 'an error detail', f) }),
  'data_import.import_process.dry_run_complete@v1': (f) => ({ resource_type: f.resourceType, external_identifier: f.externalAccountNumber }),
  'data_import.import_process.dry_run_error@v1': (f) => ({ resource_type: f.resourceType, external_identifier: f.externalAccountNumber, error_code: required(f.errorCode, 'an error code', f), error_detail: required(f.errorDetail, 'an error detail', f) }),
  'data_import.import_process.post_import.completed@v1': (f) => ({
    resource_type: f.resourceType,
    import_process_resource_type: 'ACCOUNT',
    import_process_external_identifier: f.externalAccountNumber,
    identifier: required(f.platformAccountNumber, 'the platform account number', f),
  }),
  'data_import.import_process.post_import.error@v1': (f) => ({
    resource_type: f.resourceType,
    import_process_resource_type: 'ACCOUNT',
    import_process_external_identifier: f.externalAccountNumber,
    error_code: required(f.errorCode, 'an error code', f),
    error_detail: required(f.errorDetail, 'an error detail', f),
  }),
};

const mapping: Readonly<Record<string, Readonly<Record<string, readonly { type: string; version: string }[]>>>> = apiOperationEvents;

/** The events of one outcome, in the catalog's order (none when the catalog names none). */
export function eventsOf(operationId: OperationId, outcome: string, facts: EventFacts): CatalogEvent[] {
  const refs = Object.hasOwn(mapping, operationId) && Object.hasOwn(mapping[operationId]!, outcome) ? mapping[operationId]![outcome]! : [];
  return refs.map(({ type, version }) => {
    const build = (PAYLOADS as Record<string, ((facts: EventFacts) => unknown) | undefined>)[`${type}@${version}`];
    if (!build) throw new Error(`emulator: no payload for ${type} ${version}`);
    // Checked by validateEvent before it is logged or published.
    return { type, version, payload: build(facts) } as CatalogEvent;
  });
}

/** Every (operation, outcome) of the mapping, and every event it names: what the coverage counts. */
export const mappedOutcomes: readonly { operationId: OperationId; outcome: string; events: readonly string[] }[] = Object.entries(mapping).flatMap(([operationId, outcomes]) =>
  Object.entries(outcomes).map(([outcome, refs]) => ({ operationId: operationId as OperationId, outcome, events: refs.map((r) => `${r.type}@${r.version}`) })),
);
