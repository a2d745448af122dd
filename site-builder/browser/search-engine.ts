/**
 * The catalog's search, without the page: names split into words (`snake_case`, dots, dashes
 * and camelCase), each word of the query matching a word of a name exactly, as its start, or,
 * when no name has such a word, within a small typo. Finds event versions, shared types and
 * REST operations by their own names and by the names of their fields at any depth, and says
 * for each field its path, the types it was reached through and whether it is always present.
 * A query of several words matches names holding them one after another, in order.
 */
import { fieldTree, flattenTree } from '../model/field-tree.js';
import { expandField, type SearchData } from '../model/search-data.js';
import { sitePaths } from '../site-paths.js';

/** `billing_document_representation` → `billing document representation`; `createNotes` → `create notes`. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** Edit distance with transpositions (optimal string alignment), stopping early above `limit`. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      row.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/** Typos forgiven in a word of this length. */
const typoLimit = (length: number): number => (length >= 8 ? 2 : length >= 4 ? 1 : 0);

export type WordMatch = 'exact' | 'prefix' | 'typo';

export interface QueryWord {
  word: string;
  /** How the word found names: only when no name has it (or starts with it) are typos tried. */
  match: WordMatch | 'none';
  /** For typos: the words it was read as. */
  readAs: string[];
}

export interface FieldHit {
  /** Names from the payload (or body) down to the field. */
  path: readonly string[];
  /** Named types passed through, outermost first. */
  via: readonly string[];
  alwaysPresent: boolean;
  /** The field's name is the query, word for word. */
  exact: boolean;
}

export interface Hit {
  kind: 'event' | 'type' | 'operation';
  /** Event type, shared type name or operation id. */
  name: string;
  version?: string;
  latest?: boolean;
  /** How many versions its event type has. */
  versions?: number;
  method?: string;
  url: string;
  /** Its own name matches. */
  nameMatch: boolean;
  fields: FieldHit[];
  /** Best match: 3 a name equal to the query, 2 words or their starts, 1 through a typo. */
  score: number;
}

export interface SearchResult {
  words: QueryWord[];
  hits: Hit[];
}

interface Owner {
  kind: Hit['kind'];
  name: string;
  version?: string;
  latest?: boolean;
  versions?: number;
  method?: string;
  url: string;
  fields: { words: string[]; path: readonly string[]; via: readonly string[]; alwaysPresent: boolean }[];
}

/** Builds the search over the site's data once; the returned function answers each query. */
export function createSearch(data: SearchData): (query: string) => SearchResult {
  const shared = new Map(data.sharedTypes.map(([name, fields]) => [name, fields.map(expandField)] as const));
  const owners: Owner[] = [];
  const treeFields = (tree: ReturnType<typeof fieldTree>): Owner['fields'] =>
    flattenTree(tree).map((node) => ({ words: wordsOf(node.name), path: node.path, via: node.via, alwaysPresent: node.alwaysPresent }));
  const versionCount = new Map<string, number>();
  for (const [type] of data.events) versionCount.set(type, (versionCount.get(type) ?? 0) + 1);
  for (const [type, version, latest, fields] of data.events) {
    owners.push({ kind: 'event', name: type, version, latest: latest === 1, versions: versionCount.get(type)!, url: sitePaths.event(type, version), fields: treeFields(fieldTree(fields.map(expandField), shared)) });
  }
  for (const [name, fields] of data.sharedTypes) {
    owners.push({ kind: 'type', name, url: sitePaths.sharedType(name), fields: treeFields(fieldTree(fields.map(expandField), shared)) });
  }
  for (const [operationId, method, , , fields] of data.operations) {
    owners.push({
      kind: 'operation',
      name: operationId,
      method,
      url: sitePaths.operation(operationId),
      fields: fields.map(([path, alwaysPresent, via]) => {
        const names = path.split('.');
        return { words: wordsOf(names[names.length - 1]!), path: names, via: via === '' ? [] : via.split(' › '), alwaysPresent: alwaysPresent === 1 };
      }),
    });
  }
  const ownerWords = owners.map((owner) => wordsOf(owner.name));
  const vocabulary = new Set([...ownerWords.flat(), ...owners.flatMap((o) => o.fields.flatMap((f) => f.words))]);

  /** The vocabulary words a query word stands for, and how. */
  const readWord = (word: string): { query: QueryWord; accepts: Map<string, WordMatch> } => {
    const accepts = new Map<string, WordMatch>();
    for (const w of vocabulary) if (w.startsWith(word)) accepts.set(w, w === word ? 'exact' : 'prefix');
    if (accepts.size > 0) return { query: { word, match: accepts.has(word) ? 'exact' : 'prefix', readAs: [] }, accepts };
    const limit = typoLimit(word.length);
    for (const w of vocabulary) if (limit > 0 && editDistance(word, w, limit) <= limit) accepts.set(w, 'typo');
    return { query: { word, match: accepts.size > 0 ? 'typo' : 'none', readAs: [...accepts.keys()].sort() }, accepts };
  };

  return (query: string): SearchResult => {
    const words = wordsOf(query);
    if (words.length === 0) return { words: [], hits: [] };
    const read = words.map(readWord);
    /** 0 when a name does not match; else 3, 2 or 1 (see `Hit.score`). The query's words match consecutive words of the name, in order. */
    const scoreOf = (nameWords: readonly string[]): number => {
      let best = 0;
      for (let start = 0; start + read.length <= nameWords.length; start++) {
        const matches = read.map(({ accepts }, i) => accepts.get(nameWords[start + i]!));
        if (matches.some((m) => m === undefined)) continue;
        const score = matches.includes('typo') ? 1 : nameWords.length === read.length && matches.every((m) => m === 'exact') ? 3 : 2;
        best = Math.max(best, score);
      }
      return best;
    };
    const hits: Hit[] = [];
    owners.forEach((owner, i) => {
      const nameScore = scoreOf(ownerWords[i]!);
      const fields = owner.fields.map((f) => ({ field: f, score: scoreOf(f.words) })).filter((m) => m.score > 0);
      if (nameScore === 0 && fields.length === 0) return;
      hits.push({
        kind: owner.kind,
        name: owner.name,
        ...(owner.version !== undefined && { version: owner.version, latest: owner.latest === true, versions: owner.versions ?? 1 }),
        ...(owner.method !== undefined && { method: owner.method }),
        url: owner.url,
        nameMatch: nameScore > 0,
        fields: fields.map(({ field, score }) => ({ path: field.path, via: field.via, alwaysPresent: field.alwaysPresent, exact: score === 3 })),
        score: Math.max(nameScore, ...fields.map((m) => m.score)),
      });
    });
    return { words: read.map((r) => r.query), hits };
  };
}
