// `resumecheck explore`: the bounded exhaustive search of sim/search/explore.ts as a command. Every choice sequence up to
// a depth, shortest first, with equal worlds merged where the target can key its state; the first counterexample
// is a shortest one, recorded and written as a trace with its replay command. Exit 0: none up to the depth
// searched; 1: one found; 2: bad input.

import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { CLIENT_PROPERTY_NAMES, type PropertyName, isPropertyName } from '../properties/names.ts';
import { findingFails, notFailingWhy } from '../properties/finding-weight.ts';
import { checkedProperties } from '../properties/index.ts';
import { monotonicMs } from '../sim/clock.ts';
import { CONFIG_BOUNDS, DEFAULT_CONFIG, EXPLORE_THREADS_MAX, PARALLEL_LEVEL_MIN, resolveConfig } from '../sim/config.ts';
import { checkProtocol, parseProtocol } from './protocol-option.ts';
import { explore, exploredProperties } from '../sim/search/explore.ts';
import { recordTrace } from '../sim/search/fuzz.ts';
import { writeTrace } from '../traces/store.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { EXPLORE_DEPTH_MAX, EXPLORE_RUNS_DEFAULT } from './commands.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { DEFAULT_OUT, checkOutDir } from './output-paths.ts';
import { printViolation, quote } from './print-violation.ts';
import { requireTarget } from './require-target.ts';
import { strictnessOf } from './parse-options.ts';
import { UsageError, parseWhole } from './usage-error.ts';
import { levelOf } from '../sim/levels/level.ts';


function rate(count: number, ms: number): string {
  return ms <= 0 ? '-' : String(Math.round((count * 1000) / ms));
}

/** Which budget stopped a search, in words. */
function budgetOf(budget: 'runs' | 'time' | 'states' | 'frontier' | 'interrupted' | null, runsMax: number): string {
  switch (budget) {
    case 'interrupted':
      return 'a signal';
    case 'states':
      return 'the distinct worlds it may remember';
    case 'frontier':
      return 'the worlds of one depth it may hold';
    case 'time':
      return 'its time';
    default:
      return `${runsMax} sequences`;
  }
}

