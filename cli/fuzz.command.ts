// `resumecheck fuzz`: seeded random runs against a target; each property's first violation is shrunk, printed and
// written as a trace with the command that replays it.

import { relative } from 'node:path';
import { type PropertyName, isPropertyName } from '../properties/index.ts';
import { CONFIG_BOUNDS, DEFAULT_CONFIG, type SimConfig, resolveConfig } from '../sim/config.ts';
import { fuzz } from '../sim/fuzz.ts';
import { writeTrace } from '../traces/store.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { DEFAULT_RUNS } from './commands.ts';
import { DEFAULT_OUT, checkOutDir, checkOutFile } from './output-paths.ts';
import { printViolation, quote } from './print-violation.ts';
import { requireTarget } from './require-target.ts';
import { UsageError, parseDuration, parseWhole } from './usage-error.ts';

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

/** Runs `resumecheck fuzz`. */
export async function runFuzz({ values }: ParsedArgs, io: Io): Promise<number> {
  const properties = values.property === undefined ? undefined : (values.property as string[]).map(requireProperty);
  if (values.runs !== undefined && values.time !== undefined) throw new UsageError('give --runs or --time, not both');
  const runsMax = values.runs === undefined ? (values.time === undefined ? DEFAULT_RUNS : Number.MAX_SAFE_INTEGER) : parseWhole(values.runs as string, '--runs', 1, 100_000_000);
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
  checkOutDir(out, '--out');
  const html = values.html as string | undefined;
  if (html !== undefined) checkOutFile(html, '--html');
  // The target last: loading an SDK target costs a moment, and every other mistake is reported before it.
  const target = await requireTarget(values.target as string | undefined);
  const json = values.json === true;

  if (!json) io.out(`resumecheck fuzz: target ${target.name}, seed ${seed}, ${timeMs === null ? `${runsMax} runs` : `${values.time} budget`}, up to ${config.stepsMax} steps, ${config.clients} clients, window ${config.windowEventsMax}`);
  const outcome = await fuzz({
    target,
    config,
    runsMax,
    timeMs,
    ...(properties === undefined ? {} : { properties }),
    ...(shard === undefined ? {} : { shard }),
    stopAtFirst: values.first === true,
  });
  const summary = { target: target.name, seed, runs: outcome.runs, steps: outcome.steps };
  if (outcome.findings.length === 0) {
    if (html !== undefined) (await import('../traces/render/html.ts')).writeRunHtml([], html, summary);
    if (json) io.out(JSON.stringify({ target: target.name, seed, runs: outcome.runs, steps: outcome.steps, violation: null, violations: [] }));
    else io.out(`✓ no violation in ${outcome.runs} runs (${outcome.steps} steps)`);
    return 0;
  }
  const reports = outcome.findings.map((finding) => {
    const written = writeTrace(out, finding.trace);
    return { finding, path: relative(process.cwd(), written.path) || written.path };
  });
  // One page for the whole run, its findings' traces already written (their replay commands name them).
  if (html !== undefined) (await import('../traces/render/html.ts')).writeRunHtml(reports.map(({ finding, path }) => ({ trace: finding.trace, path, run: finding.run })), html, summary);
  if (json) {
    const violations = reports.map(({ finding, path }) => ({
      ...finding.trace.verdict!,
      run: finding.run,
      originalLength: finding.shrink.originalLength,
      shrunkLength: finding.trace.choices.length,
      shrinkEvaluations: finding.shrink.evaluations,
      trace: path,
      replay: `npx resumecheck replay ${quote(path)}`,
    }));
    io.out(JSON.stringify({ target: target.name, seed, runs: outcome.runs, steps: outcome.steps, violation: violations[0], violations }));
    return 1;
  }
  io.out(`${reports.length} ${reports.length === 1 ? 'property' : 'properties'} violated in ${outcome.runs} runs: ${reports.map(({ finding }) => finding.trace.verdict!.property).join(', ')}`);
  for (const { finding, path } of reports) {
    io.out('');
    io.out(`── found in run ${finding.run} (seed ${finding.trace.seed}); shrunk from ${finding.shrink.originalLength} to ${finding.trace.choices.length} steps in ${finding.shrink.evaluations} runs`);
    printViolation(io, finding.trace, path);
  }
  return 1;
}
