// The resumecheck command line: fuzz, replay, targets, properties, check-store. Exit 0: nothing found;
// 1: a violation; 2: bad input (one line, no stack trace).

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { PROPERTIES, type PropertyName, isPropertyName } from '../properties/index.ts';
import { ConfigError, DEFAULT_CONFIG, resolveConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { recordTrace } from '../sim/fuzz.ts';
import { sharedWallMs } from '../sim/clock.ts';
import { DEFAULT_OUT, commandFuzz } from './fuzz-command.ts';
import { jsonEnvelope } from './json-envelope.ts';
import type { ProgressSink } from './progress.ts';
import { ScriptError, scriptChoices } from '../sim/script.ts';
import { TARGETS, findTarget } from '../targets/index.ts';
import type { Target } from '../targets/target.ts';
import { readTrace, writeTrace } from '../traces/store.ts';
import { TraceFormatError, type Trace, renderSteps } from '../traces/trace.ts';
import { UsageError } from './usage-error.ts';
import { commandCheckStore } from '../check-store/command.ts';
import { moduleTargetFromName } from '../targets/module/module.target.ts';

const HELP = `resumecheck — a model checker for MCP Streamable HTTP resumability

Usage:
  resumecheck fuzz --target T [--runs N | --time 30s] [--seed S] [--steps N] [--clients N] [--window N]
                   [--calls N] [--restarts N] [--shard K/N] [--property P ...] [--first] [--out DIR] [--json]
                   [--workers N] [--summary FILE] [--junit FILE] [--min-coverage P] [--corpus DIR | --no-corpus]
  resumecheck replay FILE [--target T] [--json]
  resumecheck script FILE --target T [--seed S] [--out DIR] [--json]   (one action description a line)
  resumecheck targets [--json]
  resumecheck properties [--json]
  resumecheck check-store MODULE [--export NAME] [--shared] [--runs N] [--seed S] [--out DIR] [--json]
  resumecheck check-store --replay FILE        (a contract trace written by check-store)

Exit codes: 0 no violation found, 1 a violation (shrunk, printed, written), 2 bad input.
`;

export { DEFAULT_OUT, DEFAULT_RUNS } from './fuzz-command.ts';

interface Io {
  out(line: string): void;
  err(line: string): void;
  /** Handle SIGINT/SIGTERM and draw progress: the real process only. */
  readonly signals?: boolean;
  readonly progress?: ProgressSink;
}

const processIo: Io = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  signals: true,
  progress: process.stderr,
};

/** When the command started, for the JSON envelope's elapsedMs. */
function elapsedSince(startedMs: number): number {
  return sharedWallMs() - startedMs;
}

function parse(args: string[], options: NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>, positionals: number) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: positionals > 0, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  if (parsed.positionals.length > positionals) throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals])}`);
  return parsed;
}

function requireTarget(name: string | undefined): Target {
  if (name === undefined) throw new UsageError('--target is required; `resumecheck targets` lists them');
  // A user's store module in the SDK transport (check-store traces): module:<path>[#export][+shared].
  const moduleTarget = moduleTargetFromName(name);
  if (moduleTarget !== null) return moduleTarget;
  const target = findTarget(name);
  if (target === undefined) throw new UsageError(`unknown target ${JSON.stringify(name)}; known: ${TARGETS.map((t) => t.name).join(', ')}`);
  return target;
}

function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d{1,4})\/(\d{1,4})$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index < 1 || index > count) throw new UsageError(`--shard takes K/N with 1 <= K <= N, got ${JSON.stringify(text)}`);
  return { index, count };
}

function requireProperty(name: string): PropertyName {
  if (!isPropertyName(name)) throw new UsageError(`unknown property ${JSON.stringify(name)}; \`resumecheck properties\` lists them`);
  return name;
}

