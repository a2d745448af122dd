import type { ApiTagModel } from '../../model.js';
import { suggestion } from '../names.js';
import type { ProblemList } from '../problems.js';
import type { RawApiTag } from '../read/raw-catalog.js';

/**
 * The API's tags: each names known operations, and when the catalog groups operations at
 * all, every operation is in exactly one group (a document reader looks for each under one
 * heading). Problems are positioned at the tag or the operation id.
 */
export function resolveApiTags(tags: readonly RawApiTag[], operationIds: readonly string[], problems: ProblemList): ApiTagModel[] {
  if (tags.length === 0) return [];
  const tagOf = new Map<string, string>();
  const names = new Set<string>();
  for (const tag of tags) {
    if (names.has(tag.name)) problems.error(tag.position, `API tag "${tag.name}" is declared twice`);
    names.add(tag.name);
    for (const { ref, position } of tag.operations) {
      if (!operationIds.includes(ref)) problems.error(position, `API tag "${tag.name}": unknown operation "${ref}"${suggestion(ref, operationIds)}`);
      else if (tagOf.has(ref)) problems.error(position, `API tag "${tag.name}": operation "${ref}" is already in tag "${tagOf.get(ref)!}" (an operation is in one tag)`);
      else tagOf.set(ref, tag.name);
    }
  }
  const untagged = operationIds.filter((id) => !tagOf.has(id));
  if (untagged.length > 0) problems.error(tags[0]!.position, `API tags: ${untagged.map((id) => `"${id}"`).join(', ')} ${untagged.length === 1 ? 'is' : 'are'} in no tag (when operations are grouped, each is in one)`);
  return tags.map(({ name, description, operations }) => ({ name, description, operations: [...new Set(operations.map((o) => o.ref))].filter((id) => tagOf.get(id) === name) }));
}
