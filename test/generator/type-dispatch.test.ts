/**
 * `firstSlotOf` (`runtime/internal/event-slots.ts`, over the registry's generated `typeIndex`:
 * a decision tree on a type's length and some of its characters, then one comparison) answers
 * exactly as `compiledEvents.get` does, for every catalog type, for strings that differ from
 * one in a single place, and for any string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventTypes } from '../../generated/registry.cjs';
import { compiledEvents, firstSlotOf } from '../../runtime/internal/event-slots.js';

const registry = { compiledEvents, firstSlotOf };
const types = [...registry.compiledEvents.keys()];

/** A string equal in content to `text` but built at run time, as `JSON.parse` builds a message's strings. */
const fresh = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

describe('firstSlotOf', () => {
  it('has a slot for each type the registry lists, its versions in catalog order', () => {
    expect(types).toEqual(eventTypes.map(([type]) => type));
    for (const [type, versions] of eventTypes) {
      const found: string[] = [];
      for (let slot = compiledEvents.get(type); slot !== undefined; slot = slot.next) found.push(slot.version);
      expect(found, type).toEqual(versions.map(([version]) => version));
    }
  });

  it('finds the first version of every catalog type', () => {
    for (const type of types) expect(registry.firstSlotOf(fresh(type)), type).toBe(registry.compiledEvents.get(type));
  });

  it('finds nothing for a string one character away from a type (changed, cut, added), even where the tree does not look', () => {
    for (const type of types) {
      const near = [type.slice(1), type.slice(0, -1), `${type}x`, `x${type}`, type.toUpperCase()];
      for (let i = 0; i < type.length; i++) near.push(`${type.slice(0, i)}${type[i] === '_' ? '-' : '_'}${type.slice(i + 1)}`);
      for (const text of near) expect(registry.firstSlotOf(fresh(text)), text).toBe(registry.compiledEvents.get(text));
    }
  });

  it('agrees with the Map on any string', () => {
    const near = fc.tuple(fc.constantFrom(...types), fc.nat(), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })).map(([type, at, char]) => {
      const i = at % type.length;
      return `${type.slice(0, i)}${char}${type.slice(i + 1)}`;
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), near, fc.constantFrom('', '__proto__', 'constructor')), (text) => registry.firstSlotOf(text) === registry.compiledEvents.get(text)),
      { numRuns: 20_000 },
    );
  });
});
