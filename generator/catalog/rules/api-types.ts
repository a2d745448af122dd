import { API_MODULE_TYPE_NAMES } from '../../common/ts-names.js';
import { formatPosition } from '../problems.js';
import { NAME_RULES } from '../names.js';
import type { RawField } from '../read/raw-catalog.js';
import type { DeclarationRule } from './catalog-rule.js';

const API_TYPE_NAME = { pattern: /^[A-Z][A-Za-z0-9]*$/, text: 'PascalCase letters and digits (it is the TypeScript name too)' };
const STRING_TYPES = new Set(['string', 'date', 'datetime', 'decimal']);

/**
 * API object types: PascalCase names declared once, valid field names, `enum` and `examples`
 * only on strings, and `at_least_one_of` naming optional fields of the type itself.
 */
export const apiTypes: DeclarationRule = {
  name: 'api-types',
  check(catalog, problems) {
    const first = new Map<string, { position: (typeof catalog.apiTypes)[number]['position'] }>();
    for (const type of catalog.apiTypes) {
      if (!API_TYPE_NAME.pattern.test(type.name)) problems.error(type.position, `invalid API type name "${type.name}": use ${API_TYPE_NAME.text}`);
      if ((API_MODULE_TYPE_NAMES as readonly string[]).includes(type.name)) problems.error(type.position, `API type name "${type.name}" is taken by the generated API types (${API_MODULE_TYPE_NAMES.join(', ')})`);
      const existing = first.get(type.name);
      if (existing) problems.error(type.position, `duplicate API type "${type.name}" (first defined at ${formatPosition(existing.position)})`);
      else first.set(type.name, type);
      checkFields(type.fields, `API type "${type.name}"`, problems);
      for (const ref of type.atLeastOneOf ?? []) {
        const field = type.fields.find((f) => f.name === ref.ref);
        if (!field) problems.error(ref.position, `API type "${type.name}": at_least_one_of names "${ref.ref}", which is not one of its fields`);
        else if (!field.optional) problems.error(ref.position, `API type "${type.name}": at_least_one_of names "${ref.ref}", which is required anyway (write it "${ref.ref}?")`);
      }
      if (type.atLeastOneOf && type.atLeastOneOf.length < 2) problems.error(type.position, `API type "${type.name}": at_least_one_of needs two or more fields`);
    }
    for (const op of catalog.operations) {
      checkFields(op.params, `operation "${op.operationId}" params`, problems);
      checkFields(op.query, `operation "${op.operationId}" query`, problems);
    }
  },
};

function checkFields(fields: readonly RawField[], owner: string, problems: Parameters<DeclarationRule['check']>[1]): void {
  for (const field of fields) {
    if (!NAME_RULES.field.pattern.test(field.name)) problems.error(field.position, `invalid field name "${field.name}" in ${owner}: use ${NAME_RULES.field.text}`);
    for (const key of ['enum', 'examples'] as const) {
      if (field[key] && !STRING_TYPES.has(field.typeText)) problems.error(field.position, `${owner}: field "${field.name}" has ${key} but is not a string (${field.typeText})`);
    }
    if (field.enum && field.examples) problems.error(field.position, `${owner}: field "${field.name}" has both enum (every value) and examples (values seen): keep one`);
  }
}
