/**
 * `reachableSharedTypes`: the shared types fields reach, directly, in arrays or through other
 * shared types; its lookup by name is kept per list, and follows the list when it changes.
 */
import { describe, expect, it } from 'vitest';
import { reachableSharedTypes } from '../../generator/common/shared-types.js';
import type { FieldModel, SharedTypeModel, TypeRef } from '../../generator/model.js';

const position = { file: 'catalog/01.yaml', line: 1, col: 1 };
const field = (name: string, type: TypeRef): FieldModel => ({ name, type, optional: false, nullable: false }) as FieldModel;
const named = (name: string): TypeRef => ({ kind: 'named', name });
const shared = (name: string, fields: FieldModel[] = []): SharedTypeModel => ({ name, tsName: name, fields, open: false, section: 'shared', position, usedBy: [] });

describe('reachableSharedTypes', () => {
  it('follows arrays and other shared types, once each, sorted by name', () => {
    const types = [shared('Period'), shared('Address', [field('period', named('Period'))]), shared('Unused')];
    const fields = [field('home', named('Address')), field('history', { kind: 'array', items: named('Period') })];
    expect(reachableSharedTypes(types, fields).map((t) => t.name)).toEqual(['Address', 'Period']);
  });

  it('sees a shared type added to the same list after an earlier call', () => {
    const types = [shared('Address')];
    const fields = [field('home', named('Address')), field('billing', named('Billing'))];
    expect(reachableSharedTypes(types, fields).map((t) => t.name)).toEqual(['Address']);
    types.push(shared('Billing'));
    expect(reachableSharedTypes(types, fields).map((t) => t.name)).toEqual(['Address', 'Billing']);
  });
});
