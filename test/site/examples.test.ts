/**
 * Example values the site shows: chosen from a field's name and type so they look like what
 * they stand for (never `account_number-4`), the same on every build; and the seed's
 * shorthand said in plain words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exampleMessage } from '../../site-builder/model/example-message.js';
import { exampleValue } from '../../site-builder/model/example-values.js';
import { plainWords } from '../../site-builder/model/plain-words.js';
import type { Manifest } from '../../site-builder/published.js';

const manifest = JSON.parse(readFileSync(new URL('../../generated/manifest.json', import.meta.url), 'utf8')) as Manifest;
const shared = new Map(manifest.sharedTypes.map((t) => [t.name, t.fields]));

describe('example values', () => {
  it.each([
    ['account_number', 'string', /^A-[0-9A-F]{8}$/],
    ['occurred_at', 'string', /^2024-03-\d\dT\d\d:\d\d:\d\dZ$/],
    ['requested_supply_start_date', 'string', /^2024-03-\d\d$/],
    ['effective_from', 'string', /^2024-03-\d\d$/],
    ['user_email', 'string', /^[a-z.]+@example\.com$/],
    ['nmi', 'string', /^61\d{8}$/],
    ['conversation_relay_id', 'string', /^rel_[0-9a-f]{8}$/],
    ['landline', 'string', /^\+61 /],
    ['user_id', 'integer', /^\d{5}$/],
    ['fee_amount', 'integer', /^12550$/],
  ] as const)('%s (%s) looks like one', (name, type, pattern) => {
    expect(String(exampleValue(name, type))).toMatch(pattern);
    expect(exampleValue(name, type)).toEqual(exampleValue(name, type));
  });

  it('fills every field of every event, shared types in place, with no placeholder made of the field’s name', () => {
    const placeholders: string[] = [];
    const walk = (value: unknown, name: string): void => {
      if (Array.isArray(value)) value.forEach((item) => walk(item, name));
      else if (typeof value === 'object' && value !== null) for (const [key, inner] of Object.entries(value)) walk(inner, key);
      else if (typeof value === 'string' && (value.startsWith(name) || value === 'text' || value === 'string')) placeholders.push(`${name}: ${value}`);
    };
    for (const event of manifest.events) {
      const message = exampleMessage(event, shared);
      expect(Object.keys(message.payload)).toEqual(event.fields.map((f) => f.name));
      walk(message.payload, '');
    }
    expect(placeholders).toEqual([]);
  });
});

describe('the seed’s shorthand in plain words', () => {
  it.each([
    ['visible properties are supply_end_date:s and new_supplier_id:s', 'visible properties are supply_end_date (text) and new_supplier_id (text)'],
    ['The inner content of fields typed `o` (for example `changes`)', 'The inner content of fields typed as objects (for example `changes`)'],
    ['inner content of o fields', 'inner content of object fields'],
    ['notes?:a[o], count:i, flag?:b', 'notes (list of objects, optional), count (integer), flag (true or false, optional)'],
    ['Delivery rules: not shown.', 'Delivery rules: not shown.'],
  ])('%s', (seed, plain) => {
    expect(plainWords(seed)).toBe(plain);
  });
});
