// What a command of the CLI is, as data: its name, its help, its options and positionals, and how to load the code
// that runs it. The router (main.ts) parses, checks and prints help from this alone, so `--help` loads nothing heavy.

import type { ProgressSink } from './progress.ts';

/** Where a command writes lines. */
export interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Handle SIGINT and SIGTERM (the real process does; a test calling main() in-process does not). */
  readonly signals?: boolean;
  /** Where a progress line may be drawn (only when it is a TTY). */
  readonly progress?: ProgressSink;
}

/** One option of a command. `--help`/`-h` is every command's and is not listed here. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** May be given more than once (collected into an array); every other option given twice is bad input. */
  readonly multiple?: boolean;
  /** The value's placeholder in the help, e.g. `N`, `DIR`. */
  readonly value?: string;
  /**
   * A string option that may also be given bare (`--strict`), meaning this value (`--strict=warning`); its value is
   * then written `--NAME=VALUE`, or as the next argument when that is one of `bareChoices`.
   */
  readonly bareValue?: string;
  /** The values a bare-capable option takes as a separate argument (`--strict advice`). */
  readonly bareChoices?: readonly string[];
  /** One line for the help. */
  readonly help: string;
}

/** A positional argument. */
export interface PositionalSpec {
  readonly name: string;
  readonly help: string;
  /** The last positional only: it takes every argument left (`PATH...`). */
  readonly repeated?: boolean;
}

/** The arguments of a command once parsed and checked: known options, each at most once, and the positionals. */
export interface ParsedArgs {
  readonly values: Readonly<Record<string, string | boolean | string[] | undefined>>;
  readonly positionals: readonly string[];
}

/** The code that runs a command; returns the exit code (0 nothing found, 1 a violation) or throws a UsageError. */
export type CommandRun = (args: ParsedArgs, io: Io) => number | Promise<number>;

/** One command: an entry in the CLI's table of commands. */
export interface CommandSpec {
  readonly name: string;
  /** One line for `resumecheck --help`. */
  readonly summary: string;
  /** The usage lines after `resumecheck NAME`, e.g. `--target T [options]`. */
  readonly usage: readonly string[];
  readonly positionals: readonly PositionalSpec[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Paragraphs printed after the options. */
  readonly notes: readonly string[];
  /** The exit codes this command uses, as its help states them (default: the overview's 0, 1, 2). */
  readonly exitCodes?: string;
  /** Imports the command's code: only when it runs. */
  load(): Promise<CommandRun>;
}
