import type { Node } from 'yaml';
import type { SourcePosition } from '../../model.js';
import type { RawCatalogFile } from './raw-catalog.js';
import type { YamlReader } from './yaml-reader.js';

/**
 * What reads one top-level key of a catalog file (besides `section`): it adds what it reads to
 * the file's declarations. A new kind of declaration is a new reader.
 */
export type SectionReader = (reader: YamlReader, value: Node | null, position: SourcePosition, out: RawCatalogFile) => void;
