/**
 * Where JSON text stops being valid. `JSON.parse` does the parsing; this runs only after it
 * has failed, because its messages do not always carry a position (Node 20).
 */
export interface JsonSyntaxPosition {
  /** 0-based offset in the text. */
  offset: number;
  line: number;
  column: number;
  /** What the scanner expected there. */
  expected: string;
}

export function locateJsonSyntaxError(text: string): JsonSyntaxPosition {
  let i = 0;
  const fail = (expected: string): never => {
    throw new ScanStop(i, expected);
  };
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string): void => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`"${word}"`);
      i++;
    }
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('closing quote');
      const code = text.charCodeAt(i);
      if (code === 0x22) return void i++;
      if (code < 0x20) fail('no control character in a string');
      if (code === 0x5c) {
        i++;
        const esc = text[i];
        if (esc === 'u') {
          for (let k = 1; k <= 4; k++) if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) ((i += k), fail('four hex digits'));
          i += 5;
        } else if (esc !== undefined && '"\\/bfnrt'.includes(esc)) i++;
        else fail('a valid escape');
      } else i++;
    }
  };
  const number = (): void => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (/[1-9]/.test(text[i] ?? '')) while (/[0-9]/.test(text[i] ?? '')) i++;
    else fail('a digit');
    if (text[i] === '.') {
      i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail('a digit');
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!/[0-9]/.test(text[i] ?? '')) fail('a digit');
      while (/[0-9]/.test(text[i] ?? '')) i++;
    }
  };
  /**
   * One JSON value, iteratively: an explicit stack of open containers instead of recursion,
   * so that deep nesting (`[[[[…`, as deep as `JSON.parse` itself accepts) cannot overflow
   * the call stack and still gets a position.
   */
  const value = (): void => {
    const open: ('{' | '[')[] = [];
    /** After a complete value: close containers or move to the next member; `true` when a new value is due. */
    const afterValue = (): boolean => {
      for (;;) {
        const container = open[open.length - 1];
        if (container === undefined) return false;
        ws();
        if (container === '{') {
          if (text[i] === ',') {
            i++;
            ws();
            member();
            return true;
          }
          if (text[i] === '}') {
            i++;
            open.pop();
            continue;
          }
          fail('"," or "}"');
        } else {
          if (text[i] === ',') {
            i++;
            return true;
          }
          if (text[i] === ']') {
            i++;
            open.pop();
            continue;
          }
          fail('"," or "]"');
        }
      }
    };
    /** A property name and its colon; the value follows. */
    const member = (): void => {
      if (text[i] !== '"') fail('a property name in double quotes');
      string();
      ws();
      if (text[i] !== ':') fail('":"');
      i++;
    };
    for (;;) {
      ws();
      const ch = text[i];
      if (ch === '{') {
        i++;
        ws();
        if (text[i] === '}') i++;
        else {
          open.push('{');
          member();
          continue;
        }
      } else if (ch === '[') {
        i++;
        ws();
        if (text[i] === ']') i++;
        else {
          open.push('[');
          continue;
        }
      } else if (ch === '"') string();
      else if (ch === 't') literal('true');
      else if (ch === 'f') literal('false');
      else if (ch === 'n') literal('null');
      else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) number();
      else fail(i >= text.length ? 'a value (the text ended)' : 'a value');
      if (!afterValue()) return;
    }
  };

  let stop: ScanStop;
  try {
    value();
    ws();
    if (i < text.length) fail('the end of the text');
    stop = new ScanStop(text.length, 'nothing (the text is valid JSON)');
  } catch (error) {
    if (!(error instanceof ScanStop)) throw error;
    stop = error;
  }
  // 1-based line and column, counting UTF-16 code units like editors do.
  let line = 1;
  let lineStart = 0;
  for (let k = 0; k < stop.offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++;
      lineStart = k + 1;
    }
  }
  return { offset: stop.offset, line, column: stop.offset - lineStart + 1, expected: stop.expected };
}

class ScanStop {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}
