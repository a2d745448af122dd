/**
 * 3. Cold start: separate `node` processes, wall time from spawn to exit, `runs` rounds with
 * the scripts interleaved (one warm-up round first, not counted):
 *
 * - `bare`: an empty module;
 * - `root`: import the package root and validate one message;
 * - `event`: import one event's entry (`/events/account.created/v1`) and validate one message;
 * - `ajv-at-startup`: read every published message schema, compile each with ajv, validate one
 *   message (what a consumer of the JSON Schemas alone would do at start-up).
 *
 * Time above bare `node` is the median, over rounds, of (this process − the bare process of the
 * same round): pairing cancels slow drift in machine load.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, summarize, timedSpawn, write, type Summary } from './common.js';
import { oneFolderDown, type PackageUnderTest } from './package.js';
import type { MessageSchema } from './peers.js';

export const SAMPLE_MESSAGE = { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: ['a@example.com'] } };

export type ColdScript = 'bare' | 'root' | 'event' | 'ajv-at-startup';

export interface ColdStartResult {
  runs: number;
  /** Wall time of each process, ms; `aboveBare`: per round, this process minus the bare one of the same round (paired, so drift in machine load cancels out). */
  scripts: Record<ColdScript, { description: string; ms: Summary; aboveBare: Summary }>;
}

const DESCRIPTIONS: Record<ColdScript, string> = {
  bare: '`node` running an empty module',
  root: 'import the package root, `validateEvent` one message',
  event: 'import `/events/account.created/v1`, validate one message',
  'ajv-at-startup': 'read every message schema, compile each with ajv (Ajv2020) at start-up, validate one message',
};

export function writeColdStartScripts(pkg: PackageUnderTest, schemas: readonly MessageSchema[]): Record<ColdScript, string> {
  const dir = join(pkg.consumerDir, 'cold-start');
  const message = JSON.stringify(SAMPLE_MESSAGE);
  const fail = `{ console.error('rejected'); process.exit(1); }`;
  const schemasFile = join(dir, 'message-schemas.json');
  write(schemasFile, JSON.stringify(schemas));
  const files: Record<ColdScript, string> = {
    bare: join(dir, 'bare.mjs'),
    root: join(dir, 'root.mjs'),
    event: join(dir, 'event.mjs'),
    'ajv-at-startup': join(dir, 'ajv-at-startup.mjs'),
  };
  const spec = (s: string) => JSON.stringify(oneFolderDown(s));
  write(files.bare, '');
  write(files.root, `import { validateEvent } from ${spec(pkg.rootSpecifier)};\nif (!validateEvent(${message}).ok) ${fail}\n`);
  write(files.event, `import { accountCreatedV1 } from ${spec(pkg.eventSpecifier('account.created', 'v1'))};\nif (!accountCreatedV1.validate(${message}).ok) ${fail}\n`);
  write(
    files['ajv-at-startup'],
    `import { readFileSync } from 'node:fs';
import { Ajv2020 } from ${JSON.stringify(pathToFileURL(join(ROOT, 'node_modules/ajv/dist/2020.js')).href)};
const schemas = JSON.parse(readFileSync(${JSON.stringify(schemasFile)}, 'utf8'));
const ajv = new Ajv2020();
const validators = new Map();
for (const { type, version, schema } of schemas) validators.set(type + '@' + version, ajv.compile(schema));
if (!validators.get('account.created@v1')(${message})) ${fail}
`,
  );
  return files;
}

export function measureColdStart(pkg: PackageUnderTest, schemas: readonly MessageSchema[], runs: number): ColdStartResult {
  const files = writeColdStartScripts(pkg, schemas);
  const names = Object.keys(files) as ColdScript[];
  const times: Record<ColdScript, number[]> = { bare: [], root: [], event: [], 'ajv-at-startup': [] };
  for (let round = -1; round < runs; round++) {
    for (const name of names) {
      const run = timedSpawn(process.execPath, [...pkg.nodeArgs, files[name]], { cwd: pkg.consumerDir });
      if (run.status !== 0) throw new Error(`cold start ${name} failed (${run.status}): ${run.stderr.slice(0, 2000)}`);
      if (round >= 0) times[name].push(run.ms);
    }
  }
  const paired = (name: ColdScript) => summarize(times[name].map((t, i) => t - times.bare[i]!));
  const scripts = Object.fromEntries(names.map((name) => [name, { description: DESCRIPTIONS[name], ms: summarize(times[name]), aboveBare: paired(name) }])) as ColdStartResult['scripts'];
  return { runs, scripts };
}
