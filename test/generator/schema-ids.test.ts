/**
 * The schema `$id`s are a contract written once (generator/common/schema-ids.ts): the
 * schemas, the manifest, the event entries and the registry's `messageSchemaId` (which the
 * CloudEvents adapter puts in `dataschema`) all come from it, so they cannot disagree.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { messageSchemaId } from '../../generated/registry.cjs';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import { schemaIds } from '../../generator/common/schema-ids.js';
import { emitRegistry } from '../../generator/emit/registry.js';
import { toCloudEvent } from '../../runtime/cloudevents.js';
import type { CatalogEvent } from '../../generated/types.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const model = loadCatalogFromDisk(join(ROOT, 'catalog')).model!;
const manifest = JSON.parse(readFileSync(join(ROOT, 'generated/manifest.json'), 'utf8')) as { events: { type: string; version: string; schemaId: string }[] };

describe('message schema ids', () => {
  it('the registry names every event\'s message schema as the generator does', () => {
    for (const event of model.events) expect(messageSchemaId(event.type, event.version)).toBe(schemaIds.message(event));
  });

  it('a CloudEvent\'s dataschema is the $id of its event\'s message schema, for every event of the manifest', () => {
    for (const { type, version, schemaId } of manifest.events) {
      const event = { type, version, payload: {} } as unknown as CatalogEvent;
      expect(toCloudEvent(event, { id: '1', source: 'test' }).dataschema).toBe(schemaId);
      const schema = JSON.parse(readFileSync(join(ROOT, 'generated', `schemas/events/${type}/${version}/message.schema.json`), 'utf8')) as { $id: string };
      expect(schema.$id).toBe(schemaId);
    }
  });

  it('follows the generator: the registry\'s function is built from schemaIds.message, not copied', () => {
    const registry = emitRegistry(model).find((f) => f.path === 'registry.cjs')!.contents;
    const body = /exports\.messageSchemaId = function messageSchemaId\(type, version\) \{\n {2}return (.*);\n\};/.exec(registry)?.[1];
    expect(body).toBeDefined();
    const built = new Function('type', 'version', `return ${body};`) as (type: string, version: string) => string;
    expect(built('a.b', 'v9')).toBe(schemaIds.message({ type: 'a.b', version: 'v9' }));
  });

  it('is written in exactly one hand-written file', () => {
    const handWritten = ['generator', 'runtime', 'scripts'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
        .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split('\\').join('/')),
    );
    const holders = handWritten.filter((file) => readFileSync(join(ROOT, file), 'utf8').includes('urn:data-import-events'));
    expect(holders).toEqual(['generator/common/schema-ids.ts']);
  });
});
