/**
 * Real brokers for the tests and the bench: Debian's `nats-server` and `redis-server`, started
 * as child processes on free loopback ports, each in a throwaway directory, and stopped (and
 * waited on) by `stop()`. A missing binary fails with one line naming the install command.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export const INSTALL_BROKERS = 'npm run setup:tools (apt-get install -y nats-server redis-server)';

export interface RunningBroker {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** The binary's path on PATH (plus the sbin folders Debian puts servers in), or a clear failure. */
export function brokerBinary(
  name: 'nats-server' | 'redis-server',
  folders: readonly string[] = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/bin', '/usr/local/bin', '/usr/local/sbin'],
): string {
  for (const folder of folders) {
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  throw new Error(`${name} is not installed: run ${INSTALL_BROKERS}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const canConnect = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Servers still running; killed if the test process exits without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function startServer(name: 'nats-server' | 'redis-server', args: (port: number, dir: string) => string[], scheme: string): Promise<RunningBroker> {
  const binary = brokerBinary(name);
  const dir = mkdtempSync(join(tmpdir(), `${name}-`));
  const port = await freePort();
  const child: ChildProcess = spawn(binary, args(port, dir), { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let alive = true;
  void exited.then(() => {
    alive = false;
    running.delete(child);
  });

  const deadline = Date.now() + 20_000;
  while (!(await canConnect(port))) {
    if (!alive) throw new Error(`${name} exited at start: ${stderr.trim()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`${name} did not listen on 127.0.0.1:${port} within 20 s: ${stderr.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    async stop() {
      if (alive) {
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(forced);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const natsArgs = (port: number, dir: string) => ['--addr', '127.0.0.1', '--port', String(port), '--jetstream', '--store_dir', dir];
const redisArgs = (port: number, dir: string) => ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--dir', dir];

/** A JetStream-enabled `nats-server` with its store in a temporary directory. */
export const startNatsServer = (extraArgs: readonly string[] = []): Promise<RunningBroker> => startServer('nats-server', (port, dir) => [...natsArgs(port, dir), ...extraArgs], 'nats');

/** A `redis-server` that keeps nothing on disk. */
export const startRedisServer = (): Promise<RunningBroker> => startServer('redis-server', (port, dir) => [...redisArgs(port, dir), '--appendonly', 'no'], 'redis');

/** A broker a test SIGKILLs and starts again, on the same port and data directory. */
export interface RestartableBroker {
  url: string;
  /** SIGKILLs the server (if it runs) and waits until it has exited. */
  kill(): Promise<void>;
  /** Starts it again; it does not wait until the server listens (clients reconnect). */
  restart(): void;
  /** Kills it and removes its data directory. */
  remove(): Promise<void>;
}

async function restartableServer(name: 'nats-server' | 'redis-server', args: (port: number, dir: string) => string[], scheme: string): Promise<RestartableBroker> {
  const binary = brokerBinary(name);
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `${name}-restartable-`));
  let child: ChildProcess | undefined;
  let exited = Promise.resolve();
  const restart = () => {
    const started = spawn(binary, args(port, dir), { cwd: dir, stdio: 'ignore' });
    running.add(started);
    exited = new Promise((resolve) => started.once('exit', () => resolve(void running.delete(started))));
    child = started;
  };
  const kill = async () => {
    child?.kill('SIGKILL');
    await exited;
  };
  restart();
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    kill,
    restart,
    async remove() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A JetStream `nats-server` whose store survives a SIGKILL and restart. */
export const restartableNatsServer = (): Promise<RestartableBroker> => restartableServer('nats-server', natsArgs, 'nats');

/** A `redis-server` whose every write is on disk before it answers (append-only file, fsync always), so a SIGKILL loses nothing it acknowledged. */
export const restartableRedisServer = (): Promise<RestartableBroker> =>
  restartableServer('redis-server', (port, dir) => [...redisArgs(port, dir), '--appendonly', 'yes', '--appendfsync', 'always'], 'redis');
