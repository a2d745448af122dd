/**
 * Emulator group of `npm run bench` (`--only emulator`): requests per second of the contract
 * emulator on a mix of the 11 operations at 10 connections (autocannon), beside two peers
 * measured in the same run, each a server process of its own on loopback: Prism's mock of
 * `generated/openapi.yaml` (stateless: example answers, requests validated) and a bare
 * `node:http` server answering a fixed body (the ceiling). Rounds rotate the servers' order;
 * a ratio is the median of the rounds' ratios. Then the time from a processing response to
 * its event at a NATS consumer (`consumeEvents` on a JetStream pull consumer), the emulator
 * publishing to a loopback `nats-server`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, symlinkSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import autocannon from 'autocannon';
import { startNatsServer } from '../local-brokers.js';
import { consumeEvents } from '../../runtime/nats/index.js';
import { log, quantile, ROOT, summarize, type Summary } from './common.js';
import type { PackageUnderTest } from './package.js';

export interface EmulatorBenchSettings {
  /** Measured seconds per server per round. */
  seconds: number;
  /** Untimed seconds before each measured run. */
  warmupSeconds: number;
  rounds: number;
  connections: number;
  /** Processes timed for the event latency. */
  latencyEvents: number;
}

export const SERVERS = ['emulator', 'prism', 'bare'] as const;
export type ServerName = (typeof SERVERS)[number];

export interface ServerRun {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  /** Answers by status class, and connection errors (should be none). */
  statuses: Record<string, number>;
  errors: number;
  /** The emulator's answers that would have broken the contract, warm-up included (its coverage): must be 0. */
  violations?: number;
}

export interface EmulatorResult extends EmulatorBenchSettings {
  /** The operations of the mix, in the order each connection sends them. */
  mix: string[];
  /** Each server's runs, one per round. */
  runs: Record<ServerName, ServerRun[]>;
  /** Requests per second over the rounds. */
  rate: Record<ServerName, Summary>;
  /** The rounds' ratios, emulator ÷ Prism and emulator ÷ bare. */
  ratios: { prism: Summary; bare: Summary };
  /** Event arrival at the consumer minus the response's arrival at the client, ms (negative: the event came first). */
  eventLatencyMs: Summary & { p99: number };
  /** The emulator's answers that would have broken the contract, over every run (must be 0). */
  violations: number;
}

const SUPPLIER = 'BENCH';
const IMPORTED = 'BENCH-IMPORTED';
const PENDING = 'BENCH-PENDING';
const CLOCK = '2024-05-01T09:00:00Z';
const HEADERS = { authorization: 'Token bench', 'content-type': 'application/json' };
const account = (external: string) => ({ import_supplier: SUPPLIER, external_account_number: external });

