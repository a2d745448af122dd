import type { SourcePosition } from '../../model.js';
import { NAME_RULES } from '../names.js';
import { allFieldLists } from '../read/raw-catalog.js';
import type { DeclarationRule } from './catalog-rule.js';

/** Every name follows its naming rule (names.ts): event types, versions, fields, shared types, fragments. */
export const validNames: DeclarationRule = {
  name: 'valid-names',
  check(catalog, problems) {
    const check = (name: string, rule: keyof typeof NAME_RULES, what: string, position: SourcePosition): void => {
      if (!NAME_RULES[rule].pattern.test(name)) problems.error(position, `invalid ${what} "${name}": use ${NAME_RULES[rule].text}`);
    };
    for (const event of catalog.events) {
      check(event.type, 'eventType', 'event type', event.typePosition);
      check(event.version, 'version', 'version', event.position);
    }
    for (const shared of catalog.sharedTypes) check(shared.name, 'sharedType', 'shared type name', shared.position);
    for (const fragment of catalog.fragments) check(fragment.name, 'fragment', 'fragment name', fragment.position);
    for (const field of allFieldLists(catalog).flat()) check(field.name, 'field', 'field name', field.position);
  },
};
