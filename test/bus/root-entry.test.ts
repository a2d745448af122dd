/**
 * The package root never imports a broker client: bundling `runtime/index.ts` pulls in
 * nothing from `@nats-io/*` or `ioredis`. (The Redis adapter only needs ioredis' types: it
 * calls methods on the connection it is given.)
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BROKER_CLIENT = /node_modules\/(@nats-io\/|ioredis\/)/;

async function bundledInputs(entry: string): Promise<string[]> {
  const result = await build({ entryPoints: [entry], bundle: true, write: false, metafile: true, format: 'esm', platform: 'node', absWorkingDir: ROOT, logLevel: 'silent' });
  return Object.keys(result.metafile.inputs);
}

describe('broker clients stay out of the root entry', () => {
  it('the root bundles no broker client and no adapter code', async () => {
    const inputs = await bundledInputs('runtime/index.ts');
    expect(inputs.filter((input) => BROKER_CLIENT.test(input) || /runtime\/(bus|nats|redis-streams)\//.test(input))).toEqual([]);
  }, 60_000);

  it('the NATS adapter does bundle its client (so the check above can fail)', async () => {
    const inputs = await bundledInputs('runtime/nats/index.ts');
    expect(inputs.some((input) => /node_modules\/@nats-io\//.test(input))).toBe(true);
  }, 60_000);
});
