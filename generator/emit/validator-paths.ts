import type { EventVersionModel } from '../model.js';

/** What a path needs of an event: the manifest's events (read by the package build) have it too. */
type EventKey = Pick<EventVersionModel, 'type' | 'version'>;

/** Where an event's compiled validators go, relative to `generated/` (kept apart from ajv so path users need not load it). */
export const validatorPaths = {
  module: (e: EventKey) => `validators/${e.type}/${e.version}.cjs`,
  declarations: (e: EventKey) => `validators/${e.type}/${e.version}.d.cts`,
  /** ajv's all-errors validators of the event (standalone code), which the package root reads a rejected payload with. */
  errorsModule: (e: EventKey) => `validators/${e.type}/${e.version}.errors.cjs`,
  errorsDeclarations: (e: EventKey) => `validators/${e.type}/${e.version}.errors.d.cts`,
};
