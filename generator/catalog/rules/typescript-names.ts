import { eventTypeName, payloadTypeName, RESERVED_TS_NAMES } from '../../common/ts-names.js';
import type { SourcePosition } from '../../model.js';
import { toTsName } from '../names.js';
import { eventKeyOf } from '../read/raw-catalog.js';
import { formatPosition } from '../problems.js';
import type { DeclarationRule } from './catalog-rule.js';

/**
 * Every TypeScript name the catalog gives `types.ts` is its own: two catalog names may not map
 * to one interface name, and none may take a name the module declares itself (common/ts-names.ts),
 * which TypeScript would silently merge.
 */
export const typescriptNames: DeclarationRule = {
  name: 'typescript-names',
  check(catalog, problems) {
    const owners = new Map<string, { owner: string; position?: SourcePosition }>();
    for (const name of RESERVED_TS_NAMES) owners.set(name, { owner: 'the generated module itself' });
    const claim = (tsName: string, owner: string, position: SourcePosition): void => {
      const existing = owners.get(tsName);
      if (!existing) owners.set(tsName, { owner, position });
      else {
        const at = existing.position ? ` at ${formatPosition(existing.position)}` : '';
        problems.error(position, `${owner} maps to the TypeScript name "${tsName}", already taken by ${existing.owner}${at}; rename one of them`);
      }
    };
    const sharedSeen = new Set<string>();
    for (const shared of catalog.sharedTypes) {
      if (sharedSeen.has(shared.name)) continue; // a duplicate: reported by unique-declarations
      sharedSeen.add(shared.name);
      claim(toTsName(shared.name), `shared type "${shared.name}"`, shared.position);
    }
    const eventsSeen = new Set<string>();
    for (const event of catalog.events) {
      const key = eventKeyOf(event);
      if (eventsSeen.has(key)) continue;
      eventsSeen.add(key);
      const tsName = toTsName(event.type, event.version);
      claim(payloadTypeName({ tsName }), `event ${key}`, event.position);
      claim(eventTypeName({ tsName }), `event ${key}`, event.position);
    }
  },
};
