import type { EventVersionModel } from '../model.js';

/** Where an event's compiled validators go, relative to `generated/` (kept apart from ajv so path users need not load it). */
export const validatorPaths = {
  module: (e: EventVersionModel) => `validators/${e.type}/${e.version}.cjs`,
  declarations: (e: EventVersionModel) => `validators/${e.type}/${e.version}.d.cts`,
  /** ajv's all-errors validators of the event (standalone code), which the package root reads a rejected payload with. */
  errorsModule: (e: EventVersionModel) => `validators/${e.type}/${e.version}.errors.cjs`,
  errorsDeclarations: (e: EventVersionModel) => `validators/${e.type}/${e.version}.errors.d.cts`,
};
