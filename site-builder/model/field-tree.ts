/**
 * A payload or a REST body as a tree: every field, and inside a field typed with a named type
 * (a shared type, a REST type; or a list of one), that type's fields, to any depth. Event and
 * REST pages draw it, the search walks it (in the browser too: this module is pure).
 */
import type { PageField } from '../../runtime/contract/page-model.js';
import { parseNotation, plainType } from './type-notation.js';

/** A field as the manifest or the page model writes it. */
export type FieldSource = Pick<PageField, 'name' | 'type' | 'optional'> & Partial<Omit<PageField, 'name' | 'type' | 'optional' | 'namedType'>>;

const code = (value: unknown): string => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** What a reader needs besides the type: allowed values, values seen, a default. */
function notesOf(field: FieldSource): string[] {
  return [
    ...(field.enum ? [`one of ${field.enum.map(code).join(', ')}`] : []),
    ...(field.examples ? [`values seen: ${field.examples.map(code).join(', ')} (others are accepted)`] : []),
    ...(field.default !== undefined ? [`default ${code(field.default)}`] : []),
    ...(field.minLength === 1 ? ['not empty'] : []),
  ];
}

/** A phrase of the seed as a sentence: ends with a full stop. */
const sentence = (text: string): string => (/[.!?:]$/.test(text) ? text : `${text}.`);

/** Its description, why it is optional and what of it is not shown, in the seed's words. */
function descriptionOf(field: FieldSource): string | undefined {
  const why = field.whyOptional !== undefined && field.whyOptional !== 'optional' ? field.whyOptional : undefined;
  const parts = [field.description, why, field.notShown].filter((p): p is string => p !== undefined);
  return parts.length > 0 ? parts.map(sentence).join(' ') : undefined;
}

export interface FieldNode {
  name: string;
  /** Field names from the payload down to this one. */
  path: readonly string[];
  /** Its type in plain words (`text`, `list of billing-_billing-Ledger`). */
  typeText: string;
  /** The named type its value (or each item) is, when it is one. */
  namedType?: string;
  /** Required in the object that holds it. */
  required: boolean;
  /** Required, and so is every field above it: present in every valid message. */
  alwaysPresent: boolean;
  nullable: boolean;
  /** The named types passed through to reach it, outermost first (empty at the top level). */
  via: readonly string[];
  description?: string;
  /** Further facts in plain words (allowed values, default, format). */
  notes?: readonly string[];
  children: readonly FieldNode[];
  /** Its type is one it is already inside: not expanded again. */
  recursive?: boolean;
}

/**
 * The fields of `fields`, each expanded through the named types of `namedTypes`; `path` and
 * `via` start the tree below a field or type it is inside (a list's items, a REST body).
 */
export function fieldTree(
  fields: readonly FieldSource[],
  namedTypes: ReadonlyMap<string, readonly FieldSource[]>,
  start: { path: readonly string[]; via: readonly string[] } = { path: [], via: [] },
): FieldNode[] {
  const grow = (list: readonly FieldSource[], parent: { path: readonly string[]; via: readonly string[]; alwaysPresent: boolean }): FieldNode[] =>
    list.map((field) => {
      const { base } = parseNotation(field.type);
      const named = namedTypes.has(base) ? base : undefined;
      const recursive = named !== undefined && parent.via.includes(named);
      const description = descriptionOf(field);
      const notes = notesOf(field);
      const node = {
        name: field.name,
        path: [...parent.path, field.name],
        typeText: plainType(field.type),
        required: !field.optional,
        alwaysPresent: parent.alwaysPresent && !field.optional,
        nullable: field.nullable === true,
        via: parent.via,
        ...(description !== undefined && { description }),
        ...(notes.length > 0 && { notes }),
      };
      const children = named && !recursive ? grow(namedTypes.get(named)!, { path: node.path, via: [...parent.via, named], alwaysPresent: node.alwaysPresent }) : [];
      return { ...node, ...(named && { namedType: named }), children, ...(recursive && { recursive }) };
    });
  return grow(fields, { ...start, alwaysPresent: true });
}

/** Every node of a tree, parents before their children. */
export function flattenTree(nodes: readonly FieldNode[]): FieldNode[] {
  return nodes.flatMap((node) => [node, ...flattenTree(node.children)]);
}
