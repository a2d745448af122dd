/** Lines of JSON text by JSON Pointer, as the validator marks them: present values, absent ones by their parent, syntax errors. */
import { describe, expect, it } from 'vitest';
import { linesOfPointers } from '../../site-builder/browser/json-lines.js';

const text = JSON.stringify({ type: 'a', payload: { 'a/b~c': 1, list: [{ x: 1 }, { y: [true, null] }], s: 'line\nbreak "quoted"' } }, null, 2);
const lineOf = (needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('linesOfPointers', () => {
  it('finds each value’s line, escaped keys and array items included', () => {
    expect(linesOfPointers(text, ['', '/type', '/payload/a~1b~0c', '/payload/list/1/y/1', '/payload/s'])).toEqual({
      ok: true,
      lines: [1, lineOf('"type"'), lineOf('"a/b~c"'), lineOf('null'), lineOf('"s"')],
    });
  });

  it('puts a missing property on the object that lacks it', () => {
    expect(linesOfPointers(text, ['/payload/list/0/missing', '/payload/absent/deeper'])).toEqual({ ok: true, lines: [lineOf('"list"') + 1, lineOf('"payload"')] });
  });

  it('gives the line where text stops being JSON', () => {
    expect(linesOfPointers('{\n  "a": 1,\n  "b": tru\n}', ['/a'])).toEqual({ ok: false, errorLine: 3 });
    expect(linesOfPointers('{\n  "a": "unterminated', [''])).toEqual({ ok: false, errorLine: 2 });
    expect(linesOfPointers('{}\nextra', [''])).toEqual({ ok: false, errorLine: 2 });
  });

  it('scans a message of megabytes in one pass', () => {
    const big = JSON.stringify({ payload: { items: Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: `item ${i}` })) } }, null, 1);
    expect(big.length).toBeGreaterThan(5_000_000);
    const started = performance.now();
    const found = linesOfPointers(big, ['/payload/items/199999/name']);
    expect(found.ok && found.lines[0]).toBe(big.split('\n').findIndex((l) => l.includes('"item 199999"')) + 1);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
