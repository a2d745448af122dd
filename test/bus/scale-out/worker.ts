/**
 * One consumer process of the scale-out and cluster tests. Argument: JSON `{ broker, url, name, log, summary, killAfter? }`.
 * Appends the id and delivery count of each handled message to `log` (synchronously, so a SIGKILL loses no line),
 * SIGKILLs itself right after logging its `killAfter`-th message (in the handler, so it dies holding that message
 * unacknowledged and the rest of its batch),
 * prints `ready` once connected, starts consuming when a line `go` comes on standard input (so
 * that all three start together on a full stream), and on SIGTERM stops, writes its counts to
 * `summary` and exits.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import type { CatalogEvent } from '../../../runtime/index.js';
import type { Consumption } from '../../../runtime/bus/index.js';
import { idIn } from './traffic.js';

interface WorkerConfig {
  broker: 'nats' | 'redis';
  url: string;
  name: string;
  log: string;
  summary: string;
  killAfter?: number;
}

const config = JSON.parse(process.argv[2]!) as WorkerConfig;

let handled = 0;

/** Logs `<id> <delivery count>` per handled message. */
function handle(event: CatalogEvent, deliveries: number): void {
  const account = (event.payload as { account_number: string }).account_number;
  if (account.startsWith('FAIL-')) throw new Error(`injected failure for ${account}`);
  appendFileSync(config.log, `${idIn(account)} ${deliveries}\n`);
  if (++handled === config.killAfter) process.kill(process.pid, 'SIGKILL');
}

/** Resolves at the first line on standard input. */
const go = () => new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
// Standard input closes when the test process goes away: so does this worker.
process.stdin.once('end', () => process.exit(2));

async function start(): Promise<{ consumption: Consumption; close: () => Promise<unknown> }> {
  if (config.broker === 'nats') {
    const { connect } = await import('@nats-io/transport-node');
    const { jetstream } = await import('@nats-io/jetstream');
    const { consumeEvents } = await import('../../../runtime/nats/index.js');
    // `url` may list several servers (a cluster), comma-separated.
    const nc = await connect({ servers: config.url.split(','), maxReconnectAttempts: -1 });
    const js = jetstream(nc);
    const consumer = await js.consumers.get('SCALE', 'workers');
    process.stdout.write('ready\n');
    await go();
    const consumption = consumeEvents(consumer, (event, msg) => handle(event, msg.info.deliveryCount), { js, deadLetterSubject: 'dead.scale', maxDeliver: 3, backoffMs: 10, maxMessages: 50 });
    return { consumption, close: () => nc.close() };
  }
  const { Redis } = await import('ioredis');
  const { consumeEvents } = await import('../../../runtime/redis-streams/index.js');
  const redis = new Redis(config.url);
  await redis.ping();
  process.stdout.write('ready\n');
  await go();
  const consumption = consumeEvents(redis, (event, message) => handle(event, message.deliveries), {
    stream: 'scale',
    group: 'workers',
    consumer: config.name,
    deadLetterStream: 'scale:dead',
    maxDeliver: 3,
    claimIdleMs: 6000,
    count: 50,
    blockMs: 200,
  });
  return { consumption, close: () => redis.quit() };
}

const { consumption, close } = await start();
process.on('SIGTERM', () => {
  void consumption
    .stop()
    .then(close)
    .then(() => {
      writeFileSync(config.summary, JSON.stringify(consumption.counts));
      process.exit(0);
    });
});
await consumption.closed;
