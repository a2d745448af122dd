import { suggestion } from '../names.js';
import { eventKeyOf } from '../read/raw-catalog.js';
import type { DeclarationRule } from './catalog-rule.js';

/** A gap's `after` and `before` name event versions of the catalog. */
export const gapReferences: DeclarationRule = {
  name: 'gap-references',
  check(catalog, problems) {
    const keys = new Set(catalog.events.map(eventKeyOf));
    for (const gap of catalog.gaps) {
      if (gap.kind === 'not_shown') continue;
      for (const ref of [gap.after, gap.before]) {
        if (ref && !keys.has(ref.ref)) problems.error(ref.position, `unknown event version "${ref.ref}"${suggestion(ref.ref, keys)}`);
      }
    }
  },
};
