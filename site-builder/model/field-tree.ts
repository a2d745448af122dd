/**
 * A payload as a tree: every field, and inside a field typed with a shared type (or a list
 * of one), that type's fields, to any depth. Event pages draw it, the search walks it (in the
 * browser too: this module is pure).
 */
import { isPrimitiveType, parseNotation, plainType } from './type-notation.js';

/** A field as the manifest writes it. */
export interface FieldSource {
  name: string;
  type: string;
  optional: boolean;
  nullable?: boolean;
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

/** The fields of `fields`, each expanded through the shared types of `sharedTypes`. */
export function fieldTree(fields: readonly FieldSource[], sharedTypes: ReadonlyMap<string, readonly FieldSource[]>): FieldNode[] {
  const grow = (list: readonly FieldSource[], parent: { path: readonly string[]; via: readonly string[]; alwaysPresent: boolean }): FieldNode[] =>
    list.map((field) => {
      const { base } = parseNotation(field.type);
      const named = !isPrimitiveType(base) && sharedTypes.has(base) ? base : undefined;
      const recursive = named !== undefined && parent.via.includes(named);
      const node = {
        name: field.name,
        path: [...parent.path, field.name],
        typeText: plainType(field.type),
        required: !field.optional,
        alwaysPresent: parent.alwaysPresent && !field.optional,
        nullable: field.nullable === true,
        via: parent.via,
      };
      const children = named && !recursive ? grow(sharedTypes.get(named)!, { path: node.path, via: [...parent.via, named], alwaysPresent: node.alwaysPresent }) : [];
      return { ...node, ...(named && { namedType: named }), children, ...(recursive && { recursive }) };
    });
  return grow(fields, { path: [], via: [], alwaysPresent: true });
}

/** Every node of a tree, parents before their children. */
export function flattenTree(nodes: readonly FieldNode[]): FieldNode[] {
  return nodes.flatMap((node) => [node, ...flattenTree(node.children)]);
}
