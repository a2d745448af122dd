import { codeBanner } from '../common/banner.js';
import { commentText } from '../common/safe-text.js';
import type { ApiFieldModel, ApiObjectTypeModel, ApiOperationModel, ApiResponseModel, ApiTypeRef, CatalogModel } from '../model.js';
import { fieldNotes } from './api-json-schema.js';
import type { EmittedFile } from './emitted-file.js';

export const API_TYPES_PATH = 'api/types.ts';


/** One line of TSDoc: catalog text cannot end the comment or break the line. */
const doc = (text: string | undefined, indent = ''): string => (text === undefined ? '' : `${indent}/** ${commentText(text).replace(/\*\//g, '*\\/')} */\n`);

const FORMAT_NAMES = { date: 'IsoDate', datetime: 'IsoDateTime', decimal: 'DecimalString' } as const;

function tsType(type: ApiTypeRef): string {
  switch (type.kind) {
    case 'primitive':
      return type.name === 'integer' ? 'number' : type.name === 'object' ? 'Record<string, unknown>' : type.name;
    case 'format':
      return FORMAT_NAMES[type.name];
    case 'array': {
      const items = tsType(type.items);
      return /[ |&]/.test(items) ? `(${items})[]` : `${items}[]`;
    }
    case 'named':
      return type.name;
  }
}

function fieldType(field: ApiFieldModel): string {
  const base = field.enum ? field.enum.map((v) => JSON.stringify(v)).join(' | ') : tsType(field.type);
  return field.nullable ? `${base} | null` : base;
}

const property = (field: ApiFieldModel, indent: string): string => `${doc(fieldNotes(field), indent)}${indent}${field.name}${field.optional ? '?' : ''}: ${fieldType(field)};\n`;

function objectType(type: ApiObjectTypeModel): string {
  const notes = [type.description, type.open && `Open: ${type.open.seed}`, type.requiredNotShown && `Every field is optional: ${type.requiredNotShown}`].filter((n): n is string => !!n).join(' ') || undefined;
  const members = type.fields.map((f) => property(f, '  ')).join('') + (type.open ? '  [field: string]: unknown;\n' : '');
  if (!type.atLeastOneOf) return `${doc(notes)}export interface ${type.name} {\n${members}}\n`;
  // "At least one of": each alternative makes one of the named fields required.
  const alternatives = type.atLeastOneOf.map((name) => `{ ${name}: ${fieldType(type.fields.find((f) => f.name === name)!)} }`);
  return `${doc(notes ?? `At least one of ${type.atLeastOneOf.join(', ')} is required.`)}export type ${type.name} = {\n${members}} & (${alternatives.join(' | ')});\n`;
}

function fieldsType(fields: readonly ApiFieldModel[]): string {
  if (fields.length === 0) return 'never';
  return `{\n${fields.map((f) => property(f, '      ')).join('')}    }`;
}

function responseType(response: ApiResponseModel): string {
  if (response.notShown !== undefined) return 'unknown';
  const options = [...(response.json ?? []).map(tsType), ...(response.text !== undefined ? [JSON.stringify(response.text)] : [])];
  return options.join(' | ');
}

function operationEntry(op: ApiOperationModel): string {
  const responses = op.responses.map((r) => `${doc(r.notShown ? `${r.description}. Body: ${r.notShown}` : r.description, '      ')}      ${r.status}: ${responseType(r)};\n`).join('');
  return [
    doc(`${op.method} ${op.path}${op.description ? ` — ${op.description}` : ''}`, '  '),
    `  ${op.operationId}: {\n`,
    `    method: ${JSON.stringify(op.method)};\n`,
    `    path: ${JSON.stringify(op.path)};\n`,
    `    params: ${fieldsType(op.params)};\n`,
    `    query: ${fieldsType(op.query)};\n`,
    `    request: ${op.request ? tsType(op.request) : 'never'};\n`,
    `    responses: {\n${responses}    };\n`,
    '  };\n',
  ].join('');
}

/**
 * `api/types.ts`: an interface per API type, and the operation map keyed by operation id
 * that every typed surface reads (`ApiRequest<Op>`, `ApiResponse<Op, Status>`).
 */
export function emitApiTypes(model: CatalogModel): EmittedFile[] {
  const api = model.api;
  if (!api) return [];
  const text = [
    codeBanner(api.sourceFiles),
    '/** A date as the seed writes it: `YYYY-MM-DD`. */\nexport type IsoDate = string;\n',
    '/** A datetime as the seed writes it: `YYYY-MM-DDTHH:MM:SSZ`. */\nexport type IsoDateTime = string;\n',
    '/** A decimal with two places, as text (`"12.50"`): how responses write amounts. */\nexport type DecimalString = string;\n',
    ...api.types.map(objectType),
    '/** Every operation of the REST API, by operation id, in seed order. */\n',
    `export interface ApiOperations {\n${api.operations.map(operationEntry).join('')}}\n`,
    'export type OperationId = keyof ApiOperations;\n',
    '/** The request body of an operation (`never` for a GET). */\nexport type ApiRequest<Op extends OperationId> = ApiOperations[Op][\'request\'];\n',
    '/** The statuses the seed names for an operation. */\nexport type ApiStatus<Op extends OperationId> = keyof ApiOperations[Op][\'responses\'] & number;\n',
    '/** The response body of an operation at a status (all its statuses when none is given). */\nexport type ApiResponse<Op extends OperationId, Status extends ApiStatus<Op> = ApiStatus<Op>> = ApiOperations[Op][\'responses\'][Status];\n',
    '/** The path parameters of an operation (`never` when it has none). */\nexport type ApiParams<Op extends OperationId> = ApiOperations[Op][\'params\'];\n',
    '/** The query parameters of an operation (`never` when it has none). */\nexport type ApiQuery<Op extends OperationId> = ApiOperations[Op][\'query\'];\n',
  ].join('\n');
  return [{ path: API_TYPES_PATH, contents: text }];
}
