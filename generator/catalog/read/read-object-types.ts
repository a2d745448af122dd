import type { RawCatalogFile, RawObjectType } from './raw-catalog.js';
import { readFields, readReferenceList } from './read-fields.js';
import type { SectionReader } from './section-reader.js';

/** How one surface writes its named object types. */
export interface ObjectTypeSection {
  /** The section's key, for messages: `shared_types`, `api_types`. */
  key: string;
  /** What one type is called in messages: `shared type`, `API type`. */
  label: string;
  /** The keys of a type's body. */
  bodyKeys: readonly string[];
  /** The keys of a field's long form. */
  fieldKeys: readonly string[];
  /** Where the file keeps what is read. */
  into: (out: RawCatalogFile) => RawObjectType[];
}

/**
 * `<key>: { <Name>: { description?, fields, … } }`: named object types, the events' shared
 * types and the REST API's types alike. `open` and `required_not_shown` are the seed's words,
 * `at_least_one_of` names fields of the type; a section that does not list a key refuses it.
 */
export const objectTypesReader =
  (section: ObjectTypeSection): SectionReader =>
  (reader, value, position, out) => {
    const map = reader.mapValue(value, section.key, position);
    for (const [name, typeNode, typePosition] of map ? reader.entries(map, section.key) : []) {
      const what = `${section.label} "${name}"`;
      const body = reader.mapValue(typeNode, what, typePosition);
      if (!body) continue;
      const type: RawObjectType = { name, fields: [], section: out.section, position: typePosition };
      for (const [key, bodyValue, bodyPosition] of reader.entries(body, what, section.bodyKeys)) {
        if (key === 'fields') type.fields = readFields(reader, bodyValue, `${what}: fields`, bodyPosition, section.fieldKeys);
        else if (key === 'description') type.description = reader.stringValue(bodyValue, `${what}: description`, bodyPosition);
        else if (key === 'open') type.open = reader.stringValue(bodyValue, `${what}: open (the seed's words)`, bodyPosition);
        else if (key === 'required_not_shown') type.requiredNotShown = reader.stringValue(bodyValue, `${what}: required_not_shown (the seed's words)`, bodyPosition);
        else if (key === 'at_least_one_of') type.atLeastOneOf = readReferenceList(reader, bodyValue, `${what}: at_least_one_of`, bodyPosition);
      }
      section.into(out).push(type);
    }
  };