/** One request of each operation, answerable again and again without the state growing (duplicates, updates, dry runs). */
const MIX: { operationId: string; method: 'GET' | 'POST'; path: string; body?: unknown }[] = [
  { operationId: 'validateAccount', method: 'POST', path: '/v1/data-import/validate-account/', body: { ...account('BENCH-NEW'), customers: [{ landline: '020 7946 0958' }] } },
  { operationId: 'stageAccount', method: 'POST', path: '/v1/data-import/account-import-process/create-or-update/', body: account(PENDING) },
  { operationId: 'processAccount', method: 'POST', path: '/v1/data-import/account-import-process/process/', body: { import_supplier_code: SUPPLIER, external_account_number: PENDING, operations_team_name: 'Migrations', dry_run: true } },
  { operationId: 'createNotes', method: 'POST', path: '/v1/data-import/notes/create/', body: { ...account(IMPORTED), notes: [{ body: 'Benchmark note.', created_at: '2024-04-30T12:00:00Z' }] } },
  { operationId: 'createTransactions', method: 'POST', path: '/v1/data-import/transactions/create/', body: { ...account(IMPORTED), transactions: [{ transaction_id: 'bench-1', transaction_date: '2024-05-01', amount: 12.5, type: 'CHARGE' }] } },
  {
    operationId: 'createHistoricalStatements',
    method: 'POST',
    path: '/v1/data-import/historical-statements/create/',
    body: { ...account(IMPORTED), statements: [{ bill_period_from_date: '2024-03-01', bill_period_to_date: '2024-03-31', statement_id: 'bench-s', issued_date: '2024-04-02', number: '1', gross_amount: 42 }] },
  },
  { operationId: 'createPaymentInstruction', method: 'POST', path: '/v1/data-import/payment-instruction/create/', body: { ...account(IMPORTED), vendor: 'Vendor', reference: 'bench-ref', type: 'CARD' } },
  { operationId: 'getAccountTransferStatus', method: 'GET', path: `/v1/data-import/account-transfer-status/${SUPPLIER}/${IMPORTED}/` },
  { operationId: 'listAllAccountImportProcesses', method: 'GET', path: `/v1/data-import/all-account-import-processes/${SUPPLIER}/` },
  { operationId: 'listPendingAccountImportProcesses', method: 'GET', path: `/v1/data-import/pending-account-import-processes/${SUPPLIER}/` },
  { operationId: 'listImportedAccountImportProcesses', method: 'GET', path: `/v1/data-import/imported-account-import-processes/${SUPPLIER}/` },
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

/** A server process, ready once a line of its output names the URL it listens on. */
function startProcess(name: string, command: string, args: string[], cwd: string, listening: RegExp): Promise<RunningServer> {
  const child: ChildProcess = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Read (and drop) everything it prints, so that a chatty server never blocks on a full pipe.
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s: ${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      const url = listening.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        child.stdout!.removeAllListeners('data').on('data', () => undefined);
        resolve({ url, stop: async () => void (child.kill('SIGTERM'), await exited) });
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before listening: ${output}`));
    });
  });
}

/** The emulator as the package under test ships it: its command (from the sources, through tsx, in quick mode). */
function emulatorCommand(pkg: PackageUnderTest, extra: string[]): { command: string; args: string[]; cwd: string } {
  const args = ['emulate', '--port', '0', '--token', 'bench', '--seed', '1', '--clock', CLOCK, ...extra];
  if (pkg.kind === 'source') return { command: process.execPath, args: [...pkg.nodeArgs, join(ROOT, 'runtime/cli/main.ts'), ...args], cwd: ROOT };
  return { command: process.execPath, args: [join(pkg.packageDir, 'dist/cli.js'), ...args], cwd: pkg.consumerDir };
}

const BARE_SERVER = `import { createServer } from 'node:http';
const body = '{"ok":true}';
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body));
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function startServer(name: ServerName, pkg: PackageUnderTest, work: string): Promise<RunningServer> {
  switch (name) {
    case 'emulator': {
      const { command, args, cwd } = emulatorCommand(pkg, []);
      return startProcess(name, command, args, cwd, /^listening on (http:\/\/\S+)$/m);
    }
    case 'prism': {
      const port = await freePort();
      const prism = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
      return startProcess(name, process.execPath, [prism, 'mock', '-h', '127.0.0.1', '-p', String(port), join(ROOT, 'generated/openapi.yaml')], work, /Prism is listening on (http:\/\/\S+)/);
    }
    case 'bare': {
      const file = join(work, 'bare-server.mjs');
      writeFileSync(file, BARE_SERVER);
      return startProcess(name, process.execPath, [file], work, /^listening on (http:\/\/\S+)$/m);
    }
  }
}

async function send(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}${path}`, { method, headers: HEADERS, ...(body !== undefined && { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** The emulator's state for the mix: back to the start, one account imported, one pending. */
async function prepareEmulator(url: string): Promise<void> {
  await send(url, 'POST', '/_emulator/reset');
  for (const external of [IMPORTED, PENDING]) await send(url, 'POST', MIX[1]!.path, account(external));
  const processed = await send(url, 'POST', MIX[2]!.path, { import_supplier_code: SUPPLIER, external_account_number: IMPORTED, operations_team_name: 'Migrations' });
  if (processed.status !== 201) throw new Error(`emulator: the mix's account was not processed: ${JSON.stringify(processed)}`);
}

function load(url: string, settings: EmulatorBenchSettings, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: settings.connections,
    duration: seconds,
    requests: MIX.map(({ method, path, body }) => ({ method, path, headers: HEADERS, ...(body !== undefined && { body: JSON.stringify(body) }) })),
  });
}

const violationsOf = async (url: string): Promise<number> => ((await send(url, 'GET', '/_emulator/coverage')).body as { violations: unknown[] }).violations.length;

async function measureServer(name: ServerName, url: string, settings: EmulatorBenchSettings): Promise<ServerRun> {
  const emulator = name === 'emulator';
  let violations = 0;
  if (emulator) await prepareEmulator(url);
  if (settings.warmupSeconds > 0) await load(url, settings, settings.warmupSeconds);
  if (emulator) {
    violations += await violationsOf(url);
    await prepareEmulator(url);
  }
  const result = await load(url, settings, settings.seconds);
  if (emulator) violations += await violationsOf(url);
  const statuses: Record<string, number> = { '2xx': result['2xx'], '4xx': result['4xx'], '5xx': result['5xx'] };
  log(`emulator group: ${name} ${Math.round(result.requests.total / result.duration)} requests/s (${JSON.stringify(statuses)}, ${result.errors} errors)`);
  return {
    requestsPerSecond: result.requests.total / result.duration,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    statuses,
    errors: result.errors,
    ...(emulator && { violations }),
  };
}

