/**
 * `event-catalog dead-letters replay`: after an upgrade, re-validate the dead letters of a
 * NATS JetStream stream or a Redis stream and publish again those that are valid now.
 * The broker adapter and its client are loaded only here, on demand.
 */
import { parseArgs } from 'node:util';
import { errorMessage } from '../internal/describe-error.js';
import { byteCount } from './validate-arguments.js';
import type { ReplayDeadLettersOptions, ReplayReport as NatsReport } from '../nats/index.js';
import type { ReplayReport as RedisReport } from '../redis-streams/index.js';

const BIN_NAME = 'event-catalog';

export const DEAD_LETTERS_USAGE = `usage: ${BIN_NAME} dead-letters replay --nats URL --stream DEAD_LETTER_STREAM [options]
       ${BIN_NAME} dead-letters replay --redis URL --dead-letter-stream KEY --stream KEY [options]

Re-validates each dead letter against this version of the catalog. One that is valid now is
published again (NATS: on its original subject; Redis: added to --stream) and removed from the
dead letters; the rest stay where they are.

options:
  --strict       re-validate in strict mode (default: tolerant)
  --limit N      examine at most N dead letters
  --max-message-bytes BYTES
                 the consumers' maxMessageBytes (default 1MiB; KiB, MiB, GiB accepted): a
                 dead letter larger than that is kept (too_large), as they would refuse it
  --dry-run      only report what would move
  --json         print the report as one JSON object
`;

export interface DeadLettersIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

type Report = NatsReport | RedisReport;

function describeReport(report: Report, dryRun: boolean): string {
  const kept = Object.entries(report.kept).map(([reason, n]) => `${reason} ${n}`);
  return [
    `${dryRun ? 'would move' : 'moved'} ${report.moved} of ${report.examined} dead letters`,
    `kept: ${kept.length === 0 ? 'none' : kept.join(', ')}`,
    '',
  ].join('\n');
}

/** What both brokers' `replayDeadLetters` take besides where the dead letters are. */
type ReplayOptions = Omit<ReplayDeadLettersOptions, 'stream'> & { dryRun: boolean };

async function replayOnNats(url: string, stream: string, options: ReplayOptions): Promise<Report> {
  const [{ connect }, { jetstreamManager }, { replayDeadLetters }] = await Promise.all([import('@nats-io/transport-node'), import('@nats-io/jetstream'), import('../nats/index.js')]);
  const nc = await connect({ servers: url });
  try {
    return await replayDeadLetters(await jetstreamManager(nc), { stream, ...options });
  } finally {
    await nc.close();
  }
}

async function replayOnRedis(url: string, deadLetterStream: string, stream: string, options: ReplayOptions): Promise<Report> {
  const [{ Redis }, { replayDeadLetters }] = await Promise.all([import('ioredis'), import('../redis-streams/index.js')]);
  // One attempt: a command-line run reports a broker it cannot reach rather than waiting for it.
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined); // reported by the command that failed
  try {
    await redis.connect();
    return await replayDeadLetters(redis, { deadLetterStream, stream, ...options });
  } finally {
    // Every command has been answered by now.
    redis.disconnect();
  }
}

/** Runs `dead-letters <subcommand> …`; resolves with the exit status (0 done, 2 usage error or broker failure). */
export async function runDeadLetters(args: string[], io: DeadLettersIo): Promise<number> {
  const usageError = (message: string) => {
    io.stderr.write(`✘ ${message}\n${DEAD_LETTERS_USAGE}`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        nats: { type: 'string' },
        redis: { type: 'string' },
        stream: { type: 'string' },
        'dead-letter-stream': { type: 'string' },
        strict: { type: 'boolean', default: false },
        limit: { type: 'string' },
        'max-message-bytes': { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    return usageError(errorMessage(error));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(DEAD_LETTERS_USAGE);
    return 0;
  }
  if (positionals.length !== 1 || positionals[0] !== 'replay') return usageError(positionals.length === 0 ? 'no subcommand given' : `unknown subcommand ${JSON.stringify(positionals.join(' '))}`);
  if ((values.nats === undefined) === (values.redis === undefined)) return usageError('give exactly one of --nats URL or --redis URL');
  if (values.stream === undefined) return usageError('--stream is required');
  if (values.redis !== undefined && values['dead-letter-stream'] === undefined) return usageError('--dead-letter-stream is required with --redis');
  if (values.nats !== undefined && values['dead-letter-stream'] !== undefined) return usageError('--dead-letter-stream is for --redis; with --nats, --stream names the dead-letter stream');
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) return usageError(`--limit must be a positive integer, got ${JSON.stringify(values.limit)}`);
  }
  let maxMessageBytes: number | undefined;
  if (values['max-message-bytes'] !== undefined) {
    maxMessageBytes = byteCount(values['max-message-bytes']);
    if (maxMessageBytes === undefined || maxMessageBytes < 1) return usageError(`--max-message-bytes takes a number of bytes (such as 2097152 or 2MiB), got ${JSON.stringify(values['max-message-bytes'])}`);
  }
  const options: ReplayOptions = { mode: values.strict ? 'strict' : 'tolerant', limit, maxMessageBytes, dryRun: values['dry-run'] };

  let report: Report;
  try {
    report = values.nats !== undefined ? await replayOnNats(values.nats, values.stream, options) : await replayOnRedis(values.redis!, values['dead-letter-stream']!, values.stream, options);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      io.stderr.write(`✘ the broker client is not installed: npm install ${values.nats !== undefined ? '@nats-io/jetstream @nats-io/transport-node' : 'ioredis'}\n`);
      return 2;
    }
    io.stderr.write(`✘ replay failed: ${errorMessage(error)}\n`);
    return 2;
  }
  io.stdout.write(values.json ? `${JSON.stringify(report)}\n` : describeReport(report, options.dryRun));
  return 0;
}
