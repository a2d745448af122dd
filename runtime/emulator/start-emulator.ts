/**
 * `startEmulator(options)`: the data-import service's REST behaviour on a local port, its
 * events in memory (and a file, and a broker, when asked). Resolves once it listens.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmulatorCoverage } from './coverage.js';
import { Emulation, type EmittedEventRecord } from './emulation.js';
import { openEventSinks } from './event-sinks.js';
import { resolveOptions, type EmulatorOptions } from './options.js';
import { createRequestListener } from './serve.js';

export interface Emulator {
  /** `http://HOST:PORT`: the base URL to give a client. */
  url: string;
  /** Every event emitted since the start or the last reset, in order. */
  events(): EmittedEventRecord[];
  /** What was exercised since the start or the last reset (`GET /_emulator/coverage`). */
  coverage(): EmulatorCoverage;
  /** Back to the start: no accounts, the suppliers given, the clock and seed as given, no events, no faults. */
  reset(): void;
  /** Stops listening, lets calls in progress finish, closes the events file and the broker connection. */
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const settings = { suppliers: resolved.suppliers, listedSuppliersOnly: resolved.listedSuppliersOnly, seed: resolved.seed, clockStartMs: resolved.clockStartMs };
  let emulation = new Emulation(settings);
  const reset = (): void => {
    emulation = new Emulation(settings);
  };
  const sinks = resolved.eventsOut !== undefined || resolved.nats !== undefined || resolved.redis !== undefined ? await openEventSinks(resolved) : undefined;
  const server = createServer(
    createRequestListener({
      settings: { token: resolved.token, concurrencyLimit: resolved.concurrencyLimit, processingMs: resolved.processingMs, onRequest: resolved.onRequest },
      sink: sinks,
      current: () => emulation,
      reset,
    }),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(resolved.port, resolved.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await sinks?.close();
    throw error;
  }
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    events: () => [...emulation.events],
    coverage: () => emulation.coverage.report(),
    reset,
    close() {
      closing ??= new Promise<void>((resolve) => {
        // Connections kept alive close as soon as their call in progress is answered.
        const idle = setInterval(() => server.closeIdleConnections(), 20);
        server.close(() => {
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
      }).then(() => sinks?.close());
      return closing;
    },
  };
}
