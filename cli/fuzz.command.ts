// `resumecheck fuzz`: stored counterexamples replayed first, then the search (in worker threads when asked),
// each counterexample written the moment it is found and replaced by its shrunk form, a progress line on a
// terminal, a summary (JSON) and a JUnit file for CI, coverage, and SIGINT/SIGTERM ending the run cleanly.

import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, relative } from 'node:path';
import { FAILING_PROPERTY_NAMES, PROPERTIES, PROPERTY_NAMES, type PropertyName, isPropertyName } from '../properties/index.ts';
import { CLIENT_PROPERTIES } from '../properties/clients/index.ts';
import { CLIENT_PROPERTY_NAMES } from '../properties/names.ts';
import { describeClientFault } from '../properties/client-fault.ts';
import { findingFails, severityOf } from '../properties/finding-weight.ts';
import { SEVERITY_LABELS, type Severity, type Strictness, failsAt, severityMark, strictFlag } from '../properties/severity.ts';
import { type Attribution, attributeFinding } from '../sim/shrink/attribution.ts';
import { sharedWallMs } from '../sim/clock.ts';
import { CONFIG_BOUNDS, DEFAULT_CONFIG, PER_PROPERTY_DEFAULT, PER_PROPERTY_MAX, type SimConfig, resolveConfig } from '../sim/config.ts';
import { type CoverageReport, coverageReport, renderCoverage } from '../sim/coverage.ts';
import { type ExampleReplay, loadExamples, regressionsByKey, replayExamples } from '../sim/search/failing-examples.ts';
import { findingKey } from '../sim/signature.ts';
import type { Violation } from '../sim/world.ts';
import { type Finding, type FuzzOutcome, WORKERS_MAX, fuzz, runSeed } from '../sim/search/fuzz.ts';
import type { ComponentRole, Target } from '../targets/target.ts';
import { readTrace, writeFileAtomically, writeTrace } from '../traces/store.ts';
import { replayCommand } from '../traces/trace-execution.ts';
import type { Trace } from '../traces/trace.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { DEFAULT_RUNS, WIRE_DEFAULT_RUNS } from './commands.ts';
import { jsonEnvelope } from './json-envelope.ts';
import { type JunitCase, junitXml } from './junit.ts';
import { DEFAULT_OUT, checkDistinctOutputs, checkOutDir, checkOutFile, checkTraceDir } from './output-paths.ts';
import { chargedLine, printStoredViolation, printViolation, quote } from './print-violation.ts';
import { createProgress } from './progress.ts';
import { targetFromFlags } from './require-target.ts';
import { checkProtocol, parseProtocol } from './protocol-option.ts';
import { strictnessOf } from './parse-options.ts';
import { UsageError, parseDuration, parseWhole } from './usage-error.ts';
import { WIRE_SHRINK_BOUNDS, asUsageError, isServerFault, prepareWire, wireReport } from './wire-options.ts';
import { levelOf } from '../sim/levels/level.ts';

/** Exit status of a fuzz whose server over the wire failed mid-run (crashed, stopped answering) with no violation found. */
export const SERVER_FAULT_EXIT = 3;

/** Where kept counterexamples are replayed from before a fuzz, unless --corpus says otherwise. */
export const DEFAULT_CORPUS = 'traces/corpus';

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

/**
 * Workers when --workers is not given: one per core (up to 4) for targets whose runs are slow (the SDK and store
 * modules: milliseconds a run), one for the in-process targets, whose runs take microseconds, so that starting
 * a worker (loading the simulator again, about a second) costs more than it saves at the default run count.
 */
export function defaultWorkers(target: Target): number {
  return target.kind === 'sdk' || target.kind === 'module' ? Math.min(4, availableParallelism()) : 1;
}

function parseMinCoverage(text: string): number {
  const match = /^(\d{1,3}(?:\.\d{1,2})?)%?$/.exec(text.trim());
  const value = Number(match?.[1]);
  if (match === null || value > 100) throw new UsageError(`--min-coverage takes a percentage from 0 to 100, got ${JSON.stringify(text)}`);
  return value;
}

/**
 * Workers for a fuzz: none but this thread over the wire (a worker finds its target by name, and runs against one
 * server must not overlap), else as asked or {@link defaultWorkers}.
 */
function workersFor(target: Target, wire: boolean, given: number | null): number {
  if (!wire) return given ?? defaultWorkers(target);
  if (given !== null && given > 1) throw new UsageError('--workers goes with --target: runs over the wire are made one at a time, in this thread');
  return 1;
}

