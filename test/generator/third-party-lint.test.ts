/**
 * The published documents (`generated/openapi.yaml`, `generated/asyncapi.yaml`) through the
 * linters people run on them, Spectral and Redocly, as installed command lines:
 *
 * - with the committed rulesets (`.spectral.yaml`, `redocly.yaml`): no error, no warning;
 * - with no ruleset of ours (Spectral's `spectral:oas` / `spectral:asyncapi`, Redocly's
 *   built-in recommended rules): no problem but those of the rules the committed rulesets
 *   turn off, and every one of those rules fires. So a ruleset turns off exactly what the
 *   seeds force (its comments say why), nothing that does not fire, and nothing else is left.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SPAWNS } from '../support/timeouts.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCUMENTS = { openapi: join(ROOT, 'generated/openapi.yaml'), asyncapi: join(ROOT, 'generated/asyncapi.yaml') } as const;
type DocumentKind = keyof typeof DOCUMENTS;

const TOOLS = {
  spectral: { cli: join(ROOT, 'node_modules/@stoplight/spectral-cli/dist/index.js'), pkg: '@stoplight/spectral-cli' },
  redocly: { cli: join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), pkg: '@redocly/cli' },
} as const;

/** A problem as both tools report it: the rule and its severity. */
interface Problem {
  rule: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
}

/** A folder with no ruleset of ours, for the runs without one (both tools look for theirs in the working folder). */
const bare = mkdtempSync(join(tmpdir(), 'third-party-lint-'));
afterAll(() => rmSync(bare, { recursive: true, force: true }));