/** The emulator publishing to a loopback nats-server; each process's response, then its event at a `consumeEvents` consumer. */
async function measureEventLatency(pkg: PackageUnderTest, events: number): Promise<number[]> {
  if (pkg.kind === 'dist') {
    // The emulator loads the NATS client beside the package, as a user installs it.
    const scope = join(pkg.consumerDir, 'node_modules', '@nats-io');
    if (!existsSync(scope)) {
      mkdirSync(join(pkg.consumerDir, 'node_modules'), { recursive: true });
      symlinkSync(join(ROOT, 'node_modules', '@nats-io'), scope, 'dir');
    }
  }
  const server = await startNatsServer();
  const nc = await connect({ servers: server.url });
  let emulator: RunningServer | undefined;
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'EVENTS', subjects: ['events.>'] });
    await jsm.streams.add({ name: 'EVENTS_DEAD', subjects: ['dead.events'] });
    await jsm.consumers.add('EVENTS', { durable_name: 'latency', ack_policy: AckPolicy.Explicit });
    const { command, args, cwd } = emulatorCommand(pkg, ['--nats', server.url]);
    emulator = await startProcess('emulator --nats', command, args, cwd, /^listening on (http:\/\/\S+)$/m);
    const externals = Array.from({ length: events }, (_, i) => `LAT-${i + 1}`);
    for (const external of externals) await send(emulator.url, 'POST', MIX[1]!.path, account(external));

    const responded = new Map<string, number>();
    const arrived = new Map<string, number>();
    const js = jetstream(nc);
    const consumption = consumeEvents(
      await js.consumers.get('EVENTS', 'latency'),
      (event) => {
        if (event.type === 'data_import.import_process.complete') arrived.set(event.payload.external_identifier, performance.now());
      },
      { js, deadLetterSubject: 'dead.events', maxDeliver: 3 },
    );
    try {
      for (const external of externals) {
        const answer = await send(emulator.url, 'POST', MIX[2]!.path, { import_supplier_code: SUPPLIER, external_account_number: external, operations_team_name: 'Migrations' });
        responded.set(external, performance.now());
        if (answer.status !== 201) throw new Error(`emulator: process answered ${answer.status}`);
      }
      const deadline = Date.now() + 30_000;
      while (arrived.size < events && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (arrived.size < events) throw new Error(`emulator: ${arrived.size} of ${events} events reached the consumer`);
    } finally {
      await consumption.stop();
    }
    return externals.map((external) => arrived.get(external)! - responded.get(external)!);
  } finally {
    await emulator?.stop();
    await nc.close();
    await server.stop();
  }
}

export async function measureEmulator(pkg: PackageUnderTest, work: string, settings: EmulatorBenchSettings): Promise<EmulatorResult> {
  const servers = {} as Record<ServerName, RunningServer>;
  const runs: Record<ServerName, ServerRun[]> = { emulator: [], prism: [], bare: [] };
  try {
    for (const name of SERVERS) servers[name] = await startServer(name, pkg, work);
    for (let round = 0; round < settings.rounds; round++) {
      // Each round starts with another server, so that a drift of the machine's speed falls on all of them.
      const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]!);
      for (const name of order) runs[name].push(await measureServer(name, servers[name].url, settings));
    }
  } finally {
    for (const server of Object.values(servers)) await server.stop();
  }
  const rate = (name: ServerName) => summarize(runs[name].map((r) => r.requestsPerSecond));
  const ratio = (peer: ServerName) => summarize(runs.emulator.map((run, i) => run.requestsPerSecond / runs[peer][i]!.requestsPerSecond));
  log(`emulator group: event latency over ${settings.latencyEvents} processes…`);
  const latencies = await measureEventLatency(pkg, settings.latencyEvents);
  return {
    ...settings,
    mix: MIX.map((m) => m.operationId),
    runs,
    rate: { emulator: rate('emulator'), prism: rate('prism'), bare: rate('bare') },
    ratios: { prism: ratio('prism'), bare: ratio('bare') },
    eventLatencyMs: { ...summarize(latencies), p99: quantile(latencies, 0.99) },
    violations: runs.emulator.reduce((sum, run) => sum + (run.violations ?? 0), 0),
  };
}
