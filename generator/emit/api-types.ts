import { StructureKind, Writers, type CodeBlockWriter, type InterfaceDeclarationStructure, type OptionalKind, type PropertySignatureStructure, type StatementStructures, type TypeAliasDeclarationStructure, type WriterFunction } from 'ts-morph';
import { codeBanner } from '../common/banner.js';
import type { CatalogModel, ObjectTypeModel } from '../model.js';
import { responseBodySchema } from './api-json-schema.js';
import type { EmittedFile } from './emitted-file.js';
import { typeDescription, typeSchema, type JsonSchema } from './schema-for.js';
import { declareAll, FORMAT_TYPES, interfaceSchema, tsDoc, typeScriptDialect, type Declaration, type DeclarationStructure } from './ts-declarations.js';
import { printModule, writeDocs } from './ts-project.js';

export const API_TYPES_PATH = 'api/types.ts';

/** A name json-schema-to-typescript declares a part of an operation under while it is written: no API type can have it (they are PascalCase). */
const partName = (i: number): string => `Part_${i}`;

/** What a type's TSDoc says: its schema's description; "at least one of" where there is nothing else to say. */
const typeDoc = (type: ObjectTypeModel): string | undefined => typeDescription(type) ?? (type.atLeastOneOf && `At least one of ${type.atLeastOneOf.join(', ')} is required.`);

/**
 * "At least one of": the interface json-schema-to-typescript declared, as the intersection of
 * its members with one alternative per named field that makes it required,
 * `{ …fields } & ({ body: string } | { document_paths: DocumentPath[] })`. Written as a
 * statement: ts-morph indents a type alias's multi-line type as a continued line.
 */
function atLeastOneOfType(declared: InterfaceDeclarationStructure, names: readonly string[]): WriterFunction {
  const properties = declared.properties ?? [];
  const alternatives = names.map((name) => `{ ${name}: ${String(properties.find((p) => p.name === name)?.type)} }`);
  return (writer) => {
    writeDocs(writer, declared.docs);
    writer.write(`export type ${declared.name} = `);
    Writers.objectType({ properties, ...(declared.indexSignatures && { indexSignatures: declared.indexSignatures }) })(writer);
    writer.write(` & (${alternatives.join(' | ')});`).newLine();
  };
}

/** A part of an operation as a type written in place: the members of a declared interface (`params: { … }`), or a declared type alias's type. */
function writePart(writer: CodeBlockWriter, name: string, declared: DeclarationStructure | undefined): void {
  writer.write(`${name}: `);
  if (declared === undefined) writer.write('never');
  else if (declared.kind === StructureKind.Interface) Writers.objectType({ properties: declared.properties ?? [] })(writer);
  else writer.write(String(declared.type));
  writer.write(';').newLine();
}

/** Every part of one operation json-schema-to-typescript writes: its parameters, request and responses, each a declaration. */
interface OperationParts {
  params?: number;
  query?: number;
  request?: number;
  responses: number[];
}

/**
 * `api/types.ts`: an interface per API type, and the operation map keyed by operation id
 * that every typed surface reads (`ApiRequest<Op>`, `ApiResponse<Op, Status>`). Every type is
 * declared from its schema (`ts-declarations.ts`), as the events' are; the operation map is a
 * ts-morph structure around them.
 */
