import type { ModelRule } from './catalog-rule.js';

/** A shared type no event reaches is a fact of the seed, worth a warning, not an error. */
export const unusedSharedTypes: ModelRule = {
  name: 'unused-shared-types',
  check(model, problems) {
    for (const shared of model.sharedTypes) {
      if (shared.usedBy.length === 0) problems.warning(shared.position, `shared type "${shared.name}" is used by no event`, 'shared types used by no event');
    }
  },
};