function run(tool: keyof typeof TOOLS, args: string[], cwd: string): string {
  const { cli, pkg } = TOOLS[tool];
  if (!existsSync(cli)) throw new Error(`${tool} is not installed: ${cli} is missing (run \`npm ci\`; the devDependency is ${pkg})`);
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1', SCARF_ANALYTICS: 'false' },
  });
  if (result.error) throw new Error(`${tool} did not start: ${result.error.message}`);
  // Both exit non-zero when they report errors; what they found is in the JSON either way.
  if (!result.stdout.trim().startsWith('[') && !result.stdout.trim().startsWith('{')) throw new Error(`${tool} ${args.join(' ')} printed no JSON report (exit ${result.status}): ${result.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return result.stdout;
}

const SPECTRAL_SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

function spectral(document: DocumentKind, ruleset: string, cwd: string): Problem[] {
  const report = JSON.parse(run('spectral', ['lint', '--quiet', '--format', 'json', '--ruleset', ruleset, DOCUMENTS[document]], cwd)) as { code: string; severity: number }[];
  return report.map((p) => ({ rule: p.code, severity: SPECTRAL_SEVERITY[p.severity]! }));
}

function redocly(document: DocumentKind, cwd: string): Problem[] {
  const report = JSON.parse(run('redocly', ['lint', '--format=json', DOCUMENTS[document]], cwd)) as { problems: { ruleId: string; severity: 'error' | 'warn' }[] };
  return report.problems.map((p) => ({ rule: p.ruleId, severity: p.severity === 'warn' ? 'warning' : p.severity }));
}

/** `{ rule: count }` of the problems of one severity. */
function tally(problems: readonly Problem[], severity: Problem['severity']): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const p of problems) if (p.severity === severity) counts[p.rule] = (counts[p.rule] ?? 0) + 1;
  return counts;
}

/** The rules a committed ruleset turns off, from its own text. */
function rulesOff(rules: Record<string, unknown> | undefined): string[] {
  return Object.entries(rules ?? {})
    .filter(([, setting]) => setting === 'off')
    .map(([rule]) => rule)
    .sort();
}

const spectralRuleset = parse(readFileSync(join(ROOT, '.spectral.yaml'), 'utf8')) as { extends: string[]; rules?: Record<string, unknown> };
const redoclyConfig = parse(readFileSync(join(ROOT, 'redocly.yaml'), 'utf8')) as { oas3_1Rules?: Record<string, unknown>; async3Rules?: Record<string, unknown> };

/** Path keys of the OpenAPI document: each ends in a slash, as the seed writes it. */
const openapiPaths = Object.keys((parse(readFileSync(DOCUMENTS.openapi, 'utf8')) as { paths: Record<string, unknown> }).paths);

describe('Spectral', () => {
  it('the committed ruleset extends both of Spectral\'s rulesets and turns off only the rules the seeds force', () => {
    expect(spectralRuleset.extends).toEqual(['spectral:oas', 'spectral:asyncapi']);
    expect(rulesOff(spectralRuleset.rules)).toEqual(['asyncapi-info-contact-properties', 'path-keys-no-trailing-slash']);
  });

  it(
    'with the committed ruleset: no error and no warning on either document (one information: AsyncAPI 3.0.0 is kept, 3.1.0 exists)',
    () => {
      const ruleset = join(ROOT, '.spectral.yaml');
      const openapi = spectral('openapi', ruleset, ROOT);
      const asyncapi = spectral('asyncapi', ruleset, ROOT);
      expect(openapi).toEqual([]);
      expect(asyncapi).toEqual([{ rule: 'asyncapi-latest-version', severity: 'info' }]);
    },
    SPAWNS,
  );

  it(
    'without it (spectral:oas, spectral:asyncapi): the warnings are exactly those of the rules it turns off, each firing',
    () => {
      const oas = join(bare, 'oas.yaml');
      const asyncapi = join(bare, 'asyncapi.yaml');
      writeFileSync(oas, 'extends: ["spectral:oas"]\n');
      writeFileSync(asyncapi, 'extends: ["spectral:asyncapi"]\n');
      const onOpenapi = spectral('openapi', oas, bare);
      const onAsyncapi = spectral('asyncapi', asyncapi, bare);
      expect(tally([...onOpenapi, ...onAsyncapi], 'error')).toEqual({});
      // One trailing slash per path of the seed; one contact without url or email.
      expect(tally(onOpenapi, 'warning')).toEqual({ 'path-keys-no-trailing-slash': openapiPaths.length });
      expect(openapiPaths.every((path) => path.endsWith('/'))).toBe(true);
      expect(tally(onAsyncapi, 'warning')).toEqual({ 'asyncapi-info-contact-properties': 1 });
      expect(Object.keys({ ...tally(onOpenapi, 'warning'), ...tally(onAsyncapi, 'warning') }).sort()).toEqual(rulesOff(spectralRuleset.rules));
    },
    SPAWNS,
  );
});

describe('Redocly', () => {
  it('the committed redocly.yaml turns off rules per document kind, only those the seeds decide', () => {
    expect(rulesOff(redoclyConfig.oas3_1Rules)).toEqual(['no-path-trailing-slash', 'operation-4xx-response']);
    expect(rulesOff(redoclyConfig.async3Rules)).toEqual(['security-defined']);
  });

  it(
    'with the committed redocly.yaml: no error and no warning on either document',
    () => {
      expect(redocly('openapi', ROOT)).toEqual([]);
      expect(redocly('asyncapi', ROOT)).toEqual([]);
    },
    SPAWNS,
  );

  it(
    'without it (the recommended rules): asyncapi.yaml has no error, and what remains is exactly what redocly.yaml turns off',
    () => {
      const onOpenapi = redocly('openapi', bare);
      const onAsyncapi = redocly('asyncapi', bare);
      expect(tally(onAsyncapi, 'error')).toEqual({});
      // One `receive` operation per transport, whose broker security the seed does not show.
      expect(tally(onAsyncapi, 'warning')).toEqual({ 'security-defined': 2 });
      // The seed's trailing slashes are errors in Redocly's recommended rules: the only errors left.
      expect(tally(onOpenapi, 'error')).toEqual({ 'no-path-trailing-slash': openapiPaths.length });
      // The three list endpoints, for which the seed names no 4xx response.
      expect(tally(onOpenapi, 'warning')).toEqual({ 'operation-4xx-response': 3 });
      expect(Object.keys(tally(onOpenapi, 'error')).concat(Object.keys(tally(onOpenapi, 'warning'))).sort()).toEqual(rulesOff(redoclyConfig.oas3_1Rules));
      expect(Object.keys(tally(onAsyncapi, 'warning'))).toEqual(rulesOff(redoclyConfig.async3Rules));
    },
    SPAWNS,
  );
});
