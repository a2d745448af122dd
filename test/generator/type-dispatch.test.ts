/**
 * `firstSlotOf` in `generated/registry.cjs` (a decision tree on a type's length and some of its
 * characters, then one comparison) answers exactly as `compiledEvents.get` does, for every
 * catalog type, for strings that differ from one in a single place, and for any string.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledEventSlot } from '../../generated/registry.cjs';

const require = createRequire(import.meta.url);
const registry = require('../../generated/registry.cjs') as {
  compiledEvents: ReadonlyMap<string, CompiledEventSlot>;
  firstSlotOf(type: string): CompiledEventSlot | undefined;
};
const types = [...registry.compiledEvents.keys()];

/** A string equal in content to `text` but built at run time, as `JSON.parse` builds a message's strings. */
const fresh = (text: string): string => JSON.parse(JSON.stringify(text)) as string;

describe('firstSlotOf', () => {
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
