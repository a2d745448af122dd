#!/usr/bin/env node
/**
 * The package's command line:
 *
 *   event-catalog validate [FILE|-] [--strict] [--rejects FILE] [--json] [--max-line-length BYTES]
 *   event-catalog dead-letters replay (--nats URL | --redis URL) --stream NAME …
 *   event-catalog emulate [--port 4010] [--token T] [--seed N] [--clock ISO] …
 *
 * Exit status: 0 all valid, 1 some line rejected, 2 usage error or unreadable input,
 * 130 interrupted (after the summary of what was read).
 */
import { didYouMean } from './did-you-mean.js';
import { packageVersion } from './package-version.js';
import { BIN_NAME, runValidate, type ValidateIo } from './validate-command.js';
import { runDeadLetters } from './dead-letters-command.js';
import { runEmulate } from './emulate-command.js';

const USAGE = `usage: ${BIN_NAME} <command> [options]

commands:
  validate [FILE|-] [--strict] [--rejects FILE] [--json] [--max-line-length BYTES]
      check bus messages (JSON Lines) against the event catalog; "${BIN_NAME} validate --help" for more
  dead-letters replay (--nats URL | --redis URL) --stream NAME …
      publish again the dead letters that are valid now; "${BIN_NAME} dead-letters --help" for more
  emulate [--port 4010] [--token T] [--seed N] [--clock ISO-DATETIME] …
      run the data-import service locally from its contract; "${BIN_NAME} emulate --help" for more

options:
  --help, -h     this help
  --version, -v  the package version
`;

/** What an unknown command is compared with, for a suggestion. */
const COMMANDS = ['validate', 'dead-letters', 'emulate', 'help', '--help', '--version'];

async function main(argv: string[]): Promise<number> {
  // Ctrl-C stops the reading and the summary of what was read is still printed; a second one
  // ends the process at once (the handler is gone by then).
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort());
  // Standard input is only touched when `validate` reads from it.
  const io: ValidateIo = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    interrupt: interrupt.signal,
  };
  const [command, ...rest] = argv;
  switch (command) {
    case 'validate':
      return runValidate(rest, io);
    case 'dead-letters':
      return runDeadLetters(rest, io);
    case 'emulate':
      return runEmulate(rest, io);
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case '--version':
    case '-v':
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    case undefined:
      process.stderr.write(`✘ no command given\n${USAGE}`);
      return 2;
    default:
      process.stderr.write(`✘ unknown ${command.startsWith('-') ? 'option' : 'command'} ${JSON.stringify(command)}${didYouMean(command, COMMANDS)}\n${USAGE}`);
      return 2;
  }
}

process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`✘ ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
