/** What a handler has besides the request: the state, the clock's time of this call, the settings that change answers. */
import type { EmulatorState } from './state.js';

export interface CallContext {
  state: EmulatorState;
  /** The emulator clock at this call (ms since the epoch). */
  now: number;
  /** Processes allowed at once (the seed's optional limit); `undefined`: no limit. */
  concurrencyLimit: number | undefined;
  /** How long a process runs, during which its account is `IN_PROGRESS`. */
  processingMs: number;
}
