#!/usr/bin/env node
/**
 * The package's command line:
 *
 *   event-catalog validate [FILE|-] [--strict] [--rejects FILE] [--json]
 *   event-catalog dead-letters replay (--nats URL | --redis URL) --stream NAME …
 *
 * Exit status: 0 all valid, 1 some line rejected, 2 usage error or unreadable input.
 */
import { readFileSync } from 'node:fs';
import { BIN_NAME, runValidate, type ValidateIo } from './validate-command.js';
import { runDeadLetters } from './dead-letters-command.js';

const USAGE = `usage: ${BIN_NAME} <command> [options]

commands:
  validate [FILE|-] [--strict] [--rejects FILE] [--json]
      check bus messages (JSON Lines) against the event catalog; "${BIN_NAME} validate --help" for more
  dead-letters replay (--nats URL | --redis URL) --stream NAME …
      publish again the dead letters that are valid now; "${BIN_NAME} dead-letters --help" for more

options:
  --help, -h     this help
  --version, -v  the package version
`;

function packageVersion(): string {
  for (const relative of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@data-import/event-catalog' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // Try the next place the package root may be.
    }
  }
  return 'unknown';
}

async function main(argv: string[]): Promise<number> {
  // Standard input is only touched when `validate` reads from it.
  const io: ValidateIo = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
  };
  const [command, ...rest] = argv;
  switch (command) {
    case 'validate':
      return runValidate(rest, io);
    case 'dead-letters':
      return runDeadLetters(rest, io);
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
      process.stderr.write(`✘ unknown command ${JSON.stringify(command)}\n${USAGE}`);
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
