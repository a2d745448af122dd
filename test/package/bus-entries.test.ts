/**
 * The broker adapter entries as consumers meet them: built, packed, installed from the
 * tarball. Without the optional broker clients the root still works and loads none of them;
 * with them, `./nats` and `./redis-streams` load from ESM and CommonJS, share the root's
 * `EventValidationError`, and type-check.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedTarball } from '../support/packed-package.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer } from '../../scripts/local-brokers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PACKAGE = '@data-import/event-catalog';
const work = mkdtempSync(join(tmpdir(), 'bus-consumer-'));
const consumer = join(work, 'consumer');
const node = (file: string) => spawnSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8' });
let tarballPath = '';
const write = (file: string, text: string) => writeFileSync(join(consumer, file), text);

beforeAll(() => {
  tarballPath = packedTarball();
  mkdirSync(consumer, { recursive: true });
  write('package.json', JSON.stringify({ name: 'bus-consumer', private: true, version: '1.0.0' }));
  // Optional peers are not installed with the package: the broker clients stay absent for now.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=peer', tarballPath], { cwd: consumer, stdio: 'pipe' });
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('the adapter entries have no type resolution problems (are the types wrong?)', () => {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js'), tarballPath, '--entrypoints', './nats', './redis-streams', '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
  const report = JSON.parse(result.stdout) as { problems?: unknown[]; analysis?: { problems?: unknown[] } };
  expect(report.analysis?.problems ?? report.problems).toEqual([]);
  expect(result.status).toBe(0);
}, 60_000);

describe('without the broker clients installed', () => {
  it('the root loads and validates, and loads no broker client', () => {
    write(
      'root.cjs',
      `const { validateEvent } = require('${PACKAGE}');
const ok = validateEvent({ type: 'account.created', version: 'v1', payload: { account_number: 'A', account_user_emails: [] } }).ok;
console.log(JSON.stringify([ok, Object.keys(require.cache).filter((f) => /@nats-io|ioredis/.test(f))]));`,
    );
    const result = node('root.cjs');
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([true, []]);
  });

  it('the NATS entry fails to load, naming the missing client', () => {
    write('nats-missing.mjs', `await import('${PACKAGE}/nats');`);
    const result = node('nats-missing.mjs');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/Cannot find (package|module) '@nats-io\/transport-node'/);
  });
});

describe('with the broker clients installed', () => {
  beforeAll(() => {
    // The repository's own copies stand in for the user's installation.
    mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    for (const name of ['@nats-io', 'ioredis']) symlinkSync(join(ROOT, 'node_modules', name), join(consumer, 'node_modules', name));
  });

  const script = (load: (entry: string) => string) => `
${load('')}
${load('/nats')}
${load('/redis-streams')}
const invalid = { type: 'account.created', version: 'v1', payload: {} };
const fromNats = await nats.publishEvent({ publish: () => { throw new Error('published'); } }, invalid).catch((e) => e);
const fromRedis = await redis.publishEvent({ xadd: () => { throw new Error('added'); } }, invalid, { stream: 's' }).catch((e) => e);
console.log(JSON.stringify([typeof nats.consumeEvents, typeof redis.consumeEvents, typeof nats.replayDeadLetters, fromNats instanceof root.EventValidationError, fromRedis instanceof root.EventValidationError, fromNats.error.code]));`;

  it.each([
    ['ESM import', 'entries.mjs', (entry: string) => `const ${entry === '' ? 'root' : entry === '/nats' ? 'nats' : 'redis'} = await import('${PACKAGE}${entry}');`],
    ['CommonJS require', 'entries.cjs', (entry: string) => `const ${entry === '' ? 'root' : entry === '/nats' ? 'nats' : 'redis'} = require('${PACKAGE}${entry}');`],
  ])('%s: the adapters load and reject an invalid event with the root’s EventValidationError', (_name, file, load) => {
    write(file, file.endsWith('.cjs') ? `(async () => {${script(load)}\n})();` : script(load));
    const result = node(file);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(['function', 'function', 'function', true, true, 'invalid_payload']);
  });

  it('without @opentelemetry/api installed: a publish → consume round trip on a real nats-server, with nothing on stderr', async () => {
    const server = await startNatsServer();
    try {
      write(
        'round-trip.mjs',
        `import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createHandler } from '${PACKAGE}';
import { consumeEvents, publishEvent } from '${PACKAGE}/nats';
let telemetryInstalled = true;
try { import.meta.resolve('@opentelemetry/api'); } catch { telemetryInstalled = false; }
const nc = await connect({ servers: process.env.NATS_URL });
const jsm = await jetstreamManager(nc);
await jsm.streams.add({ name: 'EVENTS', subjects: ['events.>'] });
await jsm.streams.add({ name: 'EVENTS_DEAD', subjects: ['dead.events'] });
await jsm.consumers.add('EVENTS', { durable_name: 'c', ack_policy: AckPolicy.Explicit });
const js = jetstream(nc);
await publishEvent(js, { type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } });
let handled = '';
const running = consumeEvents(await js.consumers.get('EVENTS', 'c'), createHandler({ 'account.created': { v1: (p) => { handled = p.account_number; } } }), { js, deadLetterSubject: 'dead.events' });
while (handled === '') await new Promise((resolve) => setTimeout(resolve, 20));
await running.stop();
await nc.close();
console.log(JSON.stringify({ telemetryInstalled, handled, counts: running.counts.handled }));`,
      );
      const result = spawnSync(process.execPath, ['round-trip.mjs'], { cwd: consumer, encoding: 'utf8', env: { ...process.env, NATS_URL: server.url }, timeout: 60_000 });
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout)).toEqual({ telemetryInstalled: false, handled: 'A-1', counts: 1 });
    } finally {
      await server.stop();
    }
  }, 90_000);

  it('the adapters type-check in a TypeScript consumer (nodenext)', () => {
    write(
      'consumer.ts',
      `import type { JetStreamClient, Consumer } from '@nats-io/jetstream';
import type { Redis } from 'ioredis';
import { createHandler, type CatalogEvent } from '${PACKAGE}';
import { consumeEvents, publishEvent, type Consumption } from '${PACKAGE}/nats';
import * as streams from '${PACKAGE}/redis-streams';
declare const js: JetStreamClient, consumer: Consumer, redis: Redis;
const handle = createHandler({ 'account.created': { v1: (payload) => payload.account_number } });
const running: Consumption = consumeEvents(consumer, handle, { js, deadLetterSubject: 'dead.events', maxDeliver: 3 });
const other: Consumption = streams.consumeEvents(redis, (event: CatalogEvent, message) => message.id + event.type, { stream: 's', group: 'g', consumer: 'c', deadLetterStream: 'd' });
const seq: Promise<number> = publishEvent(js, { type: 'account.created', version: 'v1', payload: { account_number: 'A', account_user_emails: [] } }).then((ack) => ack.seq);
// @ts-expect-error the dead-letter subject is required
consumeEvents(consumer, handle, { js });
void running.stop(); void other.closed; void seq;
`,
    );
    write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true, types: [] }, files: ['consumer.ts'] }));
    const result = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: consumer, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});
