/**
 * In-process timing with mitata (runs inside the bench worker, a plain `node` process).
 * Each timed function walks a whole prepared input (a stream of messages) and returns a
 * number derived from every result, which goes to `do_not_optimize` so no call can be
 * dropped as dead code. Inputs are built before timing starts.
 */
import { do_not_optimize, measure } from 'mitata';

export interface TimingOptions {
  /** Minimum CPU time per benchmark, in ms (mitata keeps sampling until both this and `minSamples` are reached). */
  minCpuMs: number;
  minSamples: number;
  /** Untimed runs of each function before sampling (JIT warm-up); at least one, and no more once a second has gone by. */
  warmup: number;
  /**
   * Then more untimed runs until this many items (messages) have gone through: validators
   * reach a steady state only after some 300k–1M messages. At most 5 s per function.
   */
  warmupItems: number;
}

export interface BenchStats {
  name: string;
  /** Items walked per call (messages). */
  items: number;
  samples: number;
  /** Per call (whole input), ns. */
  medianNs: number;
  p25Ns: number;
  p75Ns: number;
  minNs: number;
  /** Per item: `medianNs / items`. */
  nsPerItem: number;
  /** The function's return value (a count), as a sanity check. */
  result: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

export async function timeIt(name: string, items: number, fn: () => number, options: TimingOptions): Promise<BenchStats> {
  let result = fn();
  const warmupStart = performance.now();
  for (let i = 1; i < options.warmup && performance.now() - warmupStart < 1000; i++) result = fn();
  for (let walked = items; walked < options.warmupItems && performance.now() - warmupStart < 5_000; walked += items) result = fn();
  const stats = await measure(
    () => {
      do_not_optimize(fn());
    },
    {
      min_cpu_time: options.minCpuMs * 1e6,
      min_samples: options.minSamples,
      warmup_samples: 1,
      ...(gc && { gc }),
    },
  );
  return {
    name,
    items,
    samples: stats.samples.length,
    medianNs: stats.p50,
    p25Ns: stats.p25,
    p75Ns: stats.p75,
    minNs: stats.min,
    nsPerItem: stats.p50 / items,
    result,
  };
}