export async function emitApiTypes(model: CatalogModel): Promise<EmittedFile[]> {
  const api = model.api;
  if (!api) return [];
  const tsNames = new Map(api.types.map((t) => [t.name, t.tsName]));
  const dialect = typeScriptDialect((name) => tsNames.get(name)!); // the loader has resolved every reference

  const declarations: Declaration[] = api.types.map((type) => ({ name: type.tsName, schema: interfaceSchema(type.fields, type.open !== false, typeDoc(type), dialect) }));
  const part = (schema: JsonSchema): number => declarations.push({ name: partName(declarations.length), schema }) - 1;
  const parts = api.operations.map(
    (op): OperationParts => ({
      ...(op.params.length > 0 && { params: part(interfaceSchema(op.params, false, undefined, dialect)) }),
      ...(op.query.length > 0 && { query: part(interfaceSchema(op.query, false, undefined, dialect)) }),
      ...(op.request && { request: part(typeSchema(op.request, dialect)) }),
      responses: op.responses.map((r) => part(responseBodySchema(r, dialect))),
    }),
  );
  const declared = await declareAll(declarations);

  const typeStatements = api.types.map((type, i): StatementStructures | WriterFunction => {
    const declaration = declared[i]!;
    return type.atLeastOneOf && declaration.kind === StructureKind.Interface ? atLeastOneOfType(declaration, type.atLeastOneOf) : declaration;
  });
  /** `ApiOperations`, one entry per operation: written as a statement, for the same reason as "at least one of". */
  const operations: WriterFunction = (writer) => {
    writer.writeLine('/** Every operation of the REST API, by operation id, in seed order. */');
    writer.write('export interface ApiOperations {').newLine();
    writer.indent(() => {
      api.operations.forEach((op, i) => {
        const { params, query, request, responses } = parts[i]!;
        const at = (index: number | undefined): DeclarationStructure | undefined => (index === undefined ? undefined : declared[index]);
        writeDocs(writer, [tsDoc(`${op.method} ${op.path}${op.description ? ` — ${op.description}` : ''}`)]);
        writer.write(`${op.operationId}: {`).newLine();
        writer.indent(() => {
          writer.writeLine(`method: ${JSON.stringify(op.method)};`);
          writer.writeLine(`path: ${JSON.stringify(op.path)};`);
          writePart(writer, 'params', at(params));
          writePart(writer, 'query', at(query));
          writePart(writer, 'request', at(request));
          const statuses = op.responses.map((r, j): OptionalKind<PropertySignatureStructure> => {
            const body = declared[responses[j]!]!;
            // A body is a type (a named type, a list, text, any of them, or anything): never an object written in place.
            if (body.kind !== StructureKind.TypeAlias) throw new Error(`api types: the body of ${op.operationId} ${r.status} was declared as an interface`);
            return { name: String(r.status), ...(body.docs && { docs: body.docs }), type: String(body.type) };
          });
          writer.write('responses: ');
          Writers.objectType({ properties: statuses })(writer);
          writer.write(';').newLine();
        });
        writer.writeLine('};');
      });
    });
    writer.writeLine('}');
  };

  const alias = (name: string, doc: string, type: string, typeParameters?: { name: string; constraint: string; default?: string }[]): TypeAliasDeclarationStructure => ({
    kind: StructureKind.TypeAlias,
    isExported: true,
    name,
    docs: [doc],
    ...(typeParameters && { typeParameters }),
    type,
  });
  const op = { name: 'Op', constraint: 'OperationId' };
  const statements: (StatementStructures | WriterFunction)[] = [
    // Every format's alias, used or not: names the module always exports.
    ...Object.values(FORMAT_TYPES).map((format) => alias(format.name, format.doc, 'string')),
    ...typeStatements,
    operations,
    { kind: StructureKind.TypeAlias, isExported: true, name: 'OperationId', type: 'keyof ApiOperations' },
    alias('ApiRequest', 'The request body of an operation (`never` for a GET).', "ApiOperations[Op]['request']", [op]),
    alias('ApiStatus', 'The statuses the seed names for an operation.', "keyof ApiOperations[Op]['responses'] & number", [op]),
    alias('ApiResponse', 'The response body of an operation at a status (all its statuses when none is given).', "ApiOperations[Op]['responses'][Status]", [op, { name: 'Status', constraint: 'ApiStatus<Op>', default: 'ApiStatus<Op>' }]),
    alias('ApiParams', 'The path parameters of an operation (`never` when it has none).', "ApiOperations[Op]['params']", [op]),
    alias('ApiQuery', 'The query parameters of an operation (`never` when it has none).', "ApiOperations[Op]['query']", [op]),
  ];
  return [{ path: API_TYPES_PATH, contents: printModule(codeBanner(api.sourceFiles), { statements }) }];
}
