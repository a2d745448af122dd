import { manifestOf } from '../common/manifest.js';
import { stableJson } from '../common/text.js';
import type { CatalogModel } from '../model.js';
import type { EmittedFile } from './emitted-file.js';

/** `manifest.json`: the manifest document (common/manifest.ts) as JSON. */
export function emitManifest(model: CatalogModel): EmittedFile {
  return { path: 'manifest.json', contents: stableJson(manifestOf(model)) };
}
