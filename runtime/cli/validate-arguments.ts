/** The arguments of `validate`: what was asked, or what is wrong with them in plain words. */
import { parseArgs } from 'node:util';
import type { ValidationMode } from '../index.js';
import { didYouMean } from './did-you-mean.js';

/** The longest line read as a message, in bytes, unless `--max-line-length` says otherwise. */
export const DEFAULT_MAX_LINE_LENGTH = 16 * 1024 * 1024;
/** The most `--max-line-length` may be: a longer line could not be held as one string anyway. */
const MAX_MAX_LINE_LENGTH = 256 * 1024 * 1024;

export interface ValidateArguments {
  input: string | undefined;
  mode: ValidationMode;
  rejects: string | undefined;
  json: boolean;
  maxLineLength: number;
}

const OPTIONS = {
  strict: { type: 'boolean' },
  rejects: { type: 'string', value: 'FILE' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  'max-line-length': { type: 'string', value: 'BYTES' },
} as const;

/** What is wrong with the options, in plain words (Node's parser says it in its own), or `undefined`. */
function optionProblem(args: readonly string[], options: Record<string, { type: 'boolean' | 'string'; short?: string; value?: string }>): string | undefined {
  const shorts = new Set(Object.values(options).flatMap((o) => (o.short === undefined ? [] : [`-${o.short}`])));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return undefined;
    if (arg === '-' || !arg.startsWith('-') || shorts.has(arg)) continue;
    const equals = arg.indexOf('=');
    const flag = arg.startsWith('--') && equals !== -1 ? arg.slice(0, equals) : arg;
    const value = flag === arg ? undefined : arg.slice(equals + 1);
    const option = flag.startsWith('--') ? options[flag.slice(2)] : undefined;
    if (option === undefined) return `unknown option ${JSON.stringify(flag)}${didYouMean(flag, Object.keys(options).map((name) => `--${name}`))}`;
    if (option.type === 'boolean' && value !== undefined) return `${flag} takes no value`;
    if (option.type === 'string' && value === undefined) {
      const next = args[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) return `${flag} needs a value: ${flag} ${option.value ?? 'VALUE'}`;
      i++;
    }
  }
  return undefined;
}

/** `16777216`, `512KiB`, `16MiB`, `1GiB` → bytes; `undefined` when it is none of those. */
export function byteCount(text: string): number | undefined {
  const match = /^([0-9]+)(KiB|MiB|GiB)?$/.exec(text);
  if (!match) return undefined;
  const unit = match[2] === 'KiB' ? 1024 : match[2] === 'MiB' ? 1024 ** 2 : match[2] === 'GiB' ? 1024 ** 3 : 1;
  return Number(match[1]) * unit;
}

export function parseValidateArguments(args: string[]): ValidateArguments | { help: true } | { usage: string } {
  const problem = optionProblem(args, OPTIONS);
  if (problem !== undefined) return { usage: problem };
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    return { usage: (error as Error).message.split('\n')[0]! };
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  if (positionals.length > 1) return { usage: `one input at most, got ${positionals.length}: ${positionals.join(' ')}` };
  if (values.rejects === '') return { usage: '--rejects needs a file name' };
  let maxLineLength = DEFAULT_MAX_LINE_LENGTH;
  if (values['max-line-length'] !== undefined) {
    const bytes = byteCount(values['max-line-length']);
    if (bytes === undefined || bytes < 1 || bytes > MAX_MAX_LINE_LENGTH) {
      return { usage: `--max-line-length takes a number of bytes from 1 to 256MiB (such as 1048576 or 16MiB), got ${JSON.stringify(values['max-line-length'])}` };
    }
    maxLineLength = bytes;
  }
  const input = positionals[0] === undefined || positionals[0] === '-' ? undefined : positionals[0];
  return { input, mode: values.strict ? 'strict' : 'tolerant', rejects: values.rejects, json: values.json ?? false, maxLineLength };
}
