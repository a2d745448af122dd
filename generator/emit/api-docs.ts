import { bannerText } from '../common/banner.js';
import { markdownText } from '../common/safe-text.js';
import { inlineCode, plural } from '../common/text.js';
import type { ApiModel, ApiOperationModel, ApiResponseModel, CatalogModel, FieldModel, ObjectTypeModel, TypeRef } from '../model.js';
import type { EmittedFile } from './emitted-file.js';

export const API_DOCS_PATH = 'api/README.md';

/** A table cell: Markdown kept, no HTML, no line break or pipe that would end the cell. */
const cell = (text: string): string => markdownText(text).replace(/\n/g, ' ').replace(/\|/g, '\\|');

const FORMAT_TEXT = { date: 'date (`YYYY-MM-DD`)', datetime: 'datetime (`YYYY-MM-DDTHH:MM:SSZ`)', decimal: 'decimal string (two places)' } as const;

function typeText(type: TypeRef): string {
  switch (type.kind) {
    case 'primitive':
      return type.name;
    case 'format':
      return FORMAT_TEXT[type.name];
    case 'array':
      return `array of ${typeText(type.items)}`;
    case 'named':
      return `[${type.name}](#${type.name.toLowerCase()})`;
  }
}

function fieldType(field: FieldModel): string {
  const values = field.enum ? `: one of ${field.enum.map(inlineCode).join(', ')}` : '';
  const length = field.minLength === undefined ? '' : `, at least ${plural(field.minLength, 'character')}`;
  return `${typeText(field.type)}${values}${length}${field.nullable ? ', or null' : ''}`;
}

function fieldNotesCell(field: FieldModel): string {
  const parts = [
    field.description,
    field.examples && `values seen: ${field.examples.map(inlineCode).join(', ')} (not a complete list)`,
    field.default !== undefined && `default ${inlineCode(String(field.default))}`,
    field.notShown,
  ].filter((p): p is string => !!p);
  return parts.map(cell).join('; ');
}

const requiredCell = (field: FieldModel): string => (field.optional ? `optional${field.whyOptional && field.whyOptional !== 'optional' ? `: ${cell(field.whyOptional)}` : ''}` : 'required');

function fieldTable(fields: readonly FieldModel[]): string[] {
  return ['| field | type | required | notes |', '|---|---|---|---|', ...fields.map((f) => `| \`${f.name}\` | ${fieldType(f)} | ${requiredCell(f)} | ${fieldNotesCell(f)} |`)];
}

function responseBody(r: ApiResponseModel): string {
  if (r.notShown !== undefined) return `not shown: ${cell(r.notShown)}`;
  return [...(r.json ?? []).map(typeText), ...(r.text !== undefined ? [`text ${inlineCode(r.text)}`] : [])].join(', or ');
}

function operationSection(op: ApiOperationModel): string[] {
  return [
    `### ${op.operationId}`,
    '',
    ...(op.summary ? [`**${markdownText(op.summary)}.** \`${op.method} ${op.path}\``] : [`\`${op.method} ${op.path}\``]),
    '',
    ...(op.description ? [markdownText(op.description), ''] : []),
    ...(op.params.length > 0 ? ['Path parameters:', '', ...fieldTable(op.params), ''] : []),
    ...(op.query.length > 0 ? ['Query parameters (sent as the text `true` / `false`):', '', ...fieldTable(op.query), ''] : []),
    ...(op.request ? [`Request body: ${typeText(op.request)} (strict: only documented fields may be sent).`, ''] : []),
    '| status | body | when |',
    '|---|---|---|',
    ...op.responses.map((r) => `| ${r.status} | ${responseBody(r)} | ${cell(r.description)} |`),
    '',
    ...(op.emits.length > 0
      ? [
          'Events it publishes, by outcome (an [assumption](#assumptions): the seeds do not say):',
          '',
          '| outcome | events |',
          '|---|---|',
          ...op.emits.map((e) => `| ${inlineCode(e.outcome)} | ${e.events.map((event) => `${inlineCode(event.type)} ${event.version}`).join(', ')} |`),
          '',
        ]
      : []),
  ];
}

