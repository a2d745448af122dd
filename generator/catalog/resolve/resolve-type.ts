import { isPrimitive, parseTypeNotation, PRIMITIVES } from '../../common/type-notation.js';
import type { FieldModel, FormatName, ObjectTypeModel, TypeRef } from '../../model.js';
import { suggestion } from '../names.js';
import type { ProblemList } from '../problems.js';
import type { RawField, RawObjectType, RawTypeText } from '../read/raw-catalog.js';

/** Strings with a format the REST seed states, written as types in the notation. */
export const FORMATS: readonly FormatName[] = ['date', 'datetime', 'decimal'];

/** What one surface's type notation may name besides the primitives. */
export interface TypeVocabulary {
  /** Its object types, by catalog name. */
  names: ReadonlySet<string>;
  /** One of them in messages, with its article: `a shared type`, `an API type`. */
  aName: string;
  /** The formats it offers: the REST API's; the events' seed states none. */
  formats: readonly FormatName[];
}

/** The seed's one-letter types, for hints. */
const SEED_LETTERS: ReadonlyMap<string, string> = new Map([['s', 'string'], ['i', 'integer'], ['n', 'number'], ['b', 'boolean'], ['o', 'object']]);

const isFormat = (name: string, vocabulary: TypeVocabulary): name is FormatName => (vocabulary.formats as readonly string[]).includes(name);

/** `Note[]`, `datetime`, `billing-_billing-Ledger` → a `TypeRef`, or a positioned error (bad notation, unknown type) for `what`. */
export function resolveType(text: RawTypeText, what: string, vocabulary: TypeVocabulary, problems: ProblemList): TypeRef | undefined {
  const parsed = parseTypeNotation(text.typeText);
  if (!parsed) {
    const seedArray = /^a\[(.+)\]$/.exec(text.typeText);
    const hint = seedArray ? ` (write "${SEED_LETTERS.get(seedArray[1]!) ?? seedArray[1]}[]" for an array)` : '';
    const formats = vocabulary.formats.length > 0 ? `a format (${vocabulary.formats.join(', ')}), ` : '';
    problems.error(text.position, `bad type notation "${text.typeText}" for ${what}: expected a primitive, ${formats}${vocabulary.aName} name, or T[]${hint}`);
    return undefined;
  }
  const { base, depth } = parsed;
  let type: TypeRef;
  if (isPrimitive(base)) type = { kind: 'primitive', name: base };
  else if (isFormat(base, vocabulary)) type = { kind: 'format', name: base };
  else if (vocabulary.names.has(base)) type = { kind: 'named', name: base };
  else {
    const seedLetter = SEED_LETTERS.get(base);
    const hint = seedLetter ? ` (the seed's "${base}" is written "${seedLetter}")` : suggestion(base, [...PRIMITIVES, ...vocabulary.formats, ...vocabulary.names]);
    problems.error(text.position, `unknown type "${base}" for ${what}${hint}`);
    return undefined;
  }
  for (let level = depth; level > 0; level--) type = { kind: 'array', items: type };
  return type;
}

/** The options a field may carry besides its type, copied as written. */
const FIELD_OPTIONS = ['description', 'enum', 'examples', 'default', 'whyOptional', 'notShown'] as const;

/** A field as the model holds it, or `undefined` after a positioned error; `what` names it in messages (`field "x"`, `field "x" of API type "T"`). */
export function resolveField(field: RawField, what: string, vocabulary: TypeVocabulary, problems: ProblemList): FieldModel | undefined {
  const type = resolveType({ typeText: field.typeText, position: field.typePosition }, what, vocabulary, problems);
  if (!type) return undefined;
  const model: FieldModel = { name: field.name, type, optional: field.optional, nullable: field.nullable, position: field.position };
  for (const key of FIELD_OPTIONS) if (field[key] !== undefined) Object.assign(model, { [key]: field[key] });
  if (field.minLength !== undefined) {
    if (type.kind === 'primitive' && type.name === 'string') model.minLength = field.minLength.value;
    else problems.error(field.minLength.position, `min_length of ${what}: only a string field has a length (the field is ${field.typeText})`);
  }
  return model;
}

/**
 * A named object type as the model holds it: its fields resolved (each named `field "x"`, and
 * `of <owner>` when `owner` is given), and every field optional where the seed does not say
 * which are required (the type keeps the seed's words).
 */
export function resolveObjectType(raw: RawObjectType, tsName: string, vocabulary: TypeVocabulary, problems: ProblemList, owner?: string): ObjectTypeModel {
  const fields = raw.fields.flatMap((f) => resolveField(f, owner === undefined ? `field "${f.name}"` : `field "${f.name}" of ${owner}`, vocabulary, problems) ?? []);
  const model: ObjectTypeModel = {
    name: raw.name,
    tsName,
    fields: raw.requiredNotShown === undefined ? fields : fields.map((f) => ({ ...f, optional: true })),
    open: raw.open === undefined ? false : { seed: raw.open },
    section: raw.section,
    position: raw.position,
  };
  if (raw.description !== undefined) model.description = raw.description;
  if (raw.requiredNotShown !== undefined) model.requiredNotShown = raw.requiredNotShown;
  if (raw.atLeastOneOf !== undefined) model.atLeastOneOf = raw.atLeastOneOf.map((r) => r.ref);
  return model;
}
