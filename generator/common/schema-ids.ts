import type { EventVersionModel } from '../model.js';

/**
 * The `$id` of every published schema and its path under `generated/`: one source for the
 * schemas, the manifest, the event entries and the registry (whose `messageSchemaId` the
 * runtime's CloudEvents `dataschema` uses).
 */

const ID_PREFIX = 'urn:data-import-events';

type EventName = Pick<EventVersionModel, 'type' | 'version'>;

export const schemaIds = {
  payload: (e: EventName) => `${ID_PREFIX}:event:${e.type}:${e.version}:payload`,
  message: (e: EventName) => `${ID_PREFIX}:event:${e.type}:${e.version}:message`,
  shared: (name: string) => `${ID_PREFIX}:shared:${name}`,
};

export const schemaPaths = {
  payload: (e: EventName) => `schemas/events/${e.type}/${e.version}/payload.schema.json`,
  message: (e: EventName) => `schemas/events/${e.type}/${e.version}/message.schema.json`,
  shared: (name: string) => `schemas/shared/${name}.schema.json`,
};
