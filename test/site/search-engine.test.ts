/**
 * The site's search without a browser, on the package's own manifest: what a name is split
 * into, how typos are forgiven, and that hits are exactly the event versions, shared types
 * and operations whose names or fields match, with each field's path and presence.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSearch, editDistance, wordsOf } from '../../site-builder/browser/search-engine.js';
import type { SearchData } from '../../site-builder/model/search-data.js';
import { searchData } from '../../site-builder/model/search-data.js';
import { fieldTree, flattenTree } from '../../site-builder/model/field-tree.js';
import type { Manifest } from '../../site-builder/published.js';

const manifest = JSON.parse(readFileSync(new URL('../../generated/manifest.json', import.meta.url), 'utf8')) as Manifest;
const last = new Map(manifest.events.map((e) => [e.type, e.version]));
const operation = (operationId: string, fields: [string, 0 | 1, string][]): SearchData['operations'][number] => [operationId, 'POST', `/v1/${operationId}/`, '', fields];
const data: SearchData = {
  ...searchData(manifest, [], (e) => last.get(e.type) === e.version),
  operations: [operation('createNotes', [['notes', 1, ''], ['notes.body', 0, 'NotesRequest › Note']]), operation('processAccount', [['external_account_number', 1, '']])],
};
const search = createSearch(data);

describe('names as words', () => {
  it.each([
    ['account_number', ['account', 'number']],
    ['billing.billing_document_representation.dispatched', ['billing', 'billing', 'document', 'representation', 'dispatched']],
    ['createNotes', ['create', 'notes']],
    ['ink-_messages-InkConversation', ['ink', 'messages', 'ink', 'conversation']],
    ['contract-groups.memberships-changed v-alpha1', ['contract', 'groups', 'memberships', 'changed', 'v', 'alpha1']],
  ])('%s', (name, words) => {
    expect(wordsOf(name)).toEqual(words);
  });

  it.each([
    ['acount', 'account', 1],
    ['numbre', 'number', 1],
    ['account', 'account', 0],
    ['ledger', 'leader', 2],
  ])('%s → %s: %i edits', (a, b, distance) => {
    expect(editDistance(a, b, 3)).toBe(distance);
  });
});

describe('hits', () => {
  it('account_number: the 89 event versions that carry it, at any depth, each field exact, with its path and types passed through', () => {
    const result = search('account_number');
    const events = result.hits.filter((h) => h.kind === 'event');
    expect(events).toHaveLength(89);
    expect(events.every((h) => h.fields.some((f) => f.exact && f.path.at(-1) === 'account_number'))).toBe(true);
    expect(events.find((h) => h.name === 'ink.live-chat.initiated')!.fields).toEqual([{ path: ['live_chat_conversation', 'account_number'], via: ['ink-_messages-InkConversation'], alwaysPresent: true, exact: true }]);
    // Inside a longer name, in order: the REST operation's external_account_number; a name with the words apart does not match.
    expect(result.hits.filter((h) => h.kind === 'operation').map((h) => h.name)).toEqual(['processAccount']);
    expect(events.flatMap((h) => h.fields.map((f) => f.path.at(-1)))).not.toContain('account_user_number');
  });

  it('a shared type is found by its name', () => {
    const ledger = search('ledger').hits.find((h) => h.kind === 'type' && h.name === 'billing-_billing-Ledger');
    expect(ledger).toMatchObject({ nameMatch: true, url: 'types/billing-_billing-Ledger/index.html' });
  });

  it('document_representation: words inside snake_case and dotted names', () => {
    const result = search('document_representation');
    expect(result.words.map((w) => w.match)).toEqual(['exact', 'exact']);
    const events = result.hits.filter((h) => h.kind === 'event');
    expect(events.map((h) => `${h.name} ${h.version}`)).toEqual(['billing.billing_document_representation.dispatched v1', 'billing.billing_document_representation.dispatched v2', 'billing.billing_document_representation.dispatched v3']);
    expect(events.every((h) => h.nameMatch)).toBe(true);
    expect([...new Set(events.flatMap((h) => h.fields.map((f) => f.path.join('.'))))]).toEqual(['billing_document_representation_dispatch_id', 'billing_document_representations_id']);
  });

  it('createNotes: the operation by its id', () => {
    const hits = search('createNotes').hits;
    expect(hits.filter((h) => h.nameMatch).map((h) => `${h.kind} ${h.name}`)).toEqual(['operation createNotes']);
    expect(hits.find((h) => h.name === 'createNotes')!.score).toBe(3);
  });

  it('acount_number: a typo read as the words it is close to, only where no name has the word itself', () => {
    const result = search('acount_number');
    expect(result.words[0]).toMatchObject({ word: 'acount', match: 'typo' });
    expect(result.words[0]!.readAs).toContain('account');
    expect(result.hits.filter((h) => h.kind === 'event')).toHaveLength(89);
    expect(result.hits.every((h) => h.score === 1)).toBe(true);
    // A word some name starts with is never read as a typo of another.
    expect(search('amount').words[0]!.match).not.toBe('typo');
  });

  it('the start of a word finds the words it starts; nothing matches nonsense', () => {
    expect(search('acc num').hits.filter((h) => h.kind === 'event').length).toBeGreaterThanOrEqual(89);
    expect(search('zzqx').hits).toEqual([]);
    expect(search('zzqx').words[0]!.match).toBe('none');
    expect(search('   ').hits).toEqual([]);
  });

  it('marks each event version with its type’s number of versions and whether it is the latest', () => {
    const type = manifest.events.find((e, _, all) => all.filter((o) => o.type === e.type).length === 3)!.type;
    const hits = search(type).hits.filter((h) => h.name === type);
    expect(hits.map((h) => [h.version, h.latest, h.versions])).toEqual(manifest.events.filter((e) => e.type === type).map((e, i) => [e.version, i === 2, 3]));
  });
});

describe('the field tree', () => {
  const shared = new Map([
    ['Ledger', [{ name: 'number', type: 'string', optional: false }, { name: 'parent', type: 'Ledger', optional: true }]],
  ]);
  const tree = fieldTree([{ name: 'ledgers', type: 'Ledger[]', optional: true }, { name: 'id', type: 'integer', optional: false, nullable: true }], shared);

  it('expands shared types in place, through lists, saying the path and the types passed through', () => {
    expect(flattenTree(tree).map((n) => [n.path.join('.'), n.typeText, n.via.join(' › '), n.required, n.alwaysPresent])).toEqual([
      ['ledgers', 'list of Ledger', '', false, false],
      ['ledgers.number', 'text', 'Ledger', true, false],
      ['ledgers.parent', 'Ledger', 'Ledger', false, false],
      ['id', 'integer', '', true, true],
    ]);
  });

  it('stops at a type it is already inside, and keeps null where the catalog allows it', () => {
    const parent = flattenTree(tree).find((n) => n.path.join('.') === 'ledgers.parent')!;
    expect(parent).toMatchObject({ recursive: true, children: [] });
    expect(tree[1]!.nullable).toBe(true);
  });
});
