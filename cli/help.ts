// The help texts, made from the table of commands: `resumecheck --help` lists the commands, `resumecheck CMD --help`
// shows one command's usage, positionals, options (with their defaults) and notes.

import type { CommandSpec } from './command-spec.ts';

const EXIT_CODES =
  'Exit codes: 0 nothing found that fails the run, 1 a finding that fails it (shrunk, printed, written), 2 bad input (one line on stderr). ' +
  'A finding fails the run by its severity: a failure (an MCP MUST) always; a warning (an MCP SHOULD) with --strict; advice (a MAY, a ' +
  "seed's advice, resumecheck's own design rule) with --strict=advice; a note (what the revision permits) never, nor a finding " +
  "triggered by the client's own fault (a request ID reused while in flight). Every finding is found, shrunk, written and printed whatever its severity.";

/** `resumecheck --help`. */
export function renderOverview(commands: readonly CommandSpec[], version: string): string[] {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `resumecheck ${version} — a model checker for MCP Streamable HTTP resumability`,
    '',
    'Usage: resumecheck COMMAND [options]      resumecheck COMMAND --help for its options',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    '  --version  the version; --help  this help',
    '',
    EXIT_CODES,
  ];
}

/** `resumecheck CMD --help`. */
export function renderCommandHelp(command: CommandSpec): string[] {
  const rows: Array<[string, string]> = [
    ...command.positionals.map((positional): [string, string] => [positional.name, positional.help]),
    ...Object.entries(command.options).map(([name, spec]): [string, string] => [
      `--${name}${spec.value === undefined ? '' : spec.bareValue === undefined ? ` ${spec.value}` : `[=${spec.value}]`}${spec.multiple === true ? ' ...' : ''}`,
      spec.help,
    ]),
    ['-h, --help', 'this help'],
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  const lines = [`resumecheck ${command.name} — ${command.summary}`, '', 'Usage:'];
  for (const usage of command.usage) lines.push(`  resumecheck ${command.name} ${usage}`.trimEnd());
  lines.push('', 'Arguments and options:');
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(width)}  ${right}`);
  for (const note of command.notes) lines.push('', note);
  lines.push('', command.exitCodes ?? EXIT_CODES);
  return lines;
}
