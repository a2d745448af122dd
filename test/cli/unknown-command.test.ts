/**
 * A mistyped command or option of the bin: exit 2, the usage, and on the first line the
 * command or option meant, when one is close (the real bin, spawned).
 */
import { describe, expect, it } from 'vitest';
import { SPAWNS } from '../support/timeouts.js';
import { spawnBin } from './spawn-bin.js';

describe('event-catalog <unknown command>', () => {
  it.each([
    [['validat'], '✘ unknown command "validat" (did you mean "validate"?)'],
    [['Validate'], '✘ unknown command "Validate" (did you mean "validate"?)'],
    [['dead-leters', 'replay'], '✘ unknown command "dead-leters" (did you mean "dead-letters"?)'],
    [['--verison'], '✘ unknown option "--verison" (did you mean "--version"?)'],
    [['frobnicate'], '✘ unknown command "frobnicate"'],
  ])(
    '%j → exit 2, %s, then the usage',
    async (args, firstLine) => {
      const run = await spawnBin(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      const [first, second] = run.stderr.split('\n');
      expect(first).toBe(firstLine);
      expect(second).toBe('usage: event-catalog <command> [options]');
    },
    SPAWNS,
  );
});

describe('event-catalog validate <unknown option>', () => {
  it(
    'names the option meant: --strcit → --strict, exit 2',
    async () => {
      const run = await spawnBin(['validate', '--strcit']);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe('✘ unknown option "--strcit" (did you mean "--strict"?)');
    },
    SPAWNS,
  );
});
