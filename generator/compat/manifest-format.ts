/**
 * The manifest format a compatibility check reads, checked before anything is compared: a
 * baseline it misreads (a value of the wrong kind taken as "absent", a format it does not
 * know) would give a wrong verdict with exit 0.
 *
 * A manifest may say `formatVersion`; one without it is format 1, the format every manifest
 * so far has had (`generated/manifest.json`, `catalog/baseline/manifest.json`). A later
 * format adds the key, and this version refuses it rather than guess.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import { ManifestShapeError } from './snapshot.js';

export const MANIFEST_FORMAT_VERSION = 1;

/** How many problems a refusal lists. */
const MAX_SHOWN = 5;

const field = {
  type: 'object',
  required: ['name', 'type', 'optional'],
  properties: { name: { type: 'string' }, type: { type: 'string' }, optional: { type: 'boolean' }, nullable: { type: 'boolean' } },
};

/** The keys a comparison reads, and the kind of each. Other keys are free (tools may add their own). */
const manifestSchema = {
  type: 'object',
  required: ['events'],
  properties: {
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'version', 'fields'],
        properties: { type: { type: 'string' }, version: { type: 'string' }, open: { type: 'boolean' }, openSeed: { type: 'string' }, fields: { type: 'array', items: field } },
      },
    },
    sharedTypes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'fields'],
        properties: { name: { type: 'string' }, fields: { type: 'array', items: field }, usedBy: { type: 'array', items: { type: 'string' } } },
      },
    },
  },
};

let validateManifest: ReturnType<Ajv2020['compile']> | undefined;

/** The value at an error's place, short enough for one line. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** `/events/0/fields/1/nullable: must be boolean, not "sometimes"` (ajv's `verbose` keeps the value). */
function describeError(error: ErrorObject): string {
  if (error.keyword === 'required') return `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}: missing`;
  return `${error.instancePath || '/'}: must be ${(error.params as { type?: string }).type ?? error.message}, not ${shown(error.data)}`;
}

/** Throws `ManifestShapeError` saying what is wrong, with JSON Pointers, when `manifest` is not a format-1 manifest. */
export function checkManifestFormat(manifest: unknown): void {
  if (typeof manifest === 'object' && manifest !== null && 'formatVersion' in manifest) {
    const version = (manifest as { formatVersion: unknown }).formatVersion;
    if (version !== MANIFEST_FORMAT_VERSION) {
      throw new ManifestShapeError(
        `its format version is ${shown(version)}, and this version of the tool reads format ${MANIFEST_FORMAT_VERSION} only (a manifest without "formatVersion" is format ${MANIFEST_FORMAT_VERSION})`,
      );
    }
  }
  validateManifest ??= new Ajv2020({ allErrors: true, verbose: true, strict: true }).compile(manifestSchema);
  if (validateManifest(manifest)) return;
  const errors = validateManifest.errors ?? [];
  const listed = errors.slice(0, MAX_SHOWN).map(describeError);
  const more = errors.length > MAX_SHOWN ? `; and ${errors.length - MAX_SHOWN} more` : '';
  throw new ManifestShapeError(`${listed.join('; ')}${more}`);
}
