/**
 * Where things are in JSON text, by line: the line of the value at each JSON Pointer asked
 * for (a pointer to something absent falls back to its nearest present parent, so a missing
 * property marks the object that lacks it), or the line where the text stops being JSON.
 * One pass over the text, so a message of megabytes costs one scan.
 */

export type LineMap = { ok: true; lines: (number | undefined)[] } | { ok: false; errorLine: number };

const escapePointerToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The pointer and every parent of it: `/a/b` → `/a/b`, `/a`, ``. */
function withParents(pointer: string): string[] {
  const out = [pointer];
  for (let at = pointer.lastIndexOf('/'); at >= 0; at = pointer.lastIndexOf('/', at - 1)) {
    out.push(pointer.slice(0, at));
    if (at === 0) break;
  }
  return out;
}

class Stop {
  constructor(readonly offset: number) {}
}

export function linesOfPointers(text: string, pointers: readonly string[]): LineMap {
  const wanted = new Set(pointers.flatMap(withParents));
  const found = new Map<string, number>();
  let i = 0;
  let line = 1;
  const fail = (): never => {
    throw new Stop(i);
  };
  const ws = (): void => {
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 10) line++;
      else if (c !== 32 && c !== 9 && c !== 13) return;
      i++;
    }
  };
  const string = (): string => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) fail();
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) fail();
      i += c === 92 ? 2 : 1;
    }
    i++;
    return text.slice(start, i);
  };
  const value = (pointer: string): void => {
    ws();
    if (wanted.has(pointer) && !found.has(pointer)) found.set(pointer, line);
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        const key = JSON.parse(string()) as string;
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(`${pointer}/${escapePointerToken(key)}`);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (let index = 0; ; index++) {
        value(`${pointer}/${index}`);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return void string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 64));
    if (!literal) fail();
    i += literal![0].length;
  };
  try {
    value('');
    ws();
    if (i < text.length) fail();
  } catch (stop) {
    if (stop instanceof Stop) return { ok: false, errorLine: line };
    throw stop;
  }
  const lineOf = (pointer: string): number | undefined => withParents(pointer).map((p) => found.get(p)).find((l) => l !== undefined);
  return { ok: true, lines: pointers.map(lineOf) };
}
