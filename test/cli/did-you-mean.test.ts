import { describe, expect, it } from 'vitest';
import { closestName } from '../../runtime/cli/did-you-mean.js';

const TYPES = ['account.created', 'account.occupied', 'agreement.revoked', 'agreement.renewed', 'note.created'];

describe('closestName', () => {
  it.each([
    ['acount.created', 'account.created'],
    ['account.craeted', 'account.created'],
    ['ACCOUNT.CREATED', 'account.created'],
    ['agreement.revokd', 'agreement.revoked'],
    ['notes.created', 'note.created'],
  ])('suggests %s → %s', (typo, meant) => {
    expect(closestName(typo, TYPES)).toBe(meant);
  });

  it.each([
    ['nothing close', 'billing.invoice_sent'],
    ['too short to guess', 'x'],
    ['empty', ''],
  ])('suggests nothing when %s', (_, typo) => {
    expect(closestName(typo, TYPES)).toBeUndefined();
  });

  it('suggests nothing when two names are equally close', () => {
    expect(closestName('meter.read_3', ['meter.read_1', 'meter.read_2'])).toBeUndefined();
    expect(closestName('meter.read_3', ['meter.read_1', 'meter.reads_2'])).toBe('meter.read_1');
  });

  it('suggests nothing for an exact stranger of the same length', () => {
    expect(closestName('zzzzzzz.zzzzzzz', TYPES)).toBeUndefined();
  });
});
