/**
 * Numbers the emulator makes up (platform account numbers) come from its seed: mulberry32, a
 * small 32-bit generator, so the same seed gives the same numbers on any machine.
 */
export interface SeededRandom {
  /** The next 32 bits, as eight upper-case hexadecimal digits. */
  hex8(): string;
}

export function createRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return { hex8: () => next().toString(16).toUpperCase().padStart(8, '0') };
}
