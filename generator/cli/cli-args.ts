import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * The maintainer commands' arguments: `--help` (`-h`) prints the usage and exits 0; an unknown
 * or malformed option says what was wrong, shows the usage and exits 2.
 */
export function parseCliArgs<T extends ParseArgsConfig>(usage: string, config: T): ReturnType<typeof parseArgs<T>> | { exit: 0 | 2 } {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    // Node's own message quotes the option unevenly and gives advice about positionals: say only what was wrong.
    const unknown = (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'([^']+)'/.exec((error as Error).message)?.[1] : undefined;
    return { exit: printUsage(usage, `✘ ${unknown !== undefined ? `unknown option ${unknown}` : (error as Error).message}`) };
  }
  if ((parsed.values as { help?: boolean }).help) return { exit: printUsage(usage) };
  return parsed;
}

/** Prints the usage, after the reason on stderr when there is one; returns the exit code (2 with a reason, else 0). */
export function printUsage(usage: string, reason?: string): 0 | 2 {
  if (reason === undefined) {
    console.log(usage);
    return 0;
  }
  console.error(`${reason}\n${usage}`);
  return 2;
}

/** The option every maintainer command has. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h', default: false } } as const;
