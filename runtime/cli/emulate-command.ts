/**
 * `event-catalog emulate`: the data-import service's REST behaviour on a local port, its events
 * in memory, a JSON Lines file or a broker. Prints `listening on http://HOST:PORT` once it
 * serves; SIGTERM or SIGINT closes it (exit 0).
 */
import { parseArgs } from 'node:util';
import { errorMessage } from '../internal/describe-error.js';
import { startEmulator, SuppliersError, type EmulatorOptions } from '../emulator/index.js';

const BIN_NAME = 'event-catalog';

export const EMULATE_USAGE = `usage: ${BIN_NAME} emulate [options]

Serves the data-import REST API's 11 operations from its contract, with in-memory state by the
seed's rules; every request and every answer is checked against the contract. Events go to
memory (GET /_emulator/events), and to --events-out, --nats or --redis when given.

options:
  --port N                 default 4010; 0 picks a free port
  --host HOST              default 127.0.0.1
  --token T                accept only this token (Authorization: Token T); default: any
  --seed N                 where generated account numbers start from (default 1)
  --clock ISO-DATETIME     the clock's start, YYYY-MM-DDTHH:MM:SSZ; it moves one second per call
                           (default: now)
  --suppliers FILE         JSON or YAML: supplier codes with status and settings; without it any
                           code is an Ongoing supplier
  --concurrency-limit N    processes allowed at once (the seed's limit is 40); above: 429
  --processing-ms N        how long a process runs, its account IN_PROGRESS (default 0)
  --events-out FILE        append every event to FILE as JSON Lines
  --nats URL               publish events to NATS JetStream (events.<type>.<version>)
  --redis URL --stream KEY add events to a Redis stream

Control endpoints: GET /_emulator/events, POST /_emulator/reset, PUT /_emulator/suppliers/{code},
POST /_emulator/faults, GET /_emulator/coverage.
`;

export interface EmulateIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Aborted by SIGINT. */
  interrupt?: AbortSignal;
}

const NUMBERS = { port: 'port', seed: 'seed', 'concurrency-limit': 'concurrencyLimit', 'processing-ms': 'processingMs' } as const;
const TEXTS = { host: 'host', token: 'token', clock: 'clock', suppliers: 'suppliers', 'events-out': 'eventsOut', nats: 'nats', redis: 'redis', stream: 'stream' } as const;

/** Runs `emulate …` until SIGTERM or SIGINT; resolves with the exit status (0 closed cleanly, 1 could not start, 2 usage error). */
export async function runEmulate(args: string[], io: EmulateIo): Promise<number> {
  const usageError = (message: string): number => {
    io.stderr.write(`✘ ${message}\n${EMULATE_USAGE}`);
    return 2;
  };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: { ...Object.fromEntries(Object.keys({ ...NUMBERS, ...TEXTS }).map((name) => [name, { type: 'string' as const }])), help: { type: 'boolean', short: 'h', default: false } },
    }));
  } catch (error) {
    return usageError(errorMessage(error));
  }
  if (values.help) {
    io.stdout.write(EMULATE_USAGE);
    return 0;
  }
  const options: Record<string, string | number> = {};
  for (const [flag, option] of Object.entries(NUMBERS)) {
    const text = values[flag];
    if (typeof text !== 'string') continue;
    if (!/^\d+$/.test(text)) return usageError(`--${flag} takes a whole number, got ${JSON.stringify(text)}`);
    options[option] = Number(text);
  }
  for (const [flag, option] of Object.entries(TEXTS)) if (typeof values[flag] === 'string') options[option] = values[flag];

  let emulator;
  try {
    emulator = await startEmulator(options as EmulatorOptions);
  } catch (error) {
    if (error instanceof SuppliersError) {
      io.stderr.write(`✘ the suppliers file is not usable:\n${error.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return 2;
    }
    if (error instanceof TypeError || error instanceof RangeError) return usageError(error.message.replace(/^emulator: /, ''));
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      io.stderr.write(`✘ the broker client is not installed: npm install ${options.nats !== undefined ? '@nats-io/jetstream @nats-io/transport-node' : 'ioredis'}\n`);
      return 2;
    }
    io.stderr.write(`✘ the emulator could not start: ${errorMessage(error)}\n`);
    return 1;
  }
  // Listening for the signals before saying so: a supervisor may send SIGTERM as soon as it reads the line.
  const stopped = new Promise<void>((resolve) => {
    if (io.interrupt?.aborted) resolve();
    io.interrupt?.addEventListener('abort', () => resolve(), { once: true });
    process.once('SIGTERM', () => resolve());
  });
  io.stdout.write(`listening on ${emulator.url}\n`);
  await stopped;
  await emulator.close();
  return 0;
}
