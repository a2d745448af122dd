/**
 * Declarations for the per-event entries (`dist/events/<type>/<version>.d.ts` and `.d.cts`).
 * Bundling declarations for 228 entries is slow and memory-hungry; each needs only a few
 * lines that point at the root declarations, so they are written directly.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

interface ManifestEvent {
  type: string;
  version: string;
  tsName: string;
}

const manifest = JSON.parse(readFileSync('generated/manifest.json', 'utf8')) as { events: ManifestEvent[] };
const banner = '// Declarations of one event entry, written by scripts/write-event-declarations.ts.\n';

for (const event of manifest.events) {
  const name = event.tsName[0]!.toLowerCase() + event.tsName.slice(1);
  const declarations = (root: string): string =>
    banner +
    `import type { EventValidator, ${event.tsName}Event } from '${root}';\n` +
    `export type { ${event.tsName}Event as Event, ${event.tsName}Payload as Payload } from '${root}';\n` +
    `/** Validator of \`${event.type}\` ${event.version} messages (Standard Schema v1). */\n` +
    `export declare const ${name}: EventValidator<${event.tsName}Event>;\n` +
    `export default ${name};\n`;
  const base = join('dist', 'events', event.type, event.version);
  mkdirSync(dirname(base), { recursive: true });
  writeFileSync(`${base}.d.ts`, declarations('../../index.js'));
  writeFileSync(`${base}.d.cts`, declarations('../../index.cjs'));
}
console.log(`✔ wrote declarations for ${manifest.events.length} event entries`);
