import { isPrimitive, parseTypeNotation, PRIMITIVES } from '../../common/type-notation.js';
import type { TypeRef } from '../../model.js';
import { suggestion } from '../names.js';
import type { ProblemList } from '../problems.js';
import type { RawField } from '../read/raw-catalog.js';

/** The seed's one-letter types, for hints. */
const SEED_LETTERS: ReadonlyMap<string, string> = new Map([['s', 'string'], ['i', 'integer'], ['n', 'number'], ['b', 'boolean'], ['o', 'object']]);

/** A field's type notation as a `TypeRef`, or a positioned error: bad notation, unknown type. */
export function resolveType(field: RawField, sharedTypeNames: ReadonlySet<string>, problems: ProblemList): TypeRef | undefined {
  const parsed = parseTypeNotation(field.typeText);
  if (!parsed) {
    const seedArray = /^a\[(.+)\]$/.exec(field.typeText);
    const hint = seedArray ? ` (write "${SEED_LETTERS.get(seedArray[1]!) ?? seedArray[1]}[]" for an array)` : '';
    problems.error(field.typePosition, `bad field notation "${field.typeText}" for "${field.name}": expected a primitive, a shared type name, or T[]${hint}`);
    return undefined;
  }
  const { base, depth } = parsed;
  let type: TypeRef;
  if (isPrimitive(base)) type = { kind: 'primitive', name: base };
  else if (sharedTypeNames.has(base)) type = { kind: 'named', name: base };
  else {
    const seedLetter = SEED_LETTERS.get(base);
    const hint = seedLetter ? ` (the seed's "${base}" is written "${seedLetter}")` : suggestion(base, [...PRIMITIVES, ...sharedTypeNames]);
    problems.error(field.typePosition, `unknown type "${base}" for field "${field.name}"${hint}`);
    return undefined;
  }
  for (let level = depth; level > 0; level--) type = { kind: 'array', items: type };
  return type;
}