/** One finding as the summary, --json and JUnit report it. */
interface FindingReport {
  readonly property: PropertyName;
  /** How it happened (sim/signature.ts), telling it from the property's other findings; null for a trace without one. */
  readonly signature: string | null;
  readonly kind: 'safety' | 'liveness';
  readonly step: number;
  readonly explanation: string;
  readonly run: number;
  readonly runSeed: string;
  readonly originalLength: number;
  readonly shrunkLength: number;
  readonly shrunk: boolean;
  /** Not shrunk because it fails nothing: over the wire only what fails the run is shrunk (unless --shrink-all). */
  readonly passedOver: boolean;
  readonly shrinkEvaluations: number;
  /** The budget (--time) or a signal ended the shrink before its bounds: a shorter sequence may exist. */
  readonly shrinkCutShort: boolean;
  /** The run violated the property and re-running its choices did not (over the wire: timing decided it); not shrunk. */
  readonly flaky: boolean;
  /** True when a stored trace that still fails covers this property: that file is reported, nothing new written. */
  readonly known: boolean;
  readonly trace: string;
  readonly replay: string;
  /** Its property's severity (properties/severity.ts). */
  readonly severity: Severity;
  /** Set when the client's own fault triggered it ("the client broke MUST NOT … at step k"): it fails nothing. */
  readonly triggeredBy: string | null;
  /** True when it fails the run at the command's strictness. */
  readonly fails: boolean;
  /**
   * On a target assembled from components (an SDK target): the component it is charged to, decided by replaying it
   * with a correct store or router in place (sim/shrink/attribution.ts); null on a target that is one system.
   */
  readonly component: { readonly charged: readonly ComponentRole[]; readonly name: string; readonly evidence: string } | null;
}

