/// <reference lib="dom" />
/**
 * The home page's search box: every hit listed as the reader types, event versions grouped
 * by event type (latest version marked), then shared types and REST operations; each hit
 * names the fields that matched, their path through shared types and whether they are always
 * present. Enter opens the first hit; `?q=` fills the box.
 */
import type { SearchData } from '../model/search-data.js';
import { createSearch, type FieldHit, type Hit, type SearchResult } from './search-engine.js';

declare global {
  interface Window {
    SEARCH_DATA?: SearchData;
  }
}

const KIND_ORDER: readonly Hit['kind'][] = ['event', 'type', 'operation'];

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function fieldLine(field: FieldHit, url: string): HTMLElement {
  const item = element('li');
  const link = element('a');
  link.href = `${url}#field-${field.path.join('.')}`;
  const path = element('code', undefined, field.path.join('.'));
  link.append(path);
  item.append(link, ' ', element('span', field.alwaysPresent ? 'badge required' : 'badge optional', field.alwaysPresent ? 'required' : 'optional'));
  if (field.via.length > 0) item.append(' ', element('span', 'via', `through ${field.via.join(' › ')}`));
  return item;
}

function hitBody(hit: Hit, title: HTMLElement): HTMLElement[] {
  const parts: HTMLElement[] = [title];
  if (hit.fields.length > 0) {
    const fields = element('ul', 'matched-fields');
    fields.append(...hit.fields.map((f) => fieldLine(f, hit.url)));
    parts.push(fields);
  }
  return parts;
}

function summaryText(query: string, result: SearchResult): string {
  const count = (kind: Hit['kind']) => result.hits.filter((h) => h.kind === kind).length;
  const events = count('event');
  const types = new Set(result.hits.filter((h) => h.kind === 'event').map((h) => h.name)).size;
  const exact = result.hits.filter((h) => h.kind === 'event' && h.fields.some((f) => f.exact)).length;
  const parts = [
    `${events} event ${events === 1 ? 'version' : 'versions'}${events > 0 ? ` of ${types} ${types === 1 ? 'type' : 'types'}` : ''}`,
    `${count('type')} shared ${count('type') === 1 ? 'type' : 'types'}`,
    `${count('operation')} REST ${count('operation') === 1 ? 'operation' : 'operations'}`,
  ];
  const exactText = exact > 0 ? ` ${exact} event ${exact === 1 ? 'version carries a field' : 'versions carry a field'} named exactly “${query}”.` : '';
  return `${parts.join(', ')} match.${exactText}`;
}

function render(list: HTMLElement, query: string, result: SearchResult): void {
  list.replaceChildren();
  if (result.words.length === 0) return;
  const notes = result.words.filter((w) => w.match === 'typo' || w.match === 'none');
  for (const word of notes) {
    list.append(element('p', 'note', word.match === 'none' ? `No name has a word starting “${word.word}”.` : `No name has the word “${word.word}”: read as ${word.readAs.map((w) => `“${w}”`).join(' or ')}.`));
  }
  list.append(element('p', 'summary', summaryText(query, result)));
  const sorted = [...result.hits].sort((a, b) => b.score - a.score || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  const groups = new Map<string, Hit[]>();
  for (const hit of sorted) groups.set(`${hit.kind}:${hit.name}`, [...(groups.get(`${hit.kind}:${hit.name}`) ?? []), hit]);
  const top = element('ul', 'hits');
  for (const hits of groups.values()) {
    const first = hits[0]!;
    const item = element('li', `hit ${first.kind}`);
    const several = first.kind === 'event' && hits.length > 1;
    if (several) {
      const heading = element('p', 'hit-title');
      heading.append(element('code', undefined, first.name), ' ', element('span', 'via', hits.length === first.versions ? (hits.length === 2 ? 'both versions' : `all ${hits.length} versions`) : `${hits.length} of its ${first.versions} versions`));
      item.append(heading);
    }
    for (const hit of hits) {
      const title = element('p', 'hit-title');
      if (hit.kind !== 'event') title.append(element('span', 'kind', hit.kind === 'type' ? 'Shared type' : `REST ${hit.method ?? ''}`), ' ');
      const link = element('a', 'hit-link');
      link.href = hit.url;
      // Under its type's heading a version shows only its version; its name is still read out whole.
      if (several) link.append(element('span', 'visually-hidden', `${hit.name} `), hit.version ?? '');
      else link.append(element('code', undefined, hit.name), ...(hit.version !== undefined ? [` ${hit.version}`] : []));
      title.append(link);
      // Which version is the latest matters only where a type has several.
      if ((hit.versions ?? 1) > 1) title.append(' ', hit.latest ? element('span', 'badge latest', 'latest') : element('span', 'via', `not the latest of ${hit.versions}`));
      if (hit.nameMatch) title.append(' ', element('span', 'via', 'name matches'));
      const body = hitBody(hit, title);
      if (several) {
        const version = element('div', 'hit-version');
        version.append(...body);
        item.append(version);
      } else item.append(...body);
    }
    top.append(item);
  }
  list.append(top);
}

const input = document.querySelector<HTMLInputElement>('input[type="search"]');
const list = document.getElementById('search-results');
if (input && list && window.SEARCH_DATA) {
  const search = createSearch(window.SEARCH_DATA);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const show = (): void => {
    const query = input.value.trim();
    render(list, query, search(query));
    list.dataset.query = query;
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(show, 60);
  });
  input.form?.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    show();
    const first = list.querySelector<HTMLAnchorElement>('a.hit-link');
    if (first) window.location.href = first.href;
  });
  const asked = new URLSearchParams(window.location.search).get('q');
  if (asked) input.value = asked;
  if (input.value.trim() !== '') show();
}
