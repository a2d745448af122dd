/**
 * The seed's shorthand in plain words: its field notation (`supply_end_date:s`,
 * `notes?:a[o]`) and "fields typed `o`". The seed's own words stay available beside them.
 */

const ONE: Readonly<Record<string, string>> = { s: 'text', i: 'integer', n: 'number', b: 'true or false', o: 'object' };
const MANY: Readonly<Record<string, string>> = { s: 'texts', i: 'integers', n: 'numbers', b: 'true-or-false values', o: 'objects' };

export function plainWords(text: string): string {
  return text
    .replace(/\b([A-Za-z_][\w]*)(\??):a\[([sinbo])\]/g, (_, name: string, optional: string, type: string) => `${name} (list of ${MANY[type]}${optional ? ', optional' : ''})`)
    .replace(/\b([A-Za-z_][\w]*)(\??):([sinbo])\b/g, (_, name: string, optional: string, type: string) => `${name} (${ONE[type]}${optional ? ', optional' : ''})`)
    .replace(/fields typed `o`/g, 'fields typed as objects')
    .replace(/\bo fields\b/g, 'object fields');
}
