import { printStructure, Project, StructureKind, type CodeBlockWriter, type JSDocStructure, type OptionalKind, type PrintStructureOptions, type SourceFileStructure, type StatementStructures } from 'ts-morph';

/**
 * Builders for generated TypeScript, with pinned settings so output never depends on the
 * machine. Modules are printed straight from a complete structure (no parse, no
 * node-by-node manipulation); text written by another tool is parsed once, in one in-memory
 * ts-morph project, to read it back as structures. Nothing touches the disk.
 */
const PRINT_OPTIONS: PrintStructureOptions = { indentNumberOfSpaces: 2, newLine: '\n', useSingleQuote: true };

/** Prints a module from a full structure; the banner goes first. */
export function printModule(banner: string, structure: OptionalKind<SourceFileStructure>): string {
  const printed = printStructure({ ...structure, kind: StructureKind.SourceFile, leadingTrivia: banner }, PRINT_OPTIONS);
  // ts-morph leaves a blank line between the banner and a first statement that has docs: the banner belongs to the module, not apart from it.
  const text = printed.replace(`${banner}\n`, banner);
  return text.endsWith('\n') ? text : text + '\n';
}

let project: Project | undefined;

/**
 * The statements of declarations given as text (written by another tool, to be placed into a
 * module structure): all of them parsed as one module, so the parser runs once, not once per text.
 */
export function statementsOf(texts: readonly string[]): StatementStructures[] {
  project ??= new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
  const file = project.createSourceFile('declarations.ts', texts.join('\n'), { overwrite: true });
  const { statements } = file.getStructure();
  project.removeSourceFile(file);
  return Array.isArray(statements) ? statements.filter((statement): statement is StatementStructures => typeof statement === 'object') : [];
}

/** A TypeScript string literal, single-quoted like the rest of the generated code. */
export const stringLiteral = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A property name: bare when it is an identifier (`v1`), a string literal otherwise (`'v-alpha1'`). */
export const propertyName = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : stringLiteral(name));

/**
 * TSDoc blocks of a structure, written where the code is written by hand (a statement of
 * several lines, which ts-morph would indent as a continued type).
 */
export function writeDocs(writer: CodeBlockWriter, docs: readonly (string | OptionalKind<JSDocStructure>)[] | undefined): void {
  for (const doc of docs ?? []) writer.writeLine(printStructure(typeof doc === 'string' ? { kind: StructureKind.JSDoc, description: doc } : { ...doc, kind: StructureKind.JSDoc }, PRINT_OPTIONS));
}
