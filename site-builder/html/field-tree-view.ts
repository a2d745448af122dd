/**
 * A payload (or body) as a nested list: each field's name, type in plain words, whether it is
 * required, and inside a field typed with a named type, that type's fields. Each field has an
 * anchor (`#field-<path>`) the search links to.
 */
import type { FieldNode } from '../model/field-tree.js';
import { prose } from './prose.js';
import { html, type Html } from './template.js';

/** The id of a field's line, from its path (`live_chat_conversation.account_number`). */
export const fieldAnchor = (path: readonly string[]): string => `field-${path.join('.')}`;

export interface TreeLinks {
  /** Where a named type is described, or `undefined` when it has no place of its own. */
  namedType(name: string): string | undefined;
}

function typeHtml(node: FieldNode, links: TreeLinks): Html {
  if (!node.namedType) return html`${node.typeText}`;
  const target = links.namedType(node.namedType);
  // The named type inside the plain words (`list of Ledger`) becomes the link.
  const at = node.typeText.lastIndexOf(node.namedType);
  const before = at >= 0 ? node.typeText.slice(0, at) : '';
  const after = at >= 0 ? node.typeText.slice(at + node.namedType.length) : '';
  const name = html`<code>${node.namedType}</code>`;
  return html`${before}${target ? html`<a href="${target}">${name}</a>` : name}${after}`;
}

function fieldLine(node: FieldNode, links: TreeLinks): Html {
  const presence = node.required ? html`<span class="badge required">required</span>` : html`<span class="badge optional">optional</span>`;
  return html`<li id="${fieldAnchor(node.path)}">
<div class="field"><code class="name">${node.name}</code> <span class="type">${typeHtml(node, links)}${node.nullable ? ' or null' : ''}</span> ${presence}</div>
${node.description ? html`<p class="field-note">${prose(node.description)}</p>` : ''}${(node.notes ?? []).map((note) => html`<p class="field-note">${prose(note)}</p>`)}${node.recursive ? html`<p class="field-note">The same type as a field above: its fields are listed there.</p>` : ''}${node.children.length > 0 ? tree(node.children, links) : ''}</li>`;
}

function tree(nodes: readonly FieldNode[], links: TreeLinks): Html {
  return html`<ul class="tree">
${nodes.map((node) => fieldLine(node, links))}
</ul>`;
}

export function fieldTreeView(nodes: readonly FieldNode[], links: TreeLinks, empty = 'No fields are shown.'): Html {
  return nodes.length === 0 ? html`<p>${empty}</p>` : tree(nodes, links);
}
