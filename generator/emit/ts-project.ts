import { IndentationText, NewLineKind, Project, QuoteKind, type OptionalKind, type SourceFileStructure } from 'ts-morph';

/**
 * Builders for generated TypeScript: one in-memory ts-morph project with pinned settings, so
 * output never depends on the machine. Files are created once from a complete structure and
 * printed; nothing is manipulated node by node and nothing touches the disk.
 */
let project: Project | undefined;

function tsProject(): Project {
  return (project ??= new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Single,
      useTrailingCommas: true,
    },
  }));
}

/** Prints a module from a full structure; the banner goes first. */
export function printModule(path: string, banner: string, structure: OptionalKind<SourceFileStructure>): string {
  const file = tsProject().createSourceFile(path, { ...structure, leadingTrivia: banner }, { overwrite: true });
  // ts-morph leaves a blank line between the banner and a first statement that has docs: the banner belongs to the module, not apart from it.
  const text = file.getFullText().replace(`${banner}\n`, banner);
  tsProject().removeSourceFile(file);
  return text.endsWith('\n') ? text : text + '\n';
}

/** The structure of a module given as text (to place declarations written by another tool into a module structure). */
export function structureOf(path: string, text: string): SourceFileStructure {
  const file = tsProject().createSourceFile(path, text, { overwrite: true });
  const structure = file.getStructure();
  tsProject().removeSourceFile(file);
  return structure;
}

/** A TypeScript string literal, single-quoted like the rest of the generated code. */
export const stringLiteral = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A property name: bare when it is an identifier (`v1`), a string literal otherwise (`'v-alpha1'`). */
export const propertyName = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : stringLiteral(name));
