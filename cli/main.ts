// The resumecheck command line: fuzz, replay, targets, properties, check-store. Exit 0: nothing found;
// 1: a violation; 2: bad input (one line, no stack trace).

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { PROPERTIES, type PropertyName, isPropertyName } from '../properties/index.ts';
import { CONFIG_BOUNDS, ConfigError, DEFAULT_CONFIG, type SimConfig, resolveConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { fuzz, recordTrace } from '../sim/fuzz.ts';
import { ScriptError, scriptChoices } from '../sim/script.ts';
import { TARGETS, findTarget } from '../targets/index.ts';
import type { Target } from '../targets/target.ts';
import { readTrace, writeTrace } from '../traces/store.ts';
import { TraceFormatError, type Trace, renderSteps } from '../traces/trace.ts';
import { UsageError, parseDuration, parseWhole } from './usage-error.ts';
import { commandCheckStore } from '../check-store/command.ts';
import { moduleTargetFromName } from '../targets/module/module.target.ts';
import { TRIES_FLAG, WIRE_DEFAULT_RUNS, WIRE_FLAGS, WIRE_SHRINK_BOUNDS, asUsageError, parseTries, wireFlagsFromTargetName, prepareWire, replayTries, wireReport, wireTargetFromFlags } from './wire-options.ts';

const HELP = `resumecheck — a model checker for MCP Streamable HTTP resumability

Usage:
  resumecheck fuzz --target T | --url URL [--serve "CMD"] [--allow-remote] [--settle-ms N]
                   [--runs N | --time 30s] [--seed S] [--steps N] [--clients N] [--window N]
                   [--calls N] [--restarts N] [--shard K/N] [--property P ...] [--first] [--out DIR] [--json]
  resumecheck replay FILE [--target T | --url URL [--serve "CMD"] [--tries K]] [--json]
  resumecheck script FILE --target T [--seed S] [--out DIR] [--json]   (one action description a line)
  resumecheck targets [--json]
  resumecheck properties [--json]
  resumecheck check-store MODULE [--export NAME] [--shared] [--runs N] [--seed S] [--out DIR] [--json]
  resumecheck check-store --replay FILE        (a contract trace written by check-store)

Exit codes: 0 no violation found, 1 a violation (shrunk, printed, written), 2 bad input.
`;

/** Where found traces go unless --out says otherwise. */
export const DEFAULT_OUT = 'traces/found';
/** Runs a fuzz makes unless --runs or --time says otherwise: deterministic, and under a minute on the SDK targets. */
export const DEFAULT_RUNS = 2_000;

interface Io {
  out(line: string): void;
  err(line: string): void;
}

const processIo: Io = { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) };

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

