import type { EventVersionModel } from '../model.js';

/** Where an event's compiled validators go, relative to `generated/` (kept apart from ajv so path users need not load it). */
export const validatorPaths = {
  module: (e: EventVersionModel) => `validators/${e.type}/${e.version}.cjs`,
  declarations: (e: EventVersionModel) => `validators/${e.type}/${e.version}.d.cts`,
};
