// Parsing a command's arguments against its spec, with the messages a person can act on: an unknown option names the
// command's help, a missing value says so, a negative number reaches the option's own check (instead of
// node:util's "argument is ambiguous"), and an option given twice is refused rather than silently taking the last.

import { parseArgs } from 'node:util';
import { DEFAULT_STRICTNESS, STRICTNESSES, type Strictness } from '../properties/severity.ts';
import type { CommandSpec, OptionSpec, ParsedArgs } from './command-spec.ts';
import { UsageError } from './usage-error.ts';

/** True when `args` ask for the command's help (`--help` or `-h` before any `--`). */
export function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** `--runs -5` → `--runs=-5`: a value that looks like a negative number belongs to the string option before it. */
function attachNegativeValues(command: CommandSpec, args: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') {
      joined.push(...args.slice(index));
      break;
    }
    const next = args[index + 1];
    const spec = arg.startsWith('--') ? command.options[arg.slice(2)] : undefined;
    // `--strict` alone means `--strict=warning`; `--strict advice` is `--strict=advice`.
    if (spec?.bareValue !== undefined) {
      const joinsNext = next !== undefined && spec.bareChoices?.includes(next) === true;
      joined.push(`${arg}=${joinsNext ? next : spec.bareValue}`);
      if (joinsNext) index += 1;
      continue;
    }
    if (spec?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

function explain(command: CommandSpec, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException).code;
  const option = /'(-{1,2}[^'\s<=]+)/.exec(message)?.[1] ?? 'an option';
  const help = `resumecheck ${command.name} --help lists its options`;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `${command.name} has no option ${option}; ${help}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/does not take an argument/.test(message)) return `${option} takes no value`;
    if (/ambiguous/.test(message)) return `${option} needs a value (one that starts with '-' is written ${option}=VALUE)`;
    return `${option} needs a value`;
  }
  return message.split('\n')[0] ?? message;
}

/** Parses `args` for `command`; bad input throws a UsageError with one line. */
export function parseCommandArgs(command: CommandSpec, args: readonly string[]): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(command.options).map(([name, spec]) => [name, { type: spec.type, ...(spec.multiple === true ? { multiple: true } : {}) }]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args: attachNegativeValues(command, args), options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(explain(command, error));
  }
  const given = new Map<string, string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || command.options[token.name]?.multiple === true) continue;
    const shown = token.value === undefined ? token.rawName : `${token.rawName} ${JSON.stringify(token.value)}`;
    const first = given.get(token.name);
    if (first !== undefined) throw new UsageError(`--${token.name} is given twice (${first}, then ${shown}); give it once`);
    given.set(token.name, shown);
  }
  if (parsed.positionals.length > command.positionals.length && command.positionals.at(-1)?.repeated !== true) {
    const extra = parsed.positionals[command.positionals.length]!;
    throw new UsageError(`unexpected argument ${JSON.stringify(extra)}; usage: resumecheck ${command.name} ${command.usage[0] ?? ''}`.trimEnd());
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

/**
 * `--strict[=LEVEL]`, every command's: which findings fail the run besides failures. Bare, it is `--strict=warning`;
 * `--strict=advice` adds advice too. Notes, and findings a client's own fault triggered, never fail a run.
 */
export const STRICT_OPTION: OptionSpec = {
  type: 'string',
  value: 'LEVEL',
  bareValue: 'warning',
  bareChoices: STRICTNESSES,
  help: "also fail on warnings (an MCP SHOULD): --strict or --strict=warning; on advice too (a MAY, a seed's advice, a design rule): --strict=advice (default: failures only, an MCP MUST)",
};

/** The strictness `--strict` gives (properties/severity.ts); bad input is a UsageError with one line. */
export function strictnessOf(values: ParsedArgs['values']): Strictness {
  const value = values['strict'];
  if (value === undefined) return DEFAULT_STRICTNESS;
  if (typeof value === 'string' && (STRICTNESSES as readonly string[]).includes(value)) return value as Strictness;
  throw new UsageError(`--strict takes warning or advice (or failure, the default), not ${JSON.stringify(value)}`);
}
