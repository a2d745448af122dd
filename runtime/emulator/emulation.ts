/**
 * One run of the emulator from its start or its last reset: state, clock, seed, coverage,
 * faults waiting, and the events emitted. A reset replaces the whole object, so a call still
 * running when it happens finishes against the run it started in.
 */
import type { CatalogEvent } from '../index.js';
import type { OperationId } from '../rest/index.js';
import { createClock, type EmulatorClock } from './clock.js';
import { CoverageCounter } from './coverage.js';
import { FaultQueue } from './faults.js';
import { createRandom } from './random.js';
import { EmulatorState } from './state.js';
import type { SupplierSettings } from './suppliers.js';

/** An event the emulator emitted, with the call that emitted it. */
export interface EmittedEventRecord {
  /** 1, 2, …: the order of emission. */
  sequence: number;
  /** The emulator's clock at the call, `YYYY-MM-DDTHH:MM:SSZ`. */
  time: string;
  operationId: OperationId;
  /** The outcome of the catalog's mapping (`created`, `refused`, …). */
  outcome: string;
  event: CatalogEvent;
}

export interface EmulationSettings {
  suppliers: ReadonlyMap<string, SupplierSettings>;
  listedSuppliersOnly: boolean;
  seed: number;
  clockStartMs: number;
}

export class Emulation {
  readonly state: EmulatorState;
  readonly clock: EmulatorClock;
  readonly coverage = new CoverageCounter();
  readonly faults = new FaultQueue();
  readonly events: EmittedEventRecord[] = [];

  constructor(settings: EmulationSettings) {
    this.state = new EmulatorState(settings.suppliers, settings.listedSuppliersOnly, createRandom(settings.seed));
    this.clock = createClock(settings.clockStartMs);
  }
}
