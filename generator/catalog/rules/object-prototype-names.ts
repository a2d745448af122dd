import { allFieldLists } from '../read/raw-catalog.js';
import type { DeclarationRule } from './catalog-rule.js';

/**
 * Names that every JavaScript object already has (`constructor`, `toString`, `__proto__`, …).
 * A field of that name would be read through the prototype by generated property access
 * (`data.constructor` is a function on any object), and a schema keyed by it would change an
 * object's prototype: refused outright, whatever the validator code would do.
 */
export const OBJECT_PROTOTYPE_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** No catalog name may be one of `Object.prototype`'s own property names. */
export const objectPrototypeNames: DeclarationRule = {
  name: 'object-prototype-names',
  check(catalog, problems) {
    const refuse = (name: string, what: string, position: Parameters<typeof problems.error>[0]): void => {
      if (OBJECT_PROTOTYPE_NAMES.has(name)) {
        problems.error(position, `${what} "${name}" is a property every JavaScript object inherits (Object.prototype.${name}); validators and generated code would read the inherited one: rename it`);
      }
    };
    for (const field of allFieldLists(catalog).flat()) refuse(field.name, 'field name', field.position);
    for (const shared of catalog.sharedTypes) refuse(shared.name, 'shared type name', shared.position);
    for (const event of catalog.events) {
      refuse(event.type, 'event type', event.typePosition);
      refuse(event.version, 'version', event.position);
    }
  },
};