async function commandFuzz(args: string[], io: Io): Promise<number> {
  const { values } = parse(args, {
    target: { type: 'string' },
    runs: { type: 'string' },
    time: { type: 'string' },
    seed: { type: 'string' },
    steps: { type: 'string' },
    clients: { type: 'string' },
    window: { type: 'string' },
    calls: { type: 'string' },
    restarts: { type: 'string' },
    shard: { type: 'string' },
    out: { type: 'string' },
    property: { type: 'string', multiple: true },
    first: { type: 'boolean' },
    json: { type: 'boolean' },
    ...WIRE_FLAGS,
  }, 0);
  if (values.target !== undefined && (values.url !== undefined || values.serve !== undefined)) throw new UsageError('give --target, or --url / --serve, not both');
  // A server over the wire (cli/wire-options.ts); its process is stopped when this function returns, however it does.
  await using wire = await wireTargetFromFlags(values);
  const target = wire ?? requireTarget(values.target as string | undefined);
  const requested = values.property === undefined ? undefined : (values.property as string[]).map(requireProperty);
  const properties = wire === null ? requested : await prepareWire(wire, requested);
  if (values.runs !== undefined && values.time !== undefined) throw new UsageError('give --runs or --time, not both');
  const runsMax = values.runs === undefined ? (values.time === undefined ? (wire === null ? DEFAULT_RUNS : WIRE_DEFAULT_RUNS) : Number.MAX_SAFE_INTEGER) : parseWhole(values.runs as string, '--runs', 1, 100_000_000);
  const timeMs = values.time === undefined ? null : parseDuration(values.time as string, '--time');
  const seed = (values.seed as string | undefined) ?? DEFAULT_CONFIG.seed;
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const partial: { -readonly [K in keyof SimConfig]?: SimConfig[K] } = { seed };
  if (values.steps !== undefined) partial.stepsMax = parseWhole(values.steps as string, '--steps', ...CONFIG_BOUNDS.stepsMax);
  if (values.clients !== undefined) partial.clients = parseWhole(values.clients as string, '--clients', ...CONFIG_BOUNDS.clients);
  if (values.window !== undefined) partial.windowEventsMax = parseWhole(values.window as string, '--window', ...CONFIG_BOUNDS.windowEventsMax);
  if (values.calls !== undefined) partial.callsPerSessionMax = parseWhole(values.calls as string, '--calls', ...CONFIG_BOUNDS.callsPerSessionMax);
  if (values.restarts !== undefined) partial.restartsMax = parseWhole(values.restarts as string, '--restarts', ...CONFIG_BOUNDS.restartsMax);
  const shard = values.shard === undefined ? undefined : parseShard(values.shard as string);
  const config = resolveConfig(partial);
  const out = (values.out as string | undefined) ?? DEFAULT_OUT;
  const json = values.json === true;

  if (!json) io.out(`resumecheck fuzz: target ${target.name}, seed ${seed}, ${timeMs === null ? `${runsMax} runs` : `${values.time} budget`}, up to ${config.stepsMax} steps, ${config.clients} clients, window ${config.windowEventsMax}`);
  let outcome;
  try {
    outcome = await fuzz({
      target,
      config,
      runsMax,
      timeMs,
      ...(properties === undefined ? {} : { properties }),
      ...(shard === undefined ? {} : { shard }),
      ...(wire === null ? {} : { shrinkBounds: WIRE_SHRINK_BOUNDS }),
      stopAtFirst: values.first === true,
    });
  } catch (error) {
    throw asUsageError(error);
  }
  if (wire !== null && !json) for (const line of wireReport(wire, properties)) io.out(line);
  if (outcome.findings.length === 0) {
    if (json) io.out(JSON.stringify({ target: target.name, seed, runs: outcome.runs, steps: outcome.steps, violation: null, violations: [] }));
    else io.out(`✓ no violation in ${outcome.runs} runs (${outcome.steps} steps)`);
    return 0;
  }
  const reports = outcome.findings.map((finding) => {
    const written = writeTrace(out, finding.trace);
    return { finding, path: relative(process.cwd(), written.path) || written.path };
  });
  if (json) {
    const violations = reports.map(({ finding, path }) => ({
      ...finding.trace.verdict!,
      run: finding.run,
      originalLength: finding.shrink.originalLength,
      shrunkLength: finding.trace.choices.length,
      shrinkEvaluations: finding.shrink.evaluations,
      ...(finding.flaky === true ? { flaky: true } : {}),
      trace: path,
      replay: `npx resumecheck replay ${quote(path)}`,
    }));
    io.out(JSON.stringify({ target: target.name, seed, runs: outcome.runs, steps: outcome.steps, violation: violations[0], violations }));
    return 1;
  }
  io.out(`${reports.length} ${reports.length === 1 ? 'property' : 'properties'} violated in ${outcome.runs} runs: ${reports.map(({ finding }) => finding.trace.verdict!.property).join(', ')}`);
  for (const { finding, path } of reports) {
    io.out('');
    if (finding.flaky === true) io.out(`── found in run ${finding.run} (seed ${finding.trace.seed}); FLAKY: re-running its ${finding.trace.choices.length} choices to shrink them did not violate it again (timing decided it); not shrunk`);
    else io.out(`── found in run ${finding.run} (seed ${finding.trace.seed}); shrunk from ${finding.shrink.originalLength} to ${finding.trace.choices.length} steps in ${finding.shrink.evaluations} runs`);
    printViolation(io, finding.trace, path);
  }
  return 1;
}

async function commandScript(args: string[], io: Io): Promise<number> {
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
    if (values.json === true) io.out(JSON.stringify({ file, target: target.name, steps: trace.choices.length, violation: null }));
    else {
      for (const line of renderSteps(trace.steps)) io.out(line);
      io.out(`✓ ${file}: no violation on ${target.name} (${trace.choices.length} steps and the liveness phase)`);
    }
    return 0;
  }
  const written = writeTrace((values.out as string | undefined) ?? DEFAULT_OUT, trace);
  const path = relative(process.cwd(), written.path) || written.path;
  if (values.json === true) io.out(JSON.stringify({ file, target: target.name, steps: trace.choices.length, violation: trace.verdict, trace: path }));
  else printViolation(io, trace, path);
  return 1;
}

