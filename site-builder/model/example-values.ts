/**
 * Example values people recognise, chosen from a field's name and type: `account_number`
 * looks like an account number, `*_at` like a timestamp, `*_date` like a date, an email like
 * an email. The catalog states no formats for events (timestamps are plain strings), so these
 * are illustrations, and every example is still checked by the package's validators.
 * Deterministic: the same name always gives the same value.
 */
import type { PrimitiveType } from './type-notation.js';

/** A small stable hash of a name, to vary values between fields without randomness. */
function hashOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}

const pick = <T>(name: string, choices: readonly T[]): T => choices[hashOf(name) % choices.length]!;
const hex = (name: string, length: number): string => hashOf(`${name}#hex`).toString(16).toUpperCase().padStart(8, '0').slice(0, length);
const digits = (name: string, length: number): string => String(hashOf(`${name}#digits`)).padStart(10, '7').slice(0, length);

const words = (name: string): string[] => name.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');

/** A date in March 2024, varied by name. */
export const exampleDate = (name: string): string => `2024-03-${String(1 + (hashOf(name) % 28)).padStart(2, '0')}`;
export const exampleTime = (name: string): string => {
  const h = hashOf(`${name}#time`);
  return `${String(8 + (h % 10)).padStart(2, '0')}:${String((h >>> 4) % 60).padStart(2, '0')}:${String((h >>> 10) % 60).padStart(2, '0')}`;
};
const uuidOf = (name: string): string => {
  const h = (salt: string) => hashOf(`${name}#${salt}`).toString(16).padStart(8, '0');
  return `${h('a')}-${h('b').slice(0, 4)}-4${h('c').slice(0, 3)}-a${h('d').slice(0, 3)}-${h('e')}${h('f').slice(0, 4)}`;
};

const PEOPLE = ['Alex Morgan', 'Sam Patel', 'Jordan Lee', 'Riley Chen'];
const EMAILS = ['alex.morgan@example.com', 'sam.patel@example.com', 'jordan.lee@example.com'];

/** Text for a string field, by what its name says it holds. */
export function exampleText(name: string): string {
  const w = words(name);
  const last = w[w.length - 1] ?? '';
  const has = (word: string) => w.includes(word);
  if (last === 'at' || name === 'occurred_at' || last === 'timestamp') return `${exampleDate(name)}T${exampleTime(name)}Z`;
  if (last === 'date' || last === 'on' || last === 'ssd' || ['from', 'to', 'start', 'end'].includes(last)) return exampleDate(name);
  if (has('email') || has('emails') || last === 'address' || last === 'addresses') return pick(name, EMAILS);
  if (['landline', 'phone', 'mobile'].includes(last)) return '+61 3 9123 4567';
  if (has('supplier') && (last === 'supplier' || last === 'code')) return 'ACME_ENERGY';
  if (last === 'path' || last === 'paths') return 'correspondence/2024-03/welcome-letter.pdf';
  if (last === 'body') return 'Called the customer to confirm the move-in date.';
  if (last === 'team') return 'Migrations team';
  if (name === 'account_number' || (has('account') && last === 'number')) return `A-${hex(name, 8)}`;
  if (last === 'nmi' || name === 'nmi') return `61${digits(name, 8)}`;
  if (last === 'mirn') return `53${digits(name, 8)}`;
  if (last === 'number') return `${(w[0] ?? 'n').slice(0, 1).toUpperCase()}-${hex(name, 8)}`;
  if (last === 'id' || last === 'pk') return has('relay') ? `rel_${hex(name, 8).toLowerCase()}` : uuidOf(name);
  if (w[0] === 's3' && last === 'key') return `statements/2024/03/${hex(name, 8)}.pdf`;
  if (last === 'identifier' || last === 'reference') return `REF-${hex(name, 8)}`;
  if (last === 'bucket') return 'import-documents';
  if (last === 'filename') return 'statement-2024-03.pdf';
  if (last === 'code' || last === 'codes') return `${(w[w.length - 2] ?? 'code').toUpperCase()}_${digits(name, 2)}`;
  if (last === 'status') return pick(name, ['ACTIVE', 'PENDING', 'COMPLETED']);
  if (last === 'type' || last === 'subtype' || last === 'category' || last === 'subcategory' || last === 'method' || last === 'mechanism') return pick(name, ['standard', 'manual', 'scheduled']);
  if (last === 'reason' || last === 'note' || last === 'detail' || last === 'details' || last === 'exception' || last === 'error' || last === 'annotation') return pick(name, ['Requested by the customer.', 'Meter access was not possible.', 'Superseded by a later reading.']);
  if (last === 'name') return has('display') ? pick(name, PEOPLE) : pick(name, ['Residential', 'Standard plan', 'Northern region']);
  if (last === 'description') return 'Monthly electricity bill';
  if (['industry', 'fuel'].includes(last)) return 'electricity';
  if (last === 'jurisdiction' || last === 'region') return 'VIC';
  if (last === 'channel' || last === 'source') return pick(name, ['web', 'phone', 'email']);
  if (last === 'brand' || last === 'brands' || last === 'vendor') return pick(name, ['Brand North', 'Brand South']);
  if (last === 'day') return exampleTime(name).slice(0, 5);
  if (last === 'boundaries') return '[)';
  if (last === 'after' || last === 'before' || last === 'factor' || last === 'charge') return `1.0${digits(name, 3)}`;
  if (last === 'tags' || last === 'permissions') return pick(name, ['priority', 'read', 'vip']);
  if (last === 'key') return 'preferred_contact_method';
  if (last === 'value') return 'email';
  if (last === 'language' || last === 'comms') return 'en';
  if (last === 'accessibility') return 'large_print';
  // Otherwise the field's own words, as a person would write them.
  const phrase = w.join(' ');
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}

/** A value of a primitive type for a field of this name. */
export function exampleValue(name: string, type: PrimitiveType): unknown {
  const last = words(name).at(-1) ?? '';
  switch (type) {
    case 'string':
      return exampleText(name);
    case 'integer':
      if (last === 'amount') return 12550;
      if (last === 'count') return 3;
      if (last === 'bytes') return 482113;
      if (last === 'expiry' || last === 'days') return 14;
      if (last === 'value' || last === 'reference') return 2;
      return 10000 + (hashOf(name) % 90000);
    case 'number':
      return 1 + (hashOf(name) % 9) / 2;
    case 'boolean':
      return name.startsWith('is_') ? hashOf(name) % 2 === 0 : true;
    case 'object':
      // The seed does not show what opaque objects hold.
      return {};
  }
}
