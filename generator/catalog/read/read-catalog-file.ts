import { LineCounter, isMap, parseDocument } from 'yaml';
import type { ProblemList } from '../problems.js';
import { noDeclarations, type RawCatalogFile } from './raw-catalog.js';
import { API_SECTION_READERS } from './read-api-sections.js';
import { EVENT_SECTION_READERS } from './read-event-sections.js';
import type { SectionReader } from './section-reader.js';
import { YamlReader } from './yaml-reader.js';

/** Every section a catalog file may hold: the events' and the REST API's. */
const SECTION_READERS: Readonly<Record<string, SectionReader>> = { ...EVENT_SECTION_READERS, ...API_SECTION_READERS };

const FILE_KEYS = ['section', ...Object.keys(SECTION_READERS)];

/**
 * Reads one catalog file into raw declarations, checking its shape (keys, value kinds) but
 * not its names or references: the rules do that, over the whole catalog.
 */
export function readCatalogFile(file: string, text: string, problems: ProblemList): RawCatalogFile | undefined {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
  const reader = new YamlReader(file, lineCounter, problems);

  if (doc.errors.length > 0) {
    // The parser often reports one mistake twice at one place; report each place once.
    const byOffset = new Map<number, string[]>();
    for (const error of doc.errors) byOffset.set(error.pos[0], [...(byOffset.get(error.pos[0]) ?? []), error.message]);
    for (const [offset, messages] of byOffset) problems.error(reader.at(offset), `YAML syntax: ${messages.join('; ')}`);
    return undefined;
  }

  const root = doc.contents;
  if (!isMap(root)) {
    problems.error(reader.nodeAt(root), 'a catalog file must be a mapping with a "section" key');
    return undefined;
  }
  const out: RawCatalogFile = { file, section: '', ...noDeclarations() };
  const sections = reader.entries(root, 'catalog file', FILE_KEYS);
  const sectionEntry = sections.find(([key]) => key === 'section');
  if (!sectionEntry) problems.error(reader.nodeAt(root), 'catalog file: missing "section" (the seed heading it transcribes)');
  else out.section = reader.stringValue(sectionEntry[1], 'section', sectionEntry[2]) ?? '';

  for (const [key, value, position] of sections) SECTION_READERS[key]?.(reader, value, position, out);
  return out;
}