function quote(argument: string): string {
  return /^[\w./:@=-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}

function printViolation(io: Io, trace: Trace, path: string | null): void {
  const verdict = trace.verdict!;
  const property = PROPERTIES.find((candidate) => candidate.name === verdict.property)!;
  io.out(`✗ ${verdict.property} violated by ${trace.target} (${property.kind})`);
  io.out(`  must hold: ${property.statement}`);
  io.out(`  happened:  ${verdict.explanation}`);
  io.out('');
  for (const line of renderSteps(trace.steps)) io.out(line);
  io.out('');
  if (path !== null) {
    io.out(`trace written: ${path}`);
    io.out(`replay it:     npx resumecheck replay ${quote(path)}`);
  }
}

async function commandScript(args: string[], io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  const { values, positionals } = parse(args, { target: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' } }, 1);
  const file = positionals[0];
  if (file === undefined) throw new UsageError('script needs a FILE of action descriptions, one a line');
  const target = requireTarget(values.target as string | undefined);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
  // One action a line, as `resumecheck replay` prints them (the step number may stay); # starts a comment.
  const script = text
    .split('\n')
    .map((line) => line.replace(/#(?!\d).*$/, '').replace(/^\s*\d+\.\s*/, '').trim())
    .filter((line) => line !== '');
  const seed = (values.seed as string | undefined) ?? DEFAULT_CONFIG.seed;
  const config = resolveConfig({ seed });
  let result;
  try {
    result = await runSimulation(target, config, scriptChoices(script));
  } catch (error) {
    if (error instanceof ScriptError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
  const trace = await recordTrace(target, config, result.choices, null);
  if (trace.verdict === null) {
    if (values.json === true) io.out(JSON.stringify(jsonEnvelope('script', { file, target: target.name, seed }, elapsedSince(startedMs), { file, target: target.name, steps: trace.choices.length, violation: null })));
    else {
      for (const line of renderSteps(trace.steps)) io.out(line);
      io.out(`✓ ${file}: no violation on ${target.name} (${trace.choices.length} steps and the liveness phase)`);
    }
    return 0;
  }
  const written = writeTrace((values.out as string | undefined) ?? DEFAULT_OUT, trace);
  const path = relative(process.cwd(), written.path) || written.path;
  if (values.json === true) {
    io.out(JSON.stringify(jsonEnvelope('script', { file, target: target.name, seed }, elapsedSince(startedMs), { file, target: target.name, steps: trace.choices.length, violation: trace.verdict, trace: path })));
  }
  else printViolation(io, trace, path);
  return 1;
}

async function commandReplay(args: string[], io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  const { values, positionals } = parse(args, { target: { type: 'string' }, json: { type: 'boolean' } }, 1);
  const file = positionals[0];
  if (file === undefined) throw new UsageError('replay needs a trace FILE');
  const trace = readTrace(file);
  const target = requireTarget((values.target as string | undefined) ?? trace.target);
  const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), {
    record: true,
    ...(trace.properties === null ? {} : { properties: trace.properties }),
  });
  const replayed: Trace = { ...trace, target: target.name, steps: result.trace ?? [], verdict: result.violation };
  const expected = trace.verdict?.property ?? null;
  const got = result.violation?.property ?? null;
  if (values.json === true) {
    io.out(JSON.stringify(jsonEnvelope('replay', { file, target: target.name }, elapsedSince(startedMs), { file, target: target.name, expected, violation: result.violation })));
  } else if (got === null) {
    io.out(`✓ ${file}: no violation on ${target.name}${expected === null ? '' : ` (the trace recorded ${expected}: it now holds)`}`);
  } else {
    io.out(got === expected ? `reproduced: ${got} on ${target.name}` : `a different violation on ${target.name}: ${got} (the trace recorded ${String(expected)})`);
    io.out('');
    printViolation(io, replayed, null);
  }
  return got === null ? 0 : 1;
}

function commandTargets(args: string[], io: Io): number {
  const startedMs = sharedWallMs();
  const { values } = parse(args, { json: { type: 'boolean' } }, 0);
  const rows = TARGETS.map(({ name, kind, description, breaks }) => ({ name, kind, description, breaks: [...breaks] }));
  if (values.json === true) io.out(JSON.stringify(jsonEnvelope('targets', {}, elapsedSince(startedMs), { targets: rows }), null, 2));
  else for (const row of rows) io.out(`${row.name.padEnd(24)} ${row.kind.padEnd(9)} ${row.description}${row.breaks.length > 0 ? `\n${' '.repeat(35)}breaks: ${row.breaks.join(', ')}` : ''}`);
  return 0;
}

function commandProperties(args: string[], io: Io): number {
  const startedMs = sharedWallMs();
  const { values } = parse(args, { json: { type: 'boolean' } }, 0);
  const rows = PROPERTIES.map(({ name, statement, source, kind }) => ({ name, kind, statement, source }));
  if (values.json === true) io.out(JSON.stringify(jsonEnvelope('properties', {}, elapsedSince(startedMs), { properties: rows }), null, 2));
  else for (const row of rows) io.out(`${row.name.padEnd(26)} ${row.kind.padEnd(8)} ${row.statement}\n${' '.repeat(36)}source: ${row.source}`);
  return 0;
}

/** Runs the CLI; returns the exit code. Bad input prints one line on stderr and returns 2. */
export async function main(args: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case undefined:
        throw new UsageError('no command given; try resumecheck --help');
      case 'help':
      case '--help':
      case '-h':
        io.out(HELP);
        return 0;
      case 'fuzz':
        return await commandFuzz(rest, io, { parse, requireTarget, requireProperty, parseShard, quote, printViolation });
      case 'replay':
        return await commandReplay(rest, io);
      case 'targets':
        return commandTargets(rest, io);
      case 'properties':
        return commandProperties(rest, io);
      case 'script':
        return await commandScript(rest, io);
      case 'check-store':
        return await commandCheckStore(rest, io);
      default:
        throw new UsageError(`unknown command ${JSON.stringify(command)}; try resumecheck --help`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof TraceFormatError || error instanceof ConfigError) {
      io.err(`resumecheck: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
