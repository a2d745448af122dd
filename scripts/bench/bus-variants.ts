/**
 * What the bus group compares, shared by the harness (`bus-throughput.ts`), the process that
 * times one run (`bus-run.ts`) and the report: the variants, the job a run process is given
 * and the result it hands back.
 */

export type Broker = 'nats' | 'redis';
export const BROKERS: readonly Broker[] = ['nats', 'redis'];

/** The adapter before the work of "Operable in production" (tracing, batched acknowledgements, the loss fixes). */
export const BEFORE_COMMIT = '9b7f99b';

/**
 * Whose code consumes or publishes: the loop a user writes with the broker's client alone,
 * the adapter of the working tree, or the adapter as it was at `BEFORE_COMMIT`.
 */
export type Code = 'peer' | 'current' | 'before';

/**
 * What the process has of OpenTelemetry: `hidden`, `@opentelemetry/*` cannot be resolved (as
 * if not installed); `api`, the API is installed and nothing is registered (its no-op
 * providers); `sdk`, a tracer provider, a meter provider, the W3C propagator and a context
 * manager registered globally.
 */
export type OpenTelemetrySetup = 'hidden' | 'api' | 'sdk';

export type Operation = 'consume' | 'publish';

export interface BusVariant {
  id: string;
  operation: Operation;
  code: Code;
  openTelemetry: OpenTelemetrySetup;
  /** As the report names it. */
  label: string;
  /** As a ratio names it. */
  short: string;
}

export const VARIANTS: readonly BusVariant[] = [
  { id: 'peer', operation: 'consume', code: 'peer', openTelemetry: 'hidden', label: 'hand-written loop (no package)', short: 'hand-written loop' },
  { id: 'absent', operation: 'consume', code: 'current', openTelemetry: 'hidden', label: 'adapter, `@opentelemetry/api` absent', short: 'adapter, API absent' },
  { id: 'api', operation: 'consume', code: 'current', openTelemetry: 'api', label: 'adapter, API installed, no SDK registered', short: 'adapter, API without SDK' },
  { id: 'tracing', operation: 'consume', code: 'current', openTelemetry: 'sdk', label: 'adapter, tracing on (SDK registered)', short: 'adapter, tracing on' },
  { id: 'before', operation: 'consume', code: 'before', openTelemetry: 'hidden', label: `adapter at ${BEFORE_COMMIT}, \`@opentelemetry/api\` absent`, short: `adapter at ${BEFORE_COMMIT}` },
  { id: 'publish-absent', operation: 'publish', code: 'current', openTelemetry: 'hidden', label: '`publishEvent`, `@opentelemetry/api` absent', short: '`publishEvent`, API absent' },
  { id: 'publish-before', operation: 'publish', code: 'before', openTelemetry: 'hidden', label: `\`publishEvent\` at ${BEFORE_COMMIT}, \`@opentelemetry/api\` absent`, short: `\`publishEvent\` at ${BEFORE_COMMIT}` },
];

export const variant = (id: string): BusVariant => {
  const found = VARIANTS.find((v) => v.id === id);
  if (found === undefined) throw new Error(`bus: unknown variant ${id}`);
  return found;
};

/** The ratios the group reports: `first` ÷ `second`, each slot's two runs paired. */
export interface RatioDefinition {
  first: string;
  second: string;
  /** The goal, when there is one: at most this. */
  limit?: number;
}

export const RATIOS: readonly RatioDefinition[] = [
  { first: 'absent', second: 'peer', limit: 1.1 },
  { first: 'api', second: 'peer', limit: 1.1 },
  { first: 'tracing', second: 'peer' },
  // What having the API without an SDK costs the adapter, paired directly.
  { first: 'api', second: 'absent' },
  { first: 'before', second: 'peer' },
  { first: 'absent', second: 'before', limit: 1.01 },
  { first: 'publish-absent', second: 'publish-before', limit: 1.01 },
];

/** Where the stored messages are, as the harness set them up on each broker. */
export const NATS_STREAM = 'BENCH';
export const NATS_SUBJECT = 'bench.events';
export const NATS_DEAD_LETTER_STREAM = 'BENCH_DEAD';
export const NATS_DEAD_LETTER_SUBJECT = 'bench-dead.events';
export const REDIS_STREAM = 'bench';
export const REDIS_DEAD_LETTER_STREAM = 'bench:dead';
/** Where the publish runs add (NATS: `events.>`, `publishEvent`'s default subjects), emptied after every round. */
export const NATS_PUBLISH_STREAM = 'PUBLISHED';
export const REDIS_PUBLISH_STREAM = 'published';

/** What one run process is asked to do (written to a JSON file, its path the process's argument). */
export interface BusRunJob {
  /** The brokers to run on, in this order: each gets its warm-up rounds, then its timed round. */
  brokers: { broker: Broker; url: string }[];
  variant: string;
  /** Unique over the whole group: names the consumers and groups this run creates. */
  runId: string;
  /** The adapter bundle (`current` or `before` code). */
  adapterModule?: string;
  /** The bundle that registers the OpenTelemetry SDK (`sdk` setup). */
  tracingModule?: string;
  /** JSON file of the message texts stored on the brokers (the publish runs publish them). */
  textsFile: string;
  /**
   * Calls of the adapter's own validation per event version before anything is timed (its
   * `decodeEvent` for consuming, `validateEvent` in strict mode for publishing), on the stored
   * messages of that event: the engine compiles an event's checks only after thousands of
   * calls, and the rarest events come a few times per round.
   */
  warmupChecksPerEvent: number;
  /** Untimed rounds through each broker (consume or publish every message) before its timed one. */
  warmupRounds: number;
  /** Publish: events sent at once, each batch awaited before the next. */
  publishBatch: number;
}

/** One broker's timed round in a run. */
export interface BrokerRun {
  /** Wall time of the timed round. */
  ms: number;
  /** CPU time (user and system) the process used during the timed round: less sensitive than wall time to the machine's other load. */
  cpuMs: number;
  /** Wall time of the untimed rounds before it on this broker. */
  warmupRoundsMs: number;
  /** `sdk` only: spans the exporter received in the timed round (one per message, or the run fails). */
  spans?: number;
}

export interface BusRunResult {
  variant: string;
  /** Messages each round handled (consume) or published. */
  messages: number;
  /** Wall time of the checks' warm-up, shared by the brokers. */
  warmupChecksMs: number;
  brokers: Partial<Record<Broker, BrokerRun>>;
}
