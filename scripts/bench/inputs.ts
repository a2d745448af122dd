/**
 * Inputs of the in-process benchmarks, built by the harness before anything is timed: they
 * need the catalog model and the sample builders of `generator/samples/`, which the bench worker
 * does not load.
 */
import { join } from 'node:path';
import { loadCatalogFromDisk } from '../../generator/catalog/load-catalog.js';
import type { CatalogModel } from '../../generator/model.js';
import { generateLabelledSampleStream } from '../generate-sample-stream.js';
import { fullPayload, mutations } from '../../generator/samples/payload-samples.js';
import { ROOT, readJson } from './common.js';
import type { ManifestEvent } from './package.js';
import type { MessageSchema } from './peers.js';

export interface StreamInput {
  /** Message texts (JSON), each parseable. */
  texts: string[];
  /** Sample class of each (`valid`, `missing_required`, …). */
  kinds: string[];
  /** Lines of the generated stream left out because they are not JSON (the `malformed_json` class): not "already parsed" messages. */
  droppedNotJson: number;
}


let cachedModel: CatalogModel | undefined;
export function catalogModel(): CatalogModel {
  if (cachedModel) return cachedModel;
  const loaded = loadCatalogFromDisk(join(ROOT, 'catalog'));
  if (!loaded.model) throw new Error(`the catalog does not load: ${loaded.errors.map((e) => e.message).join('; ')}`);
  return (cachedModel = loaded.model);
}

/** The stream of `npm run samples`: skewed over every event, `invalidShare` broken round-robin over every class. */
export function prepareStream(count: number, invalidShare = 0.05): StreamInput {
  const lines = generateLabelledSampleStream(catalogModel(), { count, invalidShare, blankShare: 0, seed: 'bench' });
  const texts: string[] = [];
  const kinds: string[] = [];
  let droppedNotJson = 0;
  for (const line of lines) {
    try {
      JSON.parse(line.text);
    } catch {
      droppedNotJson++;
      continue;
    }
    texts.push(line.text);
    kinds.push(line.kind);
  }
  return { texts, kinds, droppedNotJson };
}

/** Every published message schema (tolerant), from the package under test (or the repository). */
export function loadMessageSchemas(events: readonly ManifestEvent[], schemasRoot: string): MessageSchema[] {
  return events.map((e) => ({ type: e.type, version: e.version, schema: readJson(join(schemasRoot, e.schema)), payload: readJson(join(schemasRoot, e.payloadSchema)) }));
}

/** Valid messages spread evenly: every event version in catalog order, each with a full payload, again and again up to `count`. */
export function prepareEvenStream(count: number): string[] {
  const model = catalogModel();
  const one = model.events.map((event) => JSON.stringify({ type: event.type, version: event.version, payload: fullPayload(model, event) }));
  return Array.from({ length: Math.max(count, one.length) }, (_, i) => one[i % one.length]!);
}

export interface ErrorPathInput {
  /** One valid message (full payload) per event. */
  valid: string[];
  /** Per event, up to one of each: a required top-level property missing, a top-level value of the wrong type, a fault deeper down. One issue each. */
  singleFault: string[];
  /** Per event with at least two payload fields: every top-level payload field `null` (one issue per field). */
  manyFaults: string[];
  /** Per event (same order as `valid`), its first single-fault message, for the first-rejection (cold) cost. */
  firstRejection: string[];
}

const depth = (pointer: string): number => pointer.split('/').length - 1;

export function prepareErrorPath(): ErrorPathInput {
  const model = catalogModel();
  const message = (type: string, version: string, payload: unknown) => JSON.stringify({ type, version, payload });
  const input: ErrorPathInput = { valid: [], singleFault: [], manyFaults: [], firstRejection: [] };
  for (const event of model.events) {
    const { type, version } = event;
    input.valid.push(message(type, version, fullPayload(model, event)));
    const rejected = mutations(model, event).filter((m) => !m.validIn.includes('tolerant'));
    const picks = [
      rejected.find((m) => m.label.startsWith('missing ') && depth(m.expectPath) === 1),
      rejected.find((m) => m.label.startsWith('wrong type ') && depth(m.expectPath) === 1),
      rejected.find((m) => depth(m.expectPath) > 1),
    ].filter((m) => m !== undefined);
    for (const m of picks) input.singleFault.push(message(type, version, m.payload));
    if (picks[0]) input.firstRejection.push(message(type, version, picks[0].payload));
    if (event.fields.length >= 2) input.manyFaults.push(message(type, version, Object.fromEntries(event.fields.map((f) => [f.name, null]))));
  }
  return input;
}
