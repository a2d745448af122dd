import type { SourcePosition } from '../../model.js';
import { eventKeyOf } from '../read/raw-catalog.js';
import { formatPosition } from '../problems.js';
import type { DeclarationRule } from './catalog-rule.js';

/** One declaration per shared type, fragment and event version across all files (within a file, YAML keys already are). */
export const uniqueDeclarations: DeclarationRule = {
  name: 'unique-declarations',
  check(catalog, problems) {
    const once = <T extends { position: SourcePosition }>(items: readonly T[], key: (item: T) => string, what: (key: string) => string): void => {
      const first = new Map<string, T>();
      for (const item of items) {
        const existing = first.get(key(item));
        if (existing) problems.error(item.position, `duplicate ${what(key(item))} (first defined at ${formatPosition(existing.position)})`);
        else first.set(key(item), item);
      }
    };
    once(catalog.sharedTypes, (t) => t.name, (name) => `shared type "${name}"`);
    once(catalog.fragments, (f) => f.name, (name) => `fragment "${name}"`);
    once(catalog.events, eventKeyOf, (key) => `event ${key}`);
  },
};
