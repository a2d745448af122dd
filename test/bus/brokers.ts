/**
 * Real brokers for the bus tests: Debian's `nats-server` and `redis-server`, started as child
 * processes on free loopback ports, each in a throwaway directory, and stopped (and waited
 * on) by `stop()`. A missing binary fails the test with one line naming the install command.
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

/** A JetStream-enabled `nats-server` with its store in a temporary directory. */
export const startNatsServer = (extraArgs: readonly string[] = []): Promise<RunningBroker> =>
  startServer('nats-server', (port, dir) => ['--addr', '127.0.0.1', '--port', String(port), '--jetstream', '--store_dir', dir, ...extraArgs], 'nats');

/** A `redis-server` that keeps nothing on disk. */
export const startRedisServer = (): Promise<RunningBroker> =>
  startServer('redis-server', (port, dir) => ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no', '--dir', dir], 'redis');
