/** One output file, as text, with its path relative to `generated/`. */
export interface EmittedFile {
  path: string;
  contents: string;
}
