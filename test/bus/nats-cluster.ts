/**
 * A three-node JetStream cluster on loopback: Debian's `nats-server` (2.9), each node with its
 * own client and route ports (free ones) and its own store directory. `kill(name)` SIGKILLs
 * one node and leaves it down.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { brokerBinary } from '../../scripts/local-brokers.js';

export interface NatsCluster {
  /** Every node's client URL, comma-separated (what the workers take). */
  urls: string;
  servers: string[];
  kill(name: string): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startNatsCluster(): Promise<NatsCluster> {
  const binary = brokerBinary('nats-server');
  const dir = mkdtempSync(join(tmpdir(), 'nats-cluster-'));
  const names = ['n1', 'n2', 'n3'];
  const ports = await Promise.all(names.map(async () => ({ client: await freePort(), route: await freePort() })));
  const nodes = new Map<string, { child: ChildProcess; exited: Promise<void>; stderr: string }>();
  for (const [i, name] of names.entries()) {
    const routes = ports.filter((_, k) => k !== i).map((p) => `nats-route://127.0.0.1:${p.route}`);
    const config = join(dir, `${name}.conf`);
    writeFileSync(
      config,
      [
        `server_name: ${name}`,
        `listen: 127.0.0.1:${ports[i]!.client}`,
        `jetstream { store_dir: "${join(dir, name)}" }`,
        `cluster { name: loopback, listen: 127.0.0.1:${ports[i]!.route}, routes: [${routes.join(', ')}] }`,
      ].join('\n'),
    );
    const child = spawn(binary, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    const node = { child, exited: new Promise<void>((resolve) => child.once('exit', () => resolve())), stderr: '' };
    child.stderr!.on('data', (chunk: Buffer) => (node.stderr = (node.stderr + chunk.toString()).slice(-2000)));
    nodes.set(name, node);
  }
  const servers = ports.map((p) => `nats://127.0.0.1:${p.client}`);
  const stop = async () => {
    for (const node of nodes.values()) if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGKILL');
    await Promise.all([...nodes.values()].map((n) => n.exited));
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', () => {
    for (const node of nodes.values()) node.child.kill('SIGKILL');
  });

  // Ready once JetStream has a meta leader: an R3 stream can then be created.
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const nc = await connect({ servers, timeout: 1000 });
      try {
        const jsm = await jetstreamManager(nc, { timeout: 2000 });
        await jsm.streams.add({ name: 'READY', subjects: ['ready.check'], num_replicas: 3 });
        await jsm.streams.delete('READY');
        break;
      } finally {
        await nc.close();
      }
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`the three-node cluster had no JetStream leader within 30 s (${String(error)}): ${[...nodes.values()].map((n) => n.stderr.trim()).join(' | ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return {
    urls: servers.join(','),
    servers,
    async kill(name) {
      const node = nodes.get(name);
      if (!node) throw new Error(`no node ${name}`);
      node.child.kill('SIGKILL');
      await node.exited;
    },
    stop,
  };
}
