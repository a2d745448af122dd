/**
 * `startEmulator`'s options (the command's flags, camelCase), checked before anything starts:
 * a wrong value is a `TypeError` or `RangeError` naming the option and what it takes.
 */
import type { IncomingMessage } from 'node:http';
import { readFileSync } from 'node:fs';
import { parseSuppliers, supplierSettings, type SupplierSettings } from './suppliers.js';

export interface EmulatorOptions {
  /** Default 4010; 0 picks a free port (see `url`). */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Only this token is accepted (`Authorization: Token <token>`); without, any token is. */
  token?: string;
  /** Where generated numbers (platform account numbers) start from. Default 1. */
  seed?: number;
  /** The emulator clock's start, `YYYY-MM-DDTHH:MM:SSZ`; it moves one second per call. Default: now, to the second. */
  clock?: string;
  /** A JSON or YAML file listing supplier codes with status and settings, or the same as an object. Without, any code is an `Ongoing` supplier. */
  suppliers?: string | Readonly<Record<string, SupplierSettings>>;
  /** Processes allowed at once (the seed's limit is 40 when enabled); the one above gets 429. Default: no limit. */
  concurrencyLimit?: number;
  /** How long a process runs, its account `IN_PROGRESS` meanwhile (ms). Default 0: at once. */
  processingMs?: number;
  /** A JSON Lines file every event is appended to. */
  eventsOut?: string;
  /** A NATS server: events are published as `publishEvent` does, on `events.<type>.<version>`. */
  nats?: string;
  /** A Redis server: events are added to `stream`. */
  redis?: string;
  /** The Redis stream key (with `redis`). */
  stream?: string;
  /** Called with each request as it arrives, before it is answered (to log or inspect it). */
  onRequest?: (request: IncomingMessage) => void;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  token: string | undefined;
  seed: number;
  clockStartMs: number;
  suppliers: Map<string, SupplierSettings>;
  listedSuppliersOnly: boolean;
  concurrencyLimit: number | undefined;
  processingMs: number;
  eventsOut: string | undefined;
  nats: string | undefined;
  redis: string | undefined;
  stream: string | undefined;
  onRequest: ((request: IncomingMessage) => void) | undefined;
}

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function wholeNumber(value: unknown, name: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new TypeError(`emulator: ${name} must be a whole number, got ${JSON.stringify(value)}`);
  if (value < min || value > max) throw new RangeError(`emulator: ${name} must be from ${min} to ${max}, got ${value}`);
  return value;
}

function text(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new TypeError(`emulator: ${name} must be a non-empty string`);
  return value;
}

function readSuppliers(value: EmulatorOptions['suppliers']): Map<string, SupplierSettings> {
  if (typeof value === 'string') return parseSuppliers(readFileSync(value, 'utf8'), value);
  return new Map(Object.entries(value ?? {}).map(([code, settings]) => [code, supplierSettings(code, settings)]));
}

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const clock = options.clock;
  if (clock !== undefined && (typeof clock !== 'string' || !DATETIME.test(clock) || Number.isNaN(Date.parse(clock)) || new Date(clock).toISOString().slice(0, 19) !== clock.slice(0, 19))) {
    throw new TypeError(`emulator: clock must be a datetime YYYY-MM-DDTHH:MM:SSZ, got ${JSON.stringify(clock)}`);
  }
  const redis = text(options.redis, 'redis');
  const stream = text(options.stream, 'stream');
  const nats = text(options.nats, 'nats');
  if (redis !== undefined && stream === undefined) throw new TypeError('emulator: redis needs stream, the key to add events to');
  if (stream !== undefined && redis === undefined) throw new TypeError('emulator: stream is the Redis stream key: give redis too');
  if (redis !== undefined && nats !== undefined) throw new TypeError('emulator: publish to one broker, nats or redis, not both');
  if (options.onRequest !== undefined && typeof options.onRequest !== 'function') throw new TypeError('emulator: onRequest must be a function');
  return {
    port: wholeNumber(options.port ?? 4010, 'port', 0, 65535),
    host: text(options.host, 'host') ?? '127.0.0.1',
    token: text(options.token, 'token'),
    seed: wholeNumber(options.seed ?? 1, 'seed', 0, Number.MAX_SAFE_INTEGER),
    clockStartMs: clock === undefined ? Math.floor(Date.now() / 1000) * 1000 : Date.parse(clock),
    suppliers: readSuppliers(options.suppliers),
    listedSuppliersOnly: options.suppliers !== undefined,
    concurrencyLimit: options.concurrencyLimit === undefined ? undefined : wholeNumber(options.concurrencyLimit, 'concurrencyLimit', 0, 1_000_000),
    processingMs: wholeNumber(options.processingMs ?? 0, 'processingMs', 0, 3_600_000),
    eventsOut: text(options.eventsOut, 'eventsOut'),
    nats,
    redis,
    stream,
    onRequest: options.onRequest,
  };
}
