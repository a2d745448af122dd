/**
 * A small catalog for what the real one does not use yet: nullable fields, primitive and
 * shared, optional and inside arrays. Loaded by the real loader, so its model is what
 * `npm run generate` would build.
 */
import { loadCatalog } from '../../generator/catalog/load-catalog.js';
import type { CatalogModel } from '../../generator/model.js';

const SYNTHETIC_YAML = `section: synthetic
shared_types:
  Synthetic-Thing:
    fields:
      label: string
      note?: { type: string, nullable: true }
events:
  synthetic.thing:
    v1:
      fields:
        id: integer
        thing: { type: Synthetic-Thing, nullable: true }
        things?: Synthetic-Thing[]
        count?: { type: integer, nullable: true }
        note?: { type: string, nullable: true }
`;

export function syntheticModel(): CatalogModel {
  const loaded = loadCatalog([{ path: 'catalog/synthetic.yaml', text: SYNTHETIC_YAML }]);
  if (!loaded.model) throw new Error(`the synthetic catalog does not load: ${loaded.errors.map((e) => e.message).join('; ')}`);
  return loaded.model;
}