/** Runs `resumecheck explore`; returns the exit code. */
export async function runExplore({ values }: ParsedArgs, io: Io): Promise<number> {
  if (values.target === undefined) throw new UsageError('--target is required; `resumecheck targets` lists them');
  if (values.depth === undefined) throw new UsageError(`--depth is required (1 to ${EXPLORE_DEPTH_MAX})`);
  const depthMax = parseWhole(values.depth as string, '--depth', 1, EXPLORE_DEPTH_MAX);
  const clients = values.clients === undefined ? DEFAULT_CONFIG.clients : parseWhole(values.clients as string, '--clients', ...CONFIG_BOUNDS.clients);
  const property = values.property as string | undefined;
  if (property !== undefined && !isPropertyName(property)) throw new UsageError(`unknown property ${JSON.stringify(property)}; \`resumecheck properties\` lists them`);
  const only: PropertyName | undefined = property;
  const seed = (values.seed as string | undefined) ?? DEFAULT_CONFIG.seed;
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const runsMax = values['runs-max'] === undefined ? EXPLORE_RUNS_DEFAULT : parseWhole(values['runs-max'] as string, '--runs-max', 1, 1_000_000_000);
  const reduce = values['no-reduction'] !== true;
  const threads = values.workers === undefined ? Math.min(4, availableParallelism()) : parseWhole(values.workers as string, '--workers', 1, EXPLORE_THREADS_MAX);
  const threadsFrom = values['workers-from'] === undefined ? PARALLEL_LEVEL_MIN : parseWhole(values['workers-from'] as string, '--workers-from', 1, 1_000_000_000);
  const protocol = parseProtocol(values.protocol);
  const config = resolveConfig({ seed, clients, ...(protocol === undefined ? {} : { protocol }) });
  const json = values.json === true;
  const strictness = strictnessOf(values);
  const out = (values.out as string | undefined) ?? DEFAULT_OUT;
  checkOutDir(out, '--out');
  // The target last: loading an SDK target costs a moment, and every other mistake is reported before it.
  const target = await requireTarget(values.target as string);
  if (target.kind === 'module') throw new UsageError('explore runs built-in targets; check a store module with check-store');
  if (levelOf(target) !== undefined && only !== undefined && !(CLIENT_PROPERTY_NAMES as readonly string[]).includes(only)) {
    throw new UsageError(`${target.name} is a client-level target, judged by the client properties (${CLIENT_PROPERTY_NAMES.join(', ')}); ${only} is a server property`);
  }
  checkProtocol(protocol, target);

  const started = monotonicMs();
  // A first SIGINT or SIGTERM ends the search where it stands and reports the depth it cleared; a second exits at once.
  const controller = new AbortController();
  let signalled: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled !== null) process.exit(signal === 'SIGTERM' ? 143 : 130);
    signalled = signal;
    io.err(`resumecheck: ${signal}: stopping the search; what it cleared is reported (${signal} again to exit at once)`);
    controller.abort();
  };
  if (io.signals === true) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  // The header once the handlers are in place: a signal sent on seeing it is handled.
  if (!json) {
    const level = levelOf(target) === undefined ? '' : ' (the client level: a real client against the reference server)';
    io.out(`resumecheck explore: target ${target.name}${level}, depth ${depthMax}, ${clients} ${clients === 1 ? 'client' : 'clients'}, ${only ?? 'every property but the notes'}, seed ${seed}`);
  }
  // Each depth as its search starts, on stderr (a deep one takes minutes): what a signal sent then interrupts.
  const onDepth = (depth: number, worlds: number | null): void => {
    io.err(`searching depth ${depth} of ${depthMax}${worlds === null ? '' : ` (the steps from ${worlds} ${worlds === 1 ? 'world' : 'worlds'} of depth ${depth - 1})`}`);
  };
  let outcome;
  try {
    outcome = await explore(target, config, {
      depthMax,
      runsMax,
      reduce,
      threads,
      threadsFrom,
      ...(only === undefined ? {} : { only }),
      signal: controller.signal,
      ...(json ? {} : { onDepth }),
    });
  } finally {
    if (io.signals === true) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
  const elapsedMs = monotonicMs() - started;
  const interruptedBy: NodeJS.Signals | null = outcome.budget === 'interrupted' ? signalled : null;
  const commandConfig = { target: target.name, depth: depthMax, clients, property: only ?? null, seed, protocol: config.protocol, runsMax, reduction: reduce, workers: threads, out };
  const reduction = outcome.reduction.applied
    ? `equal worlds merged${outcome.snapshots ? ', breadth first from snapshots' : ''}${outcome.independence ? ', independent actions taken in one order (sleep sets)' : ''}`
    : reduce
      ? `none (${outcome.reduction.why})`
      : 'none (--no-reduction)';
  const states = outcome.states;
  const summary = {
    target: target.name,
    depth: depthMax,
    clients,
    property: only ?? null,
    seed,
    reduction: { applied: outcome.reduction.applied, why: outcome.reduction.why, snapshots: outcome.snapshots, independence: outcome.independence },
    sequences: outcome.runs,
    sequencesDeepest: outcome.runsLastDepth,
    states,
    depthCleared: outcome.depthCleared,
    budgetSpent: outcome.budgetSpent,
    budget: outcome.budget,
    slept: outcome.slept,
    threads: outcome.threads,
    interrupted: interruptedBy,
  };
  const document = (result: Record<string, unknown>): string => JSON.stringify(jsonEnvelope('explore', commandConfig, elapsedMs, { ...summary, ...result }));
  if (!json) {
    io.out(`reduction: ${reduction}`);
    // Breadth first, the last depth's worlds are judged without being keyed: "states" counts each world judged once.
    const counted = states === null ? 'distinct states not counted without the reduction' : outcome.snapshots ? `${states} states judged (distinct ones short of depth ${depthMax}, every one at it)` : `${states} distinct states`;
    const skipped = outcome.independence ? `, ${outcome.slept} steps skipped by sleep sets` : '';
    const shared = outcome.threads > 1 ? `, each depth of ${threadsFrom} worlds or more shared out among ${outcome.threads} threads` : '';
    io.out(
      `explored: ${outcome.runs} sequences (${outcome.runsLastDepth} at the deepest ${outcome.snapshots ? 'depth' : 'search'}), ${counted}${skipped}${shared}, ${(elapsedMs / 1000).toFixed(1)} s (${states === null ? `${rate(outcome.runs, elapsedMs)} sequences/s` : `${rate(states, elapsedMs)} states/s`})`,
    );
  }
  if (outcome.choices === null) {
    const interruptedCode = interruptedBy === 'SIGTERM' ? 143 : 130;
    if (json) io.out(document({ violation: null, exitCode: outcome.budget === 'interrupted' ? interruptedCode : 0 }));
    else if (outcome.budget === 'interrupted') {
      // Breadth first, how far into the depth it got: the worlds before it whose every step was taken.
      const searched = outcome.searched === null ? '' : `the steps from ${outcome.searched.worlds} of the ${outcome.searched.of} ${outcome.searched.of === 1 ? 'world' : 'worlds'} of depth ${outcome.depthCleared} taken; `;
      io.out(`interrupted by ${interruptedBy ?? 'a signal'}: none up to depth ${outcome.depthCleared}; depth ${outcome.depthCleared + 1} of ${depthMax} was being searched (${searched}${outcome.runs} sequences${states === null ? '' : `, ${states} states`}, ${(elapsedMs / 1000).toFixed(1)} s)`);
    } else if (outcome.budgetSpent) io.out(`? budget spent (${budgetOf(outcome.budget, runsMax)}): no violation up to depth ${outcome.depthCleared}, but depth ${depthMax} was not cleared`);
    else io.out(`✓ none up to ${depthMax} steps: no sequence of up to ${depthMax} steps violates ${only ?? 'any property'}`);
    return outcome.budget === 'interrupted' ? interruptedCode : 0;
  }
  // Recorded with the search's own properties, so a note met on the way is not taken for the violation found.
  const trace = await recordTrace(target, config, outcome.choices, null, exploredProperties(target, only).properties);
  const written = writeTrace(out, trace);
  const path = relative(process.cwd(), written.path) || written.path;
  if (json) {
    const exitCode = findingFails(trace.verdict!, strictness) ? 1 : 0;
    io.out(document({ violation: { ...trace.verdict!, length: outcome.choices.length, choices: outcome.choices, trace: path, replay: `npx resumecheck replay ${quote(path)}` }, exitCode }));
    return exitCode;
  }
  io.out(`shortest counterexample: ${outcome.choices.length} steps (every shorter sequence holds)`);
  // A note (only a search for one, --property, finds it), a warning or advice below the --strict level, or a finding
  // the client's own fault triggered: written and printed, exit 0.
  const why = notFailingWhy(trace.verdict!, strictness);
  if (why !== null) io.out(`(${trace.verdict!.property} does not fail the search: ${why}; exit 0)`);
  io.out('');
  printViolation(io, trace, path);
  return findingFails(trace.verdict!, strictness) ? 1 : 0;
}
