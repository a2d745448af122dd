import type { EventVersionModel } from '../model.js';

/**
 * Every name `types.ts` declares, in one place: the types emitter names its declarations from
 * here, and the catalog refuses a type whose TypeScript name would take one of them.
 */

/** Declarations of the module itself, whatever the catalog holds. */
export const MODULE_TYPE_NAMES = {
  union: 'CatalogEvent',
  byType: 'EventsByType',
  byKey: 'EventMap',
  eventType: 'EventType',
  eventVersion: 'EventVersion',
  eventOf: 'EventOf',
  payloadOf: 'PayloadOf',
  eventKey: 'EventKey',
} as const;

export const RESERVED_TS_NAMES: readonly string[] = Object.values(MODULE_TYPE_NAMES);

/** The payload interface of an event version: `AccountCreatedV1Payload`. */
export const payloadTypeName = (e: Pick<EventVersionModel, 'tsName'>): string => `${e.tsName}Payload`;

/** The message (envelope) interface of an event version: `AccountCreatedV1Event`. */
export const eventTypeName = (e: Pick<EventVersionModel, 'tsName'>): string => `${e.tsName}Event`;

/**
 * Names `generated/api/types.ts` declares besides the catalog's API types: the types emitter
 * writes them, and the catalog refuses an API type that takes one.
 */
export const API_MODULE_TYPE_NAMES = ['ApiOperations', 'OperationId', 'ApiRequest', 'ApiResponse', 'ApiStatus', 'ApiParams', 'ApiQuery', 'IsoDate', 'IsoDateTime', 'DecimalString'] as const;
