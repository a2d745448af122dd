import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFileStructure, type OptionalKind } from 'ts-morph';

/**
 * One in-memory ts-morph project per generation, with pinned settings so output never
 * depends on the machine. Files are created once from a complete structure and printed;
 * nothing is manipulated node by node and nothing touches the disk.
 */
export function createTsProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Single,
      useTrailingCommas: true,
    },
  });
}

/** Prints a module from a full structure; the banner goes first. */
export function printModule(project: Project, path: string, banner: string, structure: OptionalKind<SourceFileStructure>): string {
  const file = project.createSourceFile(path, { ...structure, leadingTrivia: banner }, { overwrite: true });
  const text = file.getFullText();
  project.removeSourceFile(file);
  return text.endsWith('\n') ? text : text + '\n';
}