/** Runs `resumecheck fuzz`. */
export async function runFuzz({ values }: ParsedArgs, io: Io): Promise<number> {
  const startedMs = sharedWallMs();
  const requested = values['property'] === undefined ? undefined : (values['property'] as string[]).map(requireProperty);
  const overTheWire = values['url'] !== undefined || values['serve'] !== undefined || values['serve-node'] !== undefined;
  if (values['target'] !== undefined && overTheWire) throw new UsageError('give --target, or --url / --serve / --serve-node, not both');
  if (values['runs'] !== undefined && values['time'] !== undefined) throw new UsageError('give --runs or --time, not both');
  const defaultRuns = overTheWire ? WIRE_DEFAULT_RUNS : DEFAULT_RUNS;
  const runsMax = values['runs'] === undefined ? (values['time'] === undefined ? defaultRuns : Number.MAX_SAFE_INTEGER) : parseWhole(values['runs'] as string, '--runs', 1, 100_000_000);
  const timeMs = values['time'] === undefined ? null : parseDuration(values['time'] as string, '--time');
  const seed = (values['seed'] as string | undefined) ?? DEFAULT_CONFIG.seed;
  if (!/^[\w.:-]{1,64}$/.test(seed)) throw new UsageError('--seed takes 1 to 64 letters, digits or . : _ -');
  const partial: { -readonly [K in keyof SimConfig]?: SimConfig[K] } = { seed };
  const whole = (flag: string, key: 'stepsMax' | 'clients' | 'windowEventsMax' | 'callsPerSessionMax' | 'restartsMax'): void => {
    const text = values[flag] as string | undefined;
    const [least, most] = CONFIG_BOUNDS[key];
    if (text !== undefined) partial[key] = parseWhole(text, `--${flag}`, least, most);
  };
  whole('steps', 'stepsMax');
  whole('clients', 'clients');
  whole('window', 'windowEventsMax');
  whole('calls', 'callsPerSessionMax');
  whole('restarts', 'restartsMax');
  const protocol = parseProtocol(values['protocol']);
  if (protocol !== undefined) partial.protocol = protocol;
  // A server over the wire is a black box of unknown make: its header checks are always part of what is judged.
  if (values['version-faults'] === true || overTheWire) partial.versionFaults = true;
  const shard = values['shard'] === undefined ? undefined : parseShard(values['shard'] as string);
  const workersGiven = values['workers'] === undefined ? null : parseWhole(values['workers'] as string, '--workers', 1, WORKERS_MAX);
  const perProperty = values['per-property'] === undefined ? PER_PROPERTY_DEFAULT : parseWhole(values['per-property'] as string, '--per-property', 1, PER_PROPERTY_MAX);
  const minCoverage = values['min-coverage'] === undefined ? null : parseMinCoverage(values['min-coverage'] as string);
  const strictness = strictnessOf(values);
  const summaryPath = values['summary'] as string | undefined;
  const junitPath = values['junit'] as string | undefined;
  if (summaryPath !== undefined) checkOutFile(summaryPath, '--summary');
  if (junitPath !== undefined) checkOutFile(junitPath, '--junit');
  const htmlPath = values['html'] as string | undefined;
  if (htmlPath !== undefined) checkOutFile(htmlPath, '--html');
  checkDistinctOutputs([['--summary', summaryPath], ['--junit', junitPath], ['--html', htmlPath]]);
  if (values['corpus'] !== undefined && values['no-corpus'] === true) throw new UsageError('give --corpus or --no-corpus, not both');
  if (values['corpus'] !== undefined) checkTraceDir(values['corpus'] as string, '--corpus');
  if (values['shrink-all'] === true && !overTheWire) throw new UsageError('--shrink-all is for a server over the wire (--url, --serve, --serve-node): a simulated target shrinks every finding');
  const config = resolveConfig(partial);
  const out = (values['out'] as string | undefined) ?? DEFAULT_OUT;
  checkOutDir(out, '--out');
  // The target last: loading an SDK target costs a moment, and every other mistake is reported before it.
  // A server over the wire (cli/wire-options.ts) is stopped when this function returns, however it does.
  // Every form of target (built-in, module, deployed on nodes, served, remote) through the one resolver.
  const chosen = await targetFromFlags(values);
  await using wire = chosen.wire;
  const target = chosen.target;
  const workers = workersFor(target, wire !== null, workersGiven);
  // Over the wire the server is started and asked for its eras and its probe tools now; without them only some
  // properties are judged. Its eras are known only then, so the protocol is checked after.
  const properties = wire === null ? requested : await prepareWire(wire, requested, config.restartsMax > 0);
  const protocolScope = checkProtocol(protocol, target);
  const corpus = values['no-corpus'] === true ? null : ((values['corpus'] as string | undefined) ?? DEFAULT_CORPUS);
  const json = values['json'] === true;
  const stopAtFirst = values['first'] === true;
  // --first stops at the first violation: a note (what its revision permits) is none, and is not searched for unless
  // named with --property (on a 2026-07-28 target it would otherwise be the first finding of almost every run).
  const searched = properties ?? (stopAtFirst && levelOf(target) === undefined ? FAILING_PROPERTY_NAMES : undefined);
  // A target at another level (a client target) is judged by that level's properties.
  const checked: readonly PropertyName[] = searched ?? (levelOf(target) === undefined ? PROPERTY_NAMES : CLIENT_PROPERTY_NAMES);
  const shown = (path: string): string => relative(process.cwd(), path) || path;
  const commandConfig = {
    target: target.name,
    seed,
    runsMax: timeMs === null ? runsMax : null,
    timeMs,
    shard: shard ?? null,
    workers,
    properties: properties ?? null,
    first: stopAtFirst,
    perProperty,
    out,
    corpus,
    minCoverage,
    sim: config,
    wire: wire === null ? null : { url: wire.url.href, serve: (values['serve'] as string | undefined) ?? (values['serve-node'] as string | undefined) ?? null, nodes: wire.nodeUrls.length, allowRemote: values['allow-remote'] === true, settleMs: wire.timing.quietMs },
  };

  // A first signal ends the fuzz (findings kept, summary written); a second one exits at once.
  const controller = new AbortController();
  /** What a server over the wire did when it failed mid-run, or null. */
  let serverFault: string | null = null;
  let signalled: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (signalled !== null) process.exit(signal === 'SIGTERM' ? 143 : 130);
    signalled = signal;
    io.err(`resumecheck: ${signal}: stopping; what was found is kept (${signal} again to exit at once)`);
    controller.abort();
  };
  if (io.signals === true) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  // Over the wire a run takes seconds: a stop cuts the one under way off at its next operation.
  wire?.interruptOn(controller.signal);
  const progress = json ? null : createProgress(io.progress ?? {
    write: () => undefined,
  });
  try {
    if (!json) {
      const budget = timeMs === null ? `${runsMax} runs` : `${values['time'] as string} budget`;
      io.out(`resumecheck fuzz: target ${target.name}, seed ${seed}, ${budget}, up to ${config.stepsMax} steps, ${config.clients} clients, window ${config.windowEventsMax}${workers > 1 ? `, ${workers} workers` : ''}${protocol === undefined ? '' : `, protocol ${protocol}`}`);
      if (protocolScope !== null) io.out(protocolScope);
    }

    // The failing-example database: what is stored for this target is replayed before anything is searched.
    const directories = [...(corpus === null ? [] : [corpus]), out];
    const { examples, skipped, executingElsewhere } = loadExamples(directories, target.name);
    const replays = await replayExamples(target, examples).catch((error: unknown) => {
      throw asUsageError(error);
    });
    const regressions = new Map([...regressionsByKey(replays)].filter(([, replay]) => checked.includes(replay.violation.property)));
    if (!json) {
      for (const entry of skipped) io.err(`resumecheck: skipped ${shown(entry.file)}: ${entry.reason}`);
      // A trace is data: one naming a command or a module of another target is never run, and one line says so.
      if (executingElsewhere.length > 0) {
        const count = executingElsewhere.length;
        io.err(`resumecheck: not replayed: ${count} stored ${count === 1 ? 'trace names' : 'traces name'} a command or a module to run (serve:CMD, module:PATH) other than ${target.name}; only the command line chooses what runs`);
      }
      if (examples.length > 0) {
        const failing = replays.filter((replay) => replay.violation !== null).length;
        io.out(`replayed ${examples.length} stored ${examples.length === 1 ? 'trace' : 'traces'} of ${target.name} from ${directories.join(', ')}: ${failing} still ${failing === 1 ? 'fails' : 'fail'}`);
        for (const replay of regressions.values()) io.out(`  ✗ ${replay.violation.property}: ${shown(replay.file)} still fails`);
      }
    }

    // By finding key (sim/signature.ts): a property may have several counterexamples, each of its own signature.
    const rawPaths = new Map<string, string>();
    const finalPaths = new Map<string, string>();
    const write = (trace: Trace): string => {
      try {
        return writeTrace(out, trace).path;
      } catch (error) {
        throw new UsageError(`cannot write a trace into ${out} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
    };
    const outcome = await fuzz({
      target,
      config,
      runsMax,
      timeMs,
      startedMs,
      ...(searched === undefined ? {} : { properties: searched }),
      ...(wire === null ? {} : { shrinkBounds: WIRE_SHRINK_BOUNDS }),
      // Over the wire each shrink candidate is a whole run against a real server (seconds): only what fails the run is
      // shrunk unless --shrink-all; advice, and findings a client's fault triggered, are kept as found.
      ...(wire !== null && values['shrink-all'] !== true ? { shrinkIf: (violation: Violation) => findingFails(violation, strictness) } : {}),
      ...(shard === undefined ? {} : { shard }),
      stopAtFirst,
      perProperty,
      workers,
      // A user's module runs only in worker threads: whatever it does to its thread, this one gives the verdict (a
      // server over the wire runs in its own process already).
      contained: target.kind === 'module' && wire === null,
      coverage: true,
      known: new Set(regressions.keys()),
      signal: controller.signal,
      onDiscovery: ({ run, trace }) => {
        // Written at once, unshrunk: a run that is stopped or killed later keeps it.
        const path = write(trace);
        rawPaths.set(findingKey(trace.verdict!), path);
        progress?.clear();
        if (!json) io.out(`found ${trace.verdict!.property} in run ${run} (${trace.choices.length} steps); written unshrunk: ${shown(path)}`);
      },
      onFinding: (finding) => {
        const key = findingKey(finding.original.violation!);
        if (regressions.has(key)) return;
        const path = write(finding.trace);
        finalPaths.set(key, path);
        const raw = rawPaths.get(key);
        // The shrunk trace replaces the unshrunk one (named by its content, so a different file).
        if (raw !== undefined && raw !== path) rmSync(raw, { force: true });
      },
      ...(progress === null ? {} : { onProgress: (state) => progress.update(state) }),
      // A server over the wire that fails mid-run (it exits, it stops answering) ends the fuzz with what was done:
      // the findings so far, and the summary, JUnit and page written; no violation then exits 3, not "bad input".
      ...(wire === null
        ? {}
        : {
            onRunError: (error: unknown) => {
              if (signalled !== null) return true;
              if (!isServerFault(error)) return false;
              serverFault ??= (error as Error).message;
              return true;
            },
          }),
    }).catch(async (error: unknown) => {
      // A user's module that took its worker thread down (process.exit, a throw from its timer): the verdict, one line.
      const { ContainedFailure } = await import('../sim/search/fuzz-workers.ts');
      if (error instanceof ContainedFailure) return error;
      // A server over the wire that fails mid-run (it exits, it stops answering) is bad input, one line, exit 2.
      throw asUsageError(error);
    });
    progress?.clear();
    if (outcome instanceof Error) {
      const verdict = `✗ ${outcome.message}`;
      if (summaryPath !== undefined) {
        writeReport(summaryPath, '--summary', `${JSON.stringify(jsonEnvelope('fuzz', commandConfig, sharedWallMs() - startedMs, { target: target.name, seed, exitCode: 1, contained: outcome.message, violations: [] }), null, 2)}\n`);
      }
      io.out(json ? JSON.stringify(jsonEnvelope('fuzz', commandConfig, sharedWallMs() - startedMs, { target: target.name, seed, exitCode: 1, contained: outcome.message, violations: [] })) : verdict);
      return 1;
    }
    if (wire !== null && !json) for (const line of wireReport(wire, properties)) io.out(line);

    // Each finding of an assembled target charged to a component, by replaying it (a few runs each, in this thread).
    const attributions: (Attribution | null)[] = [];
    for (const finding of outcome.findings) {
      // A known finding is shown by its stored counterexample, so that is the one charged.
      const known = regressions.get(findingKey(finding.original.violation!));
      const shown = known === undefined ? finding.trace : readTrace(known.file);
      const verdict = shown.verdict ?? finding.trace.verdict!;
      attributions.push(finding.flaky === true ? null : await attributeFinding(target, { config: shown.config, choices: shown.choices, verdict }));
    }
    const reports: FindingReport[] = outcome.findings.map((finding, index) => {
      const verdict = finding.trace.verdict!;
      const attribution = attributions[index] ?? null;
      const key = findingKey(finding.original.violation!);
      const known = regressions.get(key);
      const path = shown(known?.file ?? finalPaths.get(key) ?? rawPaths.get(key) ?? '');
      return {
        property: verdict.property,
        signature: verdict.signature ?? null,
        kind: kindOf(verdict.property),
        step: verdict.step,
        explanation: verdict.explanation,
        run: finding.run,
        runSeed: runSeed(seed, finding.run),
        originalLength: finding.shrink.originalLength,
        shrunkLength: finding.trace.choices.length,
        shrunk: finding.shrunk,
        passedOver: finding.passedOver === true,
        shrinkEvaluations: finding.shrink.evaluations,
        shrinkCutShort: finding.shrunk && finding.shrink.cutShort === true,
        flaky: finding.flaky === true,
        known: known !== undefined,
        trace: path,
        replay: replayCommand(path, target.name),
        severity: severityOf(verdict.property),
        triggeredBy: verdict.triggeredBy === undefined ? null : describeClientFault(verdict.triggeredBy),
        fails: findingFails(verdict, strictness),
        component: attribution === null ? null : { charged: attribution.charged, name: attribution.component, evidence: attribution.evidence },
      };
    });
    // A stored trace still failing for a property the search did not hit is a failure all the same.
    const regressionReports = [...regressions].map(([key, replay]) => regressionReport(key, replay, shown, target.name, strictness));
    const coverage = outcome.coverage === null ? null : coverageReport(outcome.coverage);
    const belowCoverage = minCoverage !== null && coverage !== null && coverage.percent < minCoverage;
    // Whether "no call was answered" stops a pass: only where nothing else gives the verdict (nothing found, nothing
    // still failing, no server fault, no signal), and not when --min-coverage sets a gate of its own (0 lifts it).
    const callsGate = minCoverage === null && reports.length === 0 && regressions.size === 0 && serverFault === null && signalled === null;
    const unjudged = unjudgedBecause(coverage, callsGate);
    // Each finding fails the run by its severity at the --strict level; a note, or one a client's fault triggered, never.
    // A deployment that could not be judged (no session survived) is no violation either, but no pass: exit 1, as a
    // coverage below --min-coverage.
    const failed =
      reports.some((report) => report.fails) ||
      [...regressions.values()].some((replay) => findingFails(replay.violation, strictness)) ||
      belowCoverage ||
      unjudged !== null;
    const code = failed ? 1 : signalled !== null ? (signalled === 'SIGTERM' ? 143 : 130) : serverFault !== null ? SERVER_FAULT_EXIT : 0;
    // What the verdict line says when nothing was found: a server that failed mid-run got no pass (its exit code, 3,
    // stays the server fault's), whatever the runs before it held.
    const unjudgedShown = unjudged ?? (serverFault === null ? null : `the server failed mid-run (above), so the fuzz judged only the runs before it`);
    const elapsedMs = sharedWallMs() - startedMs;
    const document = jsonEnvelope('fuzz', commandConfig, elapsedMs, {
      target: target.name,
      seed,
      seeds: { fuzz: seed, perRun: `${seed}.N for run N`, shard: shard ?? null },
      runs: outcome.runs,
      steps: outcome.steps,
      interrupted: signalled,
      serverFault,
      exitCode: code,
      coverage,
      coverageBelowMinimum: belowCoverage,
      unjudged,
      regressions: regressionReports,
      replayed: replays.map((replay) => ({ file: shown(replay.file), recorded: replay.recorded, violation: replay.violation?.property ?? null })),
      violation: reports[0] ?? null,
      // Each with its property's severity and whether it fails the run at this strictness (a note never does).
      strictness,
      violations: reports,
      wire: wire === null ? null : { probe: wire.probe, echo: wire.echo, unsupported: wire.unsupported(), judged: properties ?? null, settles: { ...wire.stats } },
    });
    if (summaryPath !== undefined) writeReport(summaryPath, '--summary', `${JSON.stringify(document, null, 2)}\n`);
    if (junitPath !== undefined) writeReport(junitPath, '--junit', junitXml({ target: target.name, elapsedMs, cases: junitCases(checked, reports, regressionReports, strictness) }));
    if (htmlPath !== undefined) {
      // One page for the whole run, its findings' traces already written (their replay commands name them).
      const pageFindings = outcome.findings.map((finding, index) => ({ trace: finding.trace, path: reports[index]!.trace, run: finding.run }));
      (await import('../traces/render/html.ts')).writeRunHtml(pageFindings, htmlPath, { target: target.name, seed, runs: outcome.runs, steps: outcome.steps, verdict: verdictLine(outcome, reports, strictness, unjudgedShown), failed: code !== 0 });
    }
    if (json) {
      io.out(JSON.stringify(document));
      return code;
    }
    if (serverFault !== null) io.out(`✗ the server failed mid-run, so the fuzz ended after ${outcome.runs} runs, what was found kept: ${serverFault}`);
    printOutcome(io, { outcome, reports, regressions: regressionReports, coverage, minCoverage, signalled, finalPaths, strictness, unjudged: unjudgedShown });
    return code;
  } finally {
    if (io.signals === true) {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}

/**
 * Why a fuzz could not judge its target, or null. Every session established was lost at its second request (each
 * later request answered 404), so no call ran and no property past an initialize had anything to judge: a deployment
 * that routes a session's requests to nodes that do not hold it, not a MUST the server broke. Or no tool call was
 * ever answered (a server that refuses every initialize of the legacy era, whose clients never get past their
 * initialize; one that answers no call): whatever else held, nothing judged a call's stream or its result. That second
 * gate (`callsGate`) is the default coverage gate, applied only where no finding gives the verdict and no
 * --min-coverage was given; it is counted at the server level only (a client level's runs observe no server-level
 * coverage).
 */
function unjudgedBecause(coverage: CoverageReport | null, callsGate: boolean): string | null {
  if (coverage === null) return null;
  const { established, survived } = coverage.sessions;
  if (established > 0 && survived === 0) {
    return `no session survived its second request (${established} sessions established, every later request of theirs answered 404), so no call ever ran and nothing past an initialize was judged; this is not a violation by the server, it is a deployment that cannot be judged (exit 1)`;
  }
  const { made, answers } = coverage.calls;
  if (!callsGate || coverage.actions.covered === 0 || answers > 0) return null;
  const calls = made === 0 ? 'no tool call was made' : `none of the ${made} tool ${made === 1 ? 'call' : 'calls'} made was answered (no result, no JSON-RPC error)`;
  const sessions = established === 0 ? ', and no initialize gave a session' : '';
  return `${calls}${sessions}, so no property that judges a call's stream or its result had anything to judge; this is not a violation by the server, it is a run that judged no call (exit 1; --min-coverage 0 lifts this gate)`;
}

/** A still-failing stored trace as the reports list it. */
interface RegressionReport {
  readonly property: PropertyName;
  /** Its finding key (sim/signature.ts): which of the property's mechanisms it is. */
  readonly key: string;
  readonly signature: string | null;
  /** True when it fails the run at the command's strictness. */
  readonly fails: boolean;
  readonly recorded: PropertyName | null;
  readonly explanation: string;
  readonly trace: string;
  readonly replay: string;
}

/** Writes a report file (its folder made if need be, checked before the run); a failure now is one line, exit 2. */
function writeReport(path: string, flag: string, text: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomically(path, text);
  } catch (error) {
    throw new UsageError(`${flag} ${path}: cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

function regressionReport(key: string, replay: ExampleReplay & { readonly violation: Violation }, shown: (path: string) => string, targetName: string, strictness: Strictness): RegressionReport {
  const path = shown(replay.file);
  const { violation } = replay;
  return {
    property: violation.property,
    key,
    signature: violation.signature ?? null,
    fails: findingFails(violation, strictness),
    recorded: replay.recorded,
    explanation: violation.explanation,
    trace: path,
    replay: replayCommand(path, targetName),
  };
}

/** The component a finding of an assembled target is charged to, as one line after its counterexample. */
function printComponent(io: Io, report: FindingReport): void {
  if (report.component === null) return;
  io.out(chargedLine(report.component.charged, report.component.name, report.component.evidence));
}

/** Safety or liveness, for a property of either level. */
function kindOf(name: PropertyName): 'safety' | 'liveness' {
  return [...PROPERTIES, ...CLIENT_PROPERTIES].find((property) => property.name === name)!.kind;
}

/**
 * One test case per checked property, failing when one of its findings (or still-failing stored traces) fails the
 * run at this strictness; every such counterexample of it is in the failure's details, each with its signature.
 */
function junitCases(checked: readonly PropertyName[], reports: readonly FindingReport[], regressions: readonly RegressionReport[], strictness: Strictness): JunitCase[] {
  return checked.map((property) => {
    // A finding that does not fail at this strictness passes (a note, a warning without --strict, advice without
    // --strict=advice, one a client's fault triggered): it is in the summary and the printed report all the same.
    const failing = reports.filter((entry) => entry.property === property && entry.fails);
    const stored = regressions.filter((entry) => entry.property === property && entry.fails && !reports.some((report) => report.known && report.trace === entry.trace));
    const all = [
      ...failing.map((report) => ({
        explanation: report.explanation,
        signature: report.signature,
        how: report.known ? 'a stored counterexample still fails' : `found in run ${report.run}, ${report.shrunk ? `shrunk to ${report.shrunkLength} steps` : `${report.shrunkLength} steps, not shrunk${report.flaky ? ' (flaky: re-running it did not violate it again)' : ''}`}`,
        trace: report.trace,
        replay: report.replay,
        charged: report.component === null ? '' : `\ncharged to ${report.component.name}: ${report.component.evidence}`,
      })),
      ...stored.map((regression) => ({ explanation: regression.explanation, signature: regression.signature, how: 'a stored counterexample still fails', trace: regression.trace, replay: regression.replay, charged: '' })),
    ];
    if (all.length === 0) return { property, failure: null };
    const first = all[0]!;
    const details = all.map((entry, index) => `${all.length > 1 ? `(${index + 1}) ` : ''}${entry.signature === null ? '' : `how: ${entry.signature}\n`}${entry.how}\ntrace: ${entry.trace}\nreplay: ${entry.replay}${entry.charged}`).join('\n\n');
    const more = all.length > 1 ? ` (and ${all.length - 1} more ${all.length === 2 ? 'counterexample' : 'counterexamples'} by other mechanisms)` : '';
    return { property, failure: { message: `${property} violated (${severityOf(property)}): ${first.explanation}${more}`, type: kindOf(property), details } };
  });
}

/** The properties of some findings, each once, in order, with how many mechanisms when more than one. */
function namesOf(reports: readonly FindingReport[]): string[] {
  const counts = new Map<PropertyName, number>();
  for (const report of reports) counts.set(report.property, (counts.get(report.property) ?? 0) + 1);
  return [...counts].map(([property, count]) => (count === 1 ? property : `${property} (${count} mechanisms)`));
}

/**
 * The fuzz's verdict in one line, as the terminal and the run's HTML page show it: what fails the run first; then,
 * apart, what does not at this strictness (each saying why), what the client's own faults triggered, and the notes.
 */
export function verdictLine(outcome: { readonly runs: number; readonly steps: number }, reports: readonly FindingReport[], strictness: Strictness, unjudged: string | null): string {
  if (reports.length === 0 && unjudged !== null) return `? no verdict in ${outcome.runs} runs (${outcome.steps} steps): ${unjudged}`;
  if (reports.length === 0) return `✓ no violation in ${outcome.runs} runs (${outcome.steps} steps)`;
  const failures = namesOf(reports.filter((report) => report.fails));
  const quieter = reports.filter((report) => !report.fails && report.severity !== 'note' && report.triggeredBy === null);
  const triggered = namesOf(reports.filter((report) => report.triggeredBy !== null));
  const notes = namesOf(reports.filter((report) => report.severity === 'note' && report.triggeredBy === null));
  const parts: string[] = [];
  if (failures.length > 0) parts.push(`${failures.length} ${failures.length === 1 ? 'property' : 'properties'} violated in ${outcome.runs} runs: ${failures.join(', ')}`);
  else parts.push(`nothing that fails the run in ${outcome.runs} runs`);
  for (const severity of ['warning', 'advice'] as const) {
    const names = namesOf(quieter.filter((report) => report.severity === severity));
    if (names.length > 0) parts.push(`${SEVERITY_LABELS[severity]} (${failsAt(severity, strictness) ? 'failing at this --strict' : `fails only with ${strictFlag(severity)}`}): ${names.join(', ')}`);
  }
  if (triggered.length > 0) parts.push(`triggered by the client's own fault (charged to the client, fails nothing): ${triggered.join(', ')}`);
  if (notes.length > 0) parts.push(`noted (permitted by the protocol revision, not a failure): ${notes.join(', ')}`);
  return parts.join('; ');
}

function printOutcome(
  io: Io,
  result: {
    outcome: FuzzOutcome;
    reports: readonly FindingReport[];
    regressions: readonly RegressionReport[];
    coverage: CoverageReport | null;
    minCoverage: number | null;
    signalled: NodeJS.Signals | null;
    finalPaths: Map<string, string>;
    strictness: Strictness;
    unjudged: string | null;
  },
): void {
  const { outcome, reports, regressions, coverage, minCoverage, signalled, strictness, unjudged } = result;
  if (signalled !== null) io.out(`interrupted by ${signalled} after ${outcome.runs} runs; everything found so far is kept`);
  io.out(verdictLine(outcome, reports, strictness, unjudged));
  for (const [index, report] of reports.entries()) {
    const finding: Finding = outcome.findings[index]!;
    io.out('');
    if (report.known) {
      // A regression is a counterexample too: show the stored one, which was just replayed and still fails.
      io.out(`── found in run ${report.run} (seed ${report.runSeed}); known already: ${report.trace} still fails (not shrunk again), its stored counterexample:`);
      printStoredViolation(io, readTrace(report.trace), report.trace);
      printComponent(io, report);
      continue;
    }
    if (report.flaky) {
      io.out(`── found in run ${report.run} (seed ${report.runSeed}); FLAKY: re-running its ${report.shrunkLength} choices to shrink them did not violate it again (timing decided it); not shrunk`);
      printViolation(io, finding.trace, report.trace);
      continue;
    }
    const cutBy = signalled === null ? '--time' : signalled;
    const how = report.passedOver
      ? `not shrunk (${report.shrunkLength} steps): it fails nothing, and over the wire only what fails the run is shrunk (--shrink-all shrinks it)`
      : !report.shrunk
      ? `not shrunk (${report.shrunkLength} steps): the ${signalled === null ? 'time budget' : 'run'} ended first`
      : report.shrinkCutShort
        ? `shrinking cut short by ${cutBy} at ${report.shrunkLength} of ${report.originalLength} steps, after ${report.shrinkEvaluations} runs (a shorter one may exist)`
        : `shrunk from ${report.originalLength} to ${report.shrunkLength} steps in ${report.shrinkEvaluations} runs`;
    io.out(`── found in run ${report.run} (seed ${report.runSeed}); ${how}`);
    printViolation(io, finding.trace, report.trace);
    printComponent(io, report);
  }
  const unmatched = regressions.filter((regression) => !reports.some((report) => report.known && report.trace === regression.trace));
  if (unmatched.length > 0) {
    io.out('');
    // Known defects the search did not meet again: kept in the corpus, still failing (not new, not necessarily regressions).
    io.out(`${unmatched.length} stored ${unmatched.length === 1 ? 'trace' : 'traces'} known, still failing (the search did not meet ${unmatched.length === 1 ? 'it' : 'them'} again):`);
    for (const regression of unmatched) io.out(`  ${severityMark(severityOf(regression.property))} ${regression.property}: ${regression.trace} (replay: ${regression.replay})`);
  }
  if (coverage !== null) {
    io.out('');
    for (const line of renderCoverage(coverage)) io.out(line);
    if (minCoverage !== null && coverage.percent < minCoverage) io.out(`✗ coverage ${coverage.percent}% is below --min-coverage ${minCoverage}%`);
  }
}
