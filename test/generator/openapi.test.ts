/**
 * `generated/openapi.yaml` against real OpenAPI tooling: a 3.1 schema validator,
 * swagger-parser and Redocly's recommended rules (with the committed `redocly.yaml`) accept
 * it, and openapi-typescript reads it into types that agree with `generated/api/types.ts`
 * (checked by the TypeScript compiler: every API type, request body and response body).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { reachableTypes } from '../../generator/common/shared-types.js';
import { SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OPENAPI = join(ROOT, 'generated/openapi.yaml');
const api = loadCatalogFromDisk(join(ROOT, 'catalog')).model!.api!;

describe('generated/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(OPENAPI);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is refused by the same validator when broken (a path parameter that is not required)', async () => {
    const document = parse(readFileSync(OPENAPI, 'utf8')) as { paths: Record<string, Record<string, { parameters?: { in: string; required: boolean }[] }>> };
    const get = Object.values(document.paths).find((item) => item.get)!.get!;
    get.parameters![0]!.required = false;
    expect((await new Validator().validate(document)).valid).toBe(false);
  });

  it('passes swagger-parser’s validate()', async () => {
    await expect(SwaggerParser.validate(OPENAPI)).resolves.toMatchObject({ openapi: '3.1.0' });
  });

  it(
    'passes `redocly lint` with the recommended rules and the committed redocly.yaml',
    () => {
      const lint = spawnSync(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', OPENAPI, '--format=stylish'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      });
      expect(lint.error, 'could not start @redocly/cli (npm ci installs it)').toBeUndefined();
      expect(lint.stdout + lint.stderr).toContain('Your API description is valid');
      // Stylish format: one `line:column  error|warning  rule` line per problem.
      expect(lint.stdout + lint.stderr).not.toMatch(/^\s*\d+:\d+\s+(error|warning)\s/m);
      expect(lint.status).toBe(0);
    },
    SPAWNS,
  );

  it('gives every operation a summary and names its licence', () => {
    const document = parse(readFileSync(OPENAPI, 'utf8')) as Record<string, any>;
    const operations = Object.values(document.paths as Record<string, Record<string, { summary?: string }>>).flatMap((item) => Object.values(item));
    expect(operations.filter((op) => !op.summary)).toEqual([]);
    expect(document.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('has one operation per endpoint, the server variable and the Authorization header scheme', () => {
    const document = parse(readFileSync(OPENAPI, 'utf8')) as Record<string, any>;
    const ids = Object.values(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(ids).toEqual(api.operations.map((op) => op.operationId));
    expect(document.servers[0].url).toBe('{base_url}');
    expect(document.components.securitySchemes.accessToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  });

  it(
    'agrees with the types openapi-typescript makes of it',
    async () => {
      const dir = join(ROOT, '.cache', 'openapi-agreement');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'openapi.d.ts'), astToString(await openapiTS(new URL(`file://${OPENAPI}`))));
      const lines = [
        "import type * as Ours from '../../generated/api/types.js';",
        "import type { components, operations } from './openapi.js';",
        'type Extends<A, B> = [A] extends [B] ? true : false;',
        'type Same<A, B> = Extends<A, B> extends true ? Extends<B, A> : false;',
        'const same = <A, B>(_: Same<A, B>): void => {};',
        'const narrower = <A, B>(_: Extends<A, B>): void => {};',
        "type Theirs = components['schemas'];",
      ];
      for (const type of api.types) {
        // "At least one of": their alternatives only require the field (`{ body: unknown }`), so their type also admits `body: undefined`.
        const check = reachableTypes(api.types, [{ kind: 'named', name: type.name }]).some((t) => t.atLeastOneOf) ? 'narrower' : 'same';
        lines.push(`${check}<Ours.${type.name}, Theirs['${type.name}']>(true);`);
      }
      // "At least one of" holds in their types too: a note with neither body nor document_paths is refused.
      lines.push("// @ts-expect-error a Note needs body or document_paths", "export const pinnedOnly: Theirs['Note'] = { is_pinned: true };");
      lines.push("export const withBody: Theirs['Note'] = { is_pinned: true, body: 'text' };");
      for (const op of api.operations) {
        if (op.request) lines.push(`narrower<Ours.ApiRequest<'${op.operationId}'>, operations['${op.operationId}']['requestBody']['content']['application/json']>(true);`);
        for (const response of op.responses) {
          if (response.notShown !== undefined) continue;
          const content = `operations['${op.operationId}']['responses'][${response.status}]['content']`;
          const theirs = [response.json && `${content}['application/json']`, response.text !== undefined && `${content}['text/plain']`].filter(Boolean).join(' | ');
          lines.push(`same<Ours.ApiResponse<'${op.operationId}', ${response.status}>, ${theirs}>(true);`);
        }
      }
      writeFileSync(join(dir, 'agreement.ts'), lines.join('\n') + '\n');
      const tsc = spawnSync(
        process.execPath,
        [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', join(dir, 'agreement.ts')],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    },
    SPAWNS,
  );
});
