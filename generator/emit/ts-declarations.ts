import { compile, type JSONSchema, type Options } from 'json-schema-to-typescript';
import { StructureKind, type InterfaceDeclarationStructure, type TypeAliasDeclarationStructure } from 'ts-morph';
import type { FieldModel, FormatName } from '../model.js';
import { fieldsSchema, type JsonSchema, type SchemaDialect } from './schema-for.js';
import { statementsOf } from './ts-project.js';

/**
 * The one way the generated modules declare the model's types in TypeScript: the model's JSON
 * Schema (`schema-for.ts`, in the TypeScript dialect below) → json-schema-to-typescript →
 * read back as ts-morph structures, which the module's own structures are printed with. So a
 * field is optional, nullable or a list of values in the types exactly where the validators
 * say so, on every surface, and catalog text reaches TSDoc through one escaping.
 */

/** json-schema-to-typescript renders one declaration; it never formats, resolves or names anything else. */
const JSSTT_OPTIONS: Partial<Options> = {
  bannerComment: '',
  format: false,
  declareExternallyReferenced: false,
  unreachableDefinitions: false,
  additionalProperties: false,
  strictIndexSignatures: false,
  unknownAny: true,
  ignoreMinAndMaxItems: true,
};

/** The TypeScript alias of each stated format, and its TSDoc: the REST API's types declare them. */
export const FORMAT_TYPES: Readonly<Record<FormatName, { name: string; doc: string }>> = {
  date: { name: 'IsoDate', doc: 'A date as the seed writes it: `YYYY-MM-DD`.' },
  datetime: { name: 'IsoDateTime', doc: 'A datetime as the seed writes it: `YYYY-MM-DDTHH:MM:SSZ`.' },
  decimal: { name: 'DecimalString', doc: 'A decimal with two places, as text (`"12.50"`): how responses write amounts.' },
};

/** The schema dialect json-schema-to-typescript reads: named types by their TypeScript names, formats by their aliases, `object` content not shown as a record. */
export const typeScriptDialect = (tsNameOf: (name: string) => string): SchemaDialect => ({
  named: (name) => ({ tsType: tsNameOf(name) }),
  format: (name) => ({ tsType: FORMAT_TYPES[name].name }),
  opaqueObject: { tsType: 'Record<string, unknown>' },
  anything: { tsType: 'unknown' },
});

/** The schema of one interface: its fields, closed unless open (an index signature), its TSDoc. */
export function interfaceSchema(fields: readonly FieldModel[], open: boolean, doc: string | undefined, dialect: SchemaDialect): JsonSchema {
  return { ...fieldsSchema(fields, dialect), ...(doc !== undefined && { description: doc }), additionalProperties: open };
}

/** One declaration to write: an object schema becomes an interface, any other a type alias. */
export interface Declaration {
  name: string;
  schema: JsonSchema;
}

export type DeclarationStructure = InterfaceDeclarationStructure | TypeAliasDeclarationStructure;

/**
 * Runs json-schema-to-typescript once per declaration (concurrently; it is asynchronous) and
 * reads the declarations back as structures, in the order given: one parse for all of them.
 */
export async function declareAll(declarations: readonly Declaration[]): Promise<DeclarationStructure[]> {
  const texts = await Promise.all(declarations.map(({ name, schema }) => compile(schema as JSONSchema, name, JSSTT_OPTIONS)));
  const statements = statementsOf(texts);
  return declarations.map(({ name }, i) => {
    const declaration = statements[i];
    const declared = declaration?.kind === StructureKind.Interface || declaration?.kind === StructureKind.TypeAlias;
    if (statements.length !== declarations.length || !declared || declaration.name !== name) {
      throw new Error(`types: json-schema-to-typescript did not declare exactly one interface or type ${name}`);
    }
    return declaration;
  });
}

/** `declareAll` for object schemas: each an interface, or an error. */
export async function declareInterfaces(declarations: readonly Declaration[]): Promise<InterfaceDeclarationStructure[]> {
  return (await declareAll(declarations)).map((declaration) => {
    if (declaration.kind !== StructureKind.Interface) throw new Error(`types: json-schema-to-typescript declared ${declaration.name} as a type, not an interface`);
    return declaration;
  });
}

/** Catalog text for TSDoc a module writes itself, escaped as json-schema-to-typescript escapes descriptions: it cannot end the comment. */
export const tsDoc = (text: string): string => text.replace(/\*\//g, '* /');
