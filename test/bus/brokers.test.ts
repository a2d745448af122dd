/** The broker helper itself: a missing broker is one clear line; a started one is stopped for good. */
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { brokerBinary, startRedisServer } from '../../scripts/local-brokers.js';

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

describe('brokers', () => {
  it('a missing broker fails with one line naming the install command', () => {
    expect(() => brokerBinary('nats-server', ['/nonexistent'])).toThrow(
      new Error('nats-server is not installed: run npm run setup:tools (apt-get install -y nats-server redis-server)'),
    );
  });

  it('stop() ends the server: nothing is left listening', async () => {
    const redis = await startRedisServer();
    expect(await listening(redis.port)).toBe(true);
    await redis.stop();
    expect(await listening(redis.port)).toBe(false);
  }, 60_000);
});