async function commandReplay(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, { target: { type: 'string' }, json: { type: 'boolean' }, ...WIRE_FLAGS, ...TRIES_FLAG }, 1);
  const file = positionals[0];
  if (file === undefined) throw new UsageError('replay needs a trace FILE');
  const trace = readTrace(file);
  const tries = parseTries(values.tries);
  if (values.target !== undefined && (values.url !== undefined || values.serve !== undefined)) throw new UsageError('give --target, or --url / --serve, not both');
  const flagged = values.url !== undefined || values.serve !== undefined || values.target !== undefined;
  await using wire = await wireTargetFromFlags(flagged ? values : (wireFlagsFromTargetName(trace.target) ?? values));
  if (wire === null && tries !== 1) throw new UsageError('--tries goes with --url or --serve: an in-process replay is deterministic');
  if (wire !== null) return await replayOverTheWire(wire, file, trace, tries, values.json === true, io);
  const target = requireTarget((values.target as string | undefined) ?? trace.target);
  const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), {
    record: true,
    ...(trace.properties === null ? {} : { properties: trace.properties }),
  });
  const replayed: Trace = { ...trace, target: target.name, steps: result.trace ?? [], verdict: result.violation };
  const expected = trace.verdict?.property ?? null;
  const got = result.violation?.property ?? null;
  if (values.json === true) {
    io.out(JSON.stringify({ file, target: target.name, expected, violation: result.violation }));
  } else if (got === null) {
    io.out(`✓ ${file}: no violation on ${target.name}${expected === null ? '' : ` (the trace recorded ${expected}: it now holds)`}`);
  } else {
    io.out(got === expected ? `reproduced: ${got} on ${target.name}` : `a different violation on ${target.name}: ${got} (the trace recorded ${String(expected)})`);
    io.out('');
    printViolation(io, replayed, null);
  }
  return got === null ? 0 : 1;
}

/** Replays a trace against a server over the wire `tries` times and says how often its violation reproduced. */
async function replayOverTheWire(wire: NonNullable<Awaited<ReturnType<typeof wireTargetFromFlags>>>, file: string, trace: Trace, tries: number, json: boolean, io: Io): Promise<number> {
  const properties = await prepareWire(wire, trace.properties ?? undefined);
  let outcome;
  try {
    outcome = await replayTries(wire, trace, tries, properties);
  } catch (error) {
    throw asUsageError(error);
  }
  const expected = trace.verdict?.property ?? null;
  const got = outcome.last.violation?.property ?? null;
  if (json) {
    io.out(JSON.stringify({ file, target: wire.name, expected, tries, reproduced: outcome.reproduced, others: outcome.others, violation: outcome.last.violation }));
    return got === null ? 0 : 1;
  }
  const others = Object.entries(outcome.others).map(([name, count]) => `${name} ${count}×`).join(', ');
  io.out(`${expected === null ? 'the trace recorded no violation' : `${expected} reproduced in ${outcome.reproduced} of ${tries} tries`} on ${wire.name}${others === '' ? '' : `; other violations: ${others}`}`);
  for (const line of wireReport(wire, properties)) io.out(line);
  if (got !== null) {
    io.out('');
    printViolation(io, { ...trace, target: wire.name, steps: outcome.last.trace ?? [], verdict: outcome.last.violation }, null);
  }
  return got === null ? 0 : 1;
}

function commandTargets(args: string[], io: Io): number {
  const { values } = parse(args, { json: { type: 'boolean' } }, 0);
  const rows = TARGETS.map(({ name, kind, description, breaks }) => ({ name, kind, description, breaks: [...breaks] }));
  if (values.json === true) io.out(JSON.stringify(rows, null, 2));
  else for (const row of rows) io.out(`${row.name.padEnd(24)} ${row.kind.padEnd(9)} ${row.description}${row.breaks.length > 0 ? `\n${' '.repeat(35)}breaks: ${row.breaks.join(', ')}` : ''}`);
  return 0;
}

function commandProperties(args: string[], io: Io): number {
  const { values } = parse(args, { json: { type: 'boolean' } }, 0);
  const rows = PROPERTIES.map(({ name, statement, source, kind }) => ({ name, kind, statement, source }));
  if (values.json === true) io.out(JSON.stringify(rows, null, 2));
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
        return await commandFuzz(rest, io);
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
