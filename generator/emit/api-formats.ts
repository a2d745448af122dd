import { codeBanner } from '../common/banner.js';
import type { CatalogModel, FormatName } from '../model.js';
import type { EmittedFile } from './emitted-file.js';
import { FORMAT_SCHEMAS } from './schema-for.js';

export const API_FORMATS_PATH = 'api/formats.ts';

/**
 * `api/formats.ts`: each format the REST API's schemas state, by the pattern its validators
 * enforce it with. A rejected value reports the pattern it failed (ajv's `params.pattern`):
 * the run time names the format from this table, and words it in its own table, typed by
 * `ApiFormat`, so a new format cannot go unworded.
 */
export function emitApiFormats(model: CatalogModel): EmittedFile[] {
  if (!model.api) return [];
  const formats = Object.keys(FORMAT_SCHEMAS) as FormatName[];
  const text = [
    codeBanner(model.api.sourceFiles),
    '/** A format the REST API states (`YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SSZ`, a decimal with two places). */',
    `export type ApiFormat = ${formats.map((f) => JSON.stringify(f)).join(' | ')};`,
    '',
    '/** The format each pattern of the schemas enforces, by the pattern as the schemas write it. */',
    'export const apiFormatOfPattern: { readonly [pattern: string]: ApiFormat | undefined } = {',
    ...formats.map((f) => `  ${JSON.stringify(FORMAT_SCHEMAS[f].pattern)}: ${JSON.stringify(f)},`),
    '};',
    '',
  ].join('\n');
  return [{ path: API_FORMATS_PATH, contents: text }];
}
