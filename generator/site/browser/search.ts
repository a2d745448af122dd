/// <reference lib="dom" />
/**
 * The home page's search: event versions by type name and by field name (a field of the
 * payload or of a shared type it reaches), as links, with MiniSearch over the documents
 * `search-index.js` defines. Runs from `file://` too: no fetch.
 */
import MiniSearch from 'minisearch';

interface SearchDocument {
  id: string;
  /** `account.created v1` */
  title: string;
  /** The type, whole and split at its dots. */
  type: string;
  /** Every field name the version carries, at any depth. */
  fields: string;
  url: string;
}

declare global {
  interface Window {
    SEARCH_DOCUMENTS?: SearchDocument[];
  }
}

const MAX_RESULTS = 50;
// Names are searched whole (`account_number`), not cut at underscores.
const tokenize = (text: string): string[] => text.split(/\s+/).filter((t) => t !== '');

const input = document.querySelector<HTMLInputElement>('input[type="search"]');
const list = document.getElementById('search-results');
if (input && list && window.SEARCH_DOCUMENTS) {
  const index = new MiniSearch<SearchDocument>({ fields: ['type', 'fields'], storeFields: ['title', 'url'], tokenize });
  index.addAll(window.SEARCH_DOCUMENTS);
  const show = (): void => {
    const query = input.value.trim();
    list.replaceChildren();
    if (query === '') return;
    const hits = index.search(query, { prefix: true, combineWith: 'AND', boost: { type: 2 } });
    for (const hit of hits.slice(0, MAX_RESULTS)) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = hit.url as string;
      link.textContent = hit.title as string;
      item.append(link);
      list.append(item);
    }
    const summary = document.createElement('li');
    summary.className = 'summary';
    summary.textContent = hits.length === 0 ? 'No event version matches.' : hits.length > MAX_RESULTS ? `${hits.length} matches; the first ${MAX_RESULTS} are listed.` : `${hits.length} ${hits.length === 1 ? 'match' : 'matches'}.`;
    list.prepend(summary);
  };
  input.addEventListener('input', show);
  // Enter follows the first result.
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    const first = list.querySelector<HTMLAnchorElement>('a');
    if (first) window.location.href = first.href;
  });
  show();
}
