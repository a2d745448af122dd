/**
 * `api/README.md`: the REST API for people, rendered from the page model's `api`
 * (`page-model.ts`), which the site reads too: conventions, every operation with its
 * responses, the seed's retry rules and the events it is assumed to publish, every type, what
 * is not shown.
 */
import type { PageApi, PageApiType, PageField, PageOperation, PageResponse } from '../../runtime/contract/page-model.js';
import { bannerText } from '../common/banner.js';
import { markdownText } from '../common/safe-text.js';
import { curlyQuote, inlineCode, plural } from '../common/text.js';
import { parseTypeNotation } from '../common/type-notation.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { pageModelOf } from './page-model.js';

export const API_DOCS_PATH = 'api/README.md';

/** A table cell: Markdown kept, no HTML, no line break or pipe that would end the cell. */
const cell = (text: string): string => markdownText(text).replace(/\n/g, ' ').replace(/\|/g, '\\|');

const FORMAT_TEXT = { date: 'date (`YYYY-MM-DD`)', datetime: 'datetime (`YYYY-MM-DDTHH:MM:SSZ`)', decimal: 'decimal string (two places)' } as const;

/** The API's type names: a notation's base that is one is linked. */
type TypeNames = ReadonlySet<string>;

/** A type in words, from its catalog notation: a format spelt out, a list as `array of`, an API type linked. */
function typeText(notation: string, names: TypeNames): string {
  const { base, depth } = parseTypeNotation(notation) ?? { base: notation, depth: 0 };
  const text = names.has(base) ? `[${base}](#${base.toLowerCase()})` : base in FORMAT_TEXT ? FORMAT_TEXT[base as keyof typeof FORMAT_TEXT] : base;
  return `${'array of '.repeat(depth)}${text}`;
}

function fieldType(field: PageField, names: TypeNames): string {
  const values = field.enum ? `: one of ${field.enum.map(inlineCode).join(', ')}` : '';
  const length = field.minLength === undefined ? '' : `, at least ${plural(field.minLength, 'character')}`;
  return `${typeText(field.type, names)}${values}${length}${field.nullable ? ', or null' : ''}`;
}

function fieldNotesCell(field: PageField): string {
  const parts = [
    field.description,
    field.examples && `values seen: ${field.examples.map(inlineCode).join(', ')} (not a complete list)`,
    field.default !== undefined && `default ${inlineCode(String(field.default))}`,
    field.notShown,
  ].filter((p): p is string => !!p);
  return parts.map(cell).join('; ');
}

const requiredCell = (field: PageField): string => (field.optional ? `optional${field.whyOptional && field.whyOptional !== 'optional' ? `: ${cell(field.whyOptional)}` : ''}` : 'required');

function fieldTable(fields: readonly PageField[], names: TypeNames): string[] {
  return ['| field | type | required | notes |', '|---|---|---|---|', ...fields.map((f) => `| \`${f.name}\` | ${fieldType(f, names)} | ${requiredCell(f)} | ${fieldNotesCell(f)} |`)];
}

function responseBody(r: PageResponse, names: TypeNames): string {
  if (r.notShown !== undefined) return `not shown: ${cell(r.notShown)}`;
  return [...(r.json ?? []).map((t) => typeText(t, names)), ...(r.text !== undefined ? [`text ${inlineCode(r.text)}`] : [])].join(', or ');
}

/** The seed's rules on sending a request again, status by status, in its words. */
function retryLines(op: PageOperation): string[] {
  const rules = op.responses.filter((r) => r.retry);
  if (rules.length === 0) return [];
  const rule = (r: PageResponse): string => `after ${r.status}, ${r.retry!.retried ? 'sent again' : 'not sent again'} (the seed: ${curlyQuote(cell(r.retry!.seed))})`;
  return [`Retries, as the seed says and the package's client does: ${rules.map(rule).join('; ')}. Any other status is not retried.`, ''];
}

function operationSection(op: PageOperation, names: TypeNames): string[] {
  return [
    `### ${op.operationId}`,
    '',
    ...(op.summary ? [`**${markdownText(op.summary)}.** \`${op.method} ${op.path}\``] : [`\`${op.method} ${op.path}\``]),
    '',
    ...(op.description ? [markdownText(op.description), ''] : []),
    ...(op.params.length > 0 ? ['Path parameters:', '', ...fieldTable(op.params, names), ''] : []),
    ...(op.query.length > 0 ? ['Query parameters (sent as the text `true` / `false`):', '', ...fieldTable(op.query, names), ''] : []),
    ...(op.request ? [`Request body: ${typeText(op.request, names)} (strict: only documented fields may be sent).`, ''] : []),
    '| status | body | when |',
    '|---|---|---|',
    ...op.responses.map((r) => `| ${r.status} | ${responseBody(r, names)} | ${cell(r.description)} |`),
    '',
    ...retryLines(op),
    ...(op.emits.length > 0
      ? [
          'Events it publishes, by outcome (an [assumption](#assumptions): the seeds do not say):',
          '',
          '| outcome | events |',
          '|---|---|',
          ...op.emits.map((e) => `| ${inlineCode(e.outcome)} | ${e.events.map((key) => `${inlineCode(key.split('@')[0]!)} ${key.split('@')[1]}`).join(', ')} |`),
          '',
        ]
      : []),
  ];
}

function typeSection(type: PageApiType, names: TypeNames): string[] {
  const usedIn = type.usedBy.map((operationId) => `[${operationId}](#${operationId.toLowerCase()})`);
  return [
    `### ${type.name}`,
    '',
    ...(type.description ? [markdownText(type.description), ''] : []),
    ...(type.openSeed !== undefined ? [`Open: the seed says ${inlineCode(type.openSeed)}, so fields beyond these may be sent, even in strict requests.`, ''] : []),
    ...(type.requiredNotShown ? [`Every field is optional, because the seed says: ${cell(type.requiredNotShown)}`, ''] : []),
    ...(type.atLeastOneOf ? [`At least one of ${type.atLeastOneOf.map(inlineCode).join(', ')} is required.`, ''] : []),
    ...fieldTable(type.fields, names),
    '',
    ...(usedIn.length > 0 ? [`Used by ${usedIn.join(', ')}.`, ''] : []),
  ];
}

/** `api/README.md`, from the page model's `api`. */
export function emitApiDocs(model: CatalogModel): EmittedFile[] {
  const api = pageModelOf(model).api;
  if (!api) return [];
  return [{ path: API_DOCS_PATH, contents: apiReadme(api) }];
}

function apiReadme(api: PageApi): string {
  const names: TypeNames = new Set(api.types.map((t) => t.name));
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
    ...api.operations.flatMap((op) => operationSection(op, names)),
    '## Types',
    '',
    ...api.types.flatMap((t) => typeSection(t, names)),
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
  return lines.join('\n');
}