function typeSection(type: ObjectTypeModel, api: ApiModel): string[] {
  const usedIn = api.operations.filter((op) => JSON.stringify([op.request, op.responses.map((r) => r.json)]).includes(`"name":"${type.name}"`)).map((op) => `[${op.operationId}](#${op.operationId.toLowerCase()})`);
  return [
    `### ${type.name}`,
    '',
    ...(type.description ? [markdownText(type.description), ''] : []),
    ...(type.open ? [`Open: the seed says ${inlineCode(type.open.seed)}, so fields beyond these may be sent, even in strict requests.`, ''] : []),
    ...(type.requiredNotShown ? [`Every field is optional, because the seed says: ${cell(type.requiredNotShown)}`, ''] : []),
    ...(type.atLeastOneOf ? [`At least one of ${type.atLeastOneOf.map(inlineCode).join(', ')} is required.`, ''] : []),
    ...fieldTable(type.fields),
    '',
    ...(usedIn.length > 0 ? [`Used by ${usedIn.join(', ')}.`, ''] : []),
  ];
}

/** `api/README.md`: the REST API for people: conventions, every operation, every type, what is not shown. */
export function emitApiDocs(model: CatalogModel): EmittedFile[] {
  const api = model.api;
  if (!api) return [];
  const lines = [
    `<!-- ${bannerText(api.sourceFiles)} -->`,
    `# ${markdownText(api.title)}`,
    '',
    ...(api.description ? [markdownText(api.description), ''] : []),
    `${api.operations.length} operations below \`{base_url}\`, each sent with the \`Authorization\` header. Machine-readable: \`openapi.yaml\` (OpenAPI 3.1) and the JSON Schemas in \`api/schemas/\`.`,
    '',
    '## Conventions',
    '',
    '- Requests are strict: only documented fields may be sent, except in objects marked open (their other fields are not shown).',
    '- Responses are tolerant: fields added later are accepted.',
    '- A field is required unless the catalog marks it optional; the field tables say why each optional field is.',
    '- Dates are `YYYY-MM-DD`, datetimes `YYYY-MM-DDTHH:MM:SSZ` (UTC, no offset), decimals text with two places: all checked. Day numbers are checked against the month (February up to 29).',
    '- "Values seen" are documented examples, not complete lists: any string is accepted. Enums are used only where the whole list is given.',
    '',
    ...(api.contradictions.length > 0
      ? ['Where the seed contradicts itself, this contract accepts what it shows:', '', '| topic | the seed | accepted |', '|---|---|---|', ...api.contradictions.map((c) => `| ${cell(c.topic)} | ${cell(c.seed)} | ${cell(c.accepted)} |`), '']
      : []),
    '## Operations',
    '',
    '| operation | summary | method | path | statuses |',
    '|---|---|---|---|---|',
    ...api.operations.map((op) => `| [${op.operationId}](#${op.operationId.toLowerCase()}) | ${cell(op.summary ?? '')} | ${op.method} | \`${op.path}\` | ${op.responses.map((r) => r.status).join(', ')} |`),
    '',
    ...api.operations.flatMap(operationSection),
    '## Types',
    '',
    ...api.types.flatMap((t) => typeSection(t, api)),
    ...(api.assumptions.length > 0
      ? ['## Assumptions', '', 'Where the seeds say nothing, this package assumes:', '', '| topic | the seed | assumed |', '|---|---|---|', ...api.assumptions.map((a) => `| ${cell(a.topic)} | ${cell(a.seed)} | ${cell(a.assumed)} |`), '']
      : []),
    '## Not shown',
    '',
    'What the seed says it does not show, in its words (more is said at the fields, types and responses above):',
    '',
    ...api.gaps.map((g) => `- ${cell(g.topic)}: ${inlineCode(g.seed)}`),
    '',
  ];
  return [{ path: API_DOCS_PATH, contents: lines.join('\n') }];
}
