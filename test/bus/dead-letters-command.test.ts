/**
 * `event-catalog dead-letters replay` against real brokers: moves back what is valid now,
 * reports what it moved and what it kept; usage errors exit 2 with a message.
 */
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, headers } from '@nats-io/transport-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeadLetters } from '../../runtime/cli/dead-letters-command.js';
import { startNatsServer, startRedisServer, type RunningBroker } from '../../scripts/local-brokers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const valid = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'A-1', account_user_emails: [] } });
const unknownVersion = JSON.stringify({ type: 'account.created', version: 'v99', payload: {} });

async function run(args: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await runDeadLetters(args, { stdout, stderr });
  return { code, stdout: out, stderr: err };
}

let nats: RunningBroker;
let redisServer: RunningBroker;
beforeAll(async () => {
  [nats, redisServer] = await Promise.all([startNatsServer(), startRedisServer()]);
}, 60_000);
afterAll(async () => {
  await Promise.all([nats?.stop(), redisServer?.stop()]);
}, 60_000);

describe('dead-letters replay', () => {
  it.each([
    [[], /no subcommand/],
    [['rewind'], /unknown subcommand "rewind"/],
    [['replay', '--stream', 'D'], /exactly one of --nats URL or --redis URL/],
    [['replay', '--nats', 'nats://x', '--redis', 'redis://x', '--stream', 'D'], /exactly one/],
    [['replay', '--nats', 'nats://x'], /--stream is required/],
    [['replay', '--redis', 'redis://x', '--stream', 's'], /--dead-letter-stream is required/],
    [['replay', '--nats', 'nats://x', '--stream', 'D', '--limit', '0'], /--limit must be a positive integer/],
    [['replay', '--nats', 'nats://x', '--stream', 'D', '--bogus'], /Unknown option '--bogus'/],
    [['replay', '--nats', 'nats://x', '--stream', 'D', '--max-message-bytes', '2MB'], /--max-message-bytes takes a number of bytes/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const result = await run(args);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('usage: event-catalog dead-letters replay');
  });

  it('an unreachable broker exits 2 with one line', async () => {
    const result = await run(['replay', '--redis', 'redis://127.0.0.1:1', '--dead-letter-stream', 'd', '--stream', 's']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^✘ replay failed: .+\n$/);
  }, 30_000);

  it('--nats: publishes again on the original subject what is valid now, and reports it', async () => {
    const nc = await connect({ servers: nats.url });
    const jsm = await jetstreamManager(nc);
    const js = jetstream(nc);
    await jsm.streams.add({ name: 'EVENTS', subjects: ['events.>'] });
    await jsm.streams.add({ name: 'DEAD', subjects: ['dead.>'] });
    for (const [data, reason] of [[valid, 'handler_failed'], [unknownVersion, 'unknown_event_version']] as const) {
      const h = headers();
      h.set('Catalog-Reason', reason);
      h.set('Catalog-Subject', 'events.account.created.v1');
      await js.publish('dead.events', data, { headers: h });
    }
    const dry = await run(['replay', '--nats', nats.url, '--stream', 'DEAD', '--dry-run']);
    expect(dry).toEqual({ code: 0, stdout: 'would move 1 of 2 dead letters\nkept: unknown_event_version 1\n', stderr: '' });
    const result = await run(['replay', '--nats', nats.url, '--stream', 'DEAD', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      examined: 2,
      moved: 1,
      kept: { unknown_event_version: 1 },
      movedMessages: [{ deadLetterSeq: 1, subject: 'events.account.created.v1', reason: 'handler_failed' }],
    });
    expect((await jsm.streams.info('EVENTS')).state.messages).toBe(1);
    expect((await jsm.streams.info('DEAD')).state.messages).toBe(1);
    await nc.close();
  }, 60_000);

  it('--max-message-bytes: keeps a valid dead letter larger than the consumers accept, and moves it once they accept it', async () => {
    const redis = new Redis(redisServer.url);
    const large = JSON.stringify({ type: 'account.created', version: 'v1', payload: { account_number: 'L'.repeat(3000), account_user_emails: [] } });
    await redis.xadd('large:dead', '*', 'message', large, 'reason', 'handler_failed');
    const args = ['replay', '--redis', redisServer.url, '--dead-letter-stream', 'large:dead', '--stream', 'large'];
    expect(await run([...args, '--max-message-bytes', '2KiB'])).toEqual({ code: 0, stdout: 'moved 0 of 1 dead letters\nkept: too_large 1\n', stderr: '' });
    expect(await redis.xlen('large:dead')).toBe(1);
    expect(await run([...args, '--max-message-bytes', '4KiB'])).toEqual({ code: 0, stdout: 'moved 1 of 1 dead letters\nkept: none\n', stderr: '' });
    expect(await redis.xlen('large')).toBe(1);
    await redis.quit();
  }, 60_000);

  it('--redis, through the bin: adds again to --stream what is valid now', async () => {
    const redis = new Redis(redisServer.url);
    await redis.xadd('events:dead', '*', 'message', valid, 'reason', 'handler_failed');
    await redis.xadd('events:dead', '*', 'message', '{oops', 'reason', 'malformed_message');
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const args = ['dead-letters', 'replay', '--redis', redisServer.url, '--dead-letter-stream', 'events:dead', '--stream', 'events'];
      const child = spawn(process.execPath, ['--import', 'tsx', 'runtime/cli/main.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(result).toEqual({ code: 0, stdout: 'moved 1 of 2 dead letters\nkept: malformed_message 1\n', stderr: '' });
    expect(await redis.xrange('events', '-', '+')).toEqual([[expect.any(String), ['message', valid]]]);
    expect(await redis.xlen('events:dead')).toBe(1);
    await redis.quit();
  }, 60_000);
});
