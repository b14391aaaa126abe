// The resumecheck command line: a router over the table of commands (commands.ts). It answers --help, --version and
// `CMD --help` from the table alone, parses and checks each command's options, and only then imports the command's
// code. Exit 0: nothing found; 1: a violation; 2: bad input (one line, no stack trace).

import { ConfigError } from '../sim/config.ts';
import type { Io } from './command-spec.ts';
import { COMMANDS, findCommand } from './commands.ts';
import { renderCommandHelp, renderOverview } from './help.ts';
import { parseCommandArgs, wantsHelp } from './parse-options.ts';
import { UsageError } from './usage-error.ts';
import { packageVersion } from './version.ts';

export type { Io } from './command-spec.ts';

const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  signals: true,
  progress: process.stderr,
};

/**
 * Errors that are the user's input, not resumecheck's: their message is printed alone, exit 2. The trace module is
 * imported only here, once something failed: `--help` need not load it (and node:crypto with it).
 */
async function isBadInput(error: unknown): Promise<boolean> {
  if (error instanceof UsageError || error instanceof ConfigError) return true;
  const { TraceFormatError } = await import('../traces/trace.ts');
  return error instanceof TraceFormatError;
}

async function route(args: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined) throw new UsageError('no command given; try resumecheck --help');
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    if (topic === undefined) {
      for (const line of renderOverview(COMMANDS, packageVersion())) io.out(line);
      return 0;
    }
    const command = findCommand(topic);
    if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(topic)}; try resumecheck --help`);
    for (const line of renderCommandHelp(command)) io.out(line);
    return 0;
  }
  if (name === '--version' || name === '-V' || name === '-v' || name === 'version') {
    io.out(`resumecheck ${packageVersion()}`);
    return 0;
  }
  const command = findCommand(name);
  if (command === undefined) throw new UsageError(`unknown command ${JSON.stringify(name)}; try resumecheck --help`);
  if (wantsHelp(rest)) {
    for (const line of renderCommandHelp(command)) io.out(line);
    return 0;
  }
  const parsed = parseCommandArgs(command, rest);
  const run = await command.load();
  return run(parsed, io);
}

/** Runs the CLI; returns the exit code. Bad input prints one line on stderr and returns 2. */
export async function main(args: string[], io: Io = processIo): Promise<number> {
  try {
    return await route(args, io);
  } catch (error) {
    if (error instanceof Error && (await isBadInput(error))) {
      io.err(`resumecheck: ${error.message}`);
      return 2;
    }
    // A user's store whose call outlasted the call timeout ended a run of a module target (replay, shrink, script): the
    // store's verdict, one line, as a contained fuzz gives it (named, not imported: the module target loads the SDK).
    if (error instanceof Error && error.name === 'StoreHangError') {
      io.out(`✗ a store call never settled: ${error.message}; inside the transport it hangs the request it serves`);
      return 1;
    }
    throw error;
  }
}
