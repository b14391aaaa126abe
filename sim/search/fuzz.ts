// The fuzz: seeded random walks (uniform and swarm) in one or more lanes (sim/search/fuzz-search.ts), then each chosen
// counterexample shrunk and recorded as a trace. The time budget bounds the whole of it, shrinking included; a
// stop (a signal) ends it at once, keeping every counterexample found, shrunk or not.

import type { PropertyName } from '../../properties/names.ts';
import type { Target } from '../../targets/target.ts';
import type { RecycleBounds } from '../../targets/module/wear.ts';
import { RESUMECHECK_VERSION, TRACE_FORMAT_VERSION, type Trace } from '../../traces/trace.ts';
import { sequenceChoices } from '../choices.ts';
import { sharedWallMs } from '../clock.ts';
import type { SimConfig } from '../config.ts';
import type { Violation } from '../world.ts';
import { type CoverageCounts, emptyCoverage, mergeCoverage } from '../coverage.ts';
import { type RunResult, runSimulation } from '../engine.ts';
import { CONTROL, CandidateBook, type Candidate, type LaneHooks, type LanePlan, createControl, runSeed, searchLane, searchedProperties } from './fuzz-search.ts';
import { findingKey } from '../signature.ts';
import { type ShrinkBounds, type ShrinkResult, type Simulate, DEFAULT_SHRINK_BOUNDS, NotReproducedError, SHRINK_TIMEOUTS_MAX, confirmedRun, shrinkChoices } from '../shrink/shrink.ts';
import { levelOf } from '../levels/level.ts';

export { runSeed } from './fuzz-search.ts';

/** Worker threads at the most, whatever is asked: each holds a copy of the simulator (and of the SDK, on SDK targets). */
export const WORKERS_MAX = 64;

/** What to fuzz and for how long. */
export interface FuzzOptions {
  readonly target: Target;
  /** The base config; each run gets its own seed derived from `config.seed`. */
  readonly config: SimConfig;
  /** Runs at the most. */
  readonly runsMax: number;
  /** Wall-clock budget in ms for the whole fuzz, shrinking included, or null; decides when to stop, never what a run does. */
  readonly timeMs: number | null;
  /** When the budget started (`sharedWallMs()`), if before the call (a command's own start); default: now. */
  readonly startedMs?: number;
  readonly shrinkBounds?: ShrinkBounds;
  /**
   * Which findings to shrink (default: all); the others are kept as found, `passedOver`. Over the wire, where each
   * candidate of a shrink is a whole run against a real server, the CLI shrinks only what fails the run.
   */
  readonly shrinkIf?: (violation: Violation) => boolean;
  /** Check only these properties (default: all). */
  readonly properties?: readonly PropertyName[];
  /** Run only every `count`-th run, starting at run `index` (1-based): machines sharing a seed split the runs. */
  readonly shard?: { readonly index: number; readonly count: number };
  /**
   * Stop at the first violation (the default), or go on collecting one finding per property until every checked
   * property has one or the budget is spent (so with one property, the search ends at its first violation).
   * Each finding is the first violation of its run; of a property's runs, the shortest is shrunk.
   */
  readonly stopAtFirst?: boolean;
  /** Worker threads searching and shrinking (default 1: in this thread). The findings do not depend on it. */
  readonly workers?: number;
  /**
   * Run nothing of the target in this thread: `workers` worker threads (at least one) make every run, so a target
   * that takes its thread down (a user's module calling process.exit) ends the fuzz with a ContainedFailure
   * (sim/search/fuzz-workers.ts) naming the run, not the process.
   */
  readonly contained?: boolean;
  /** Contained, when a worker worn by the user's module hands over to a fresh one (default RECYCLE_DEFAULTS). */
  readonly recycle?: Partial<RecycleBounds>;
  /** Count the states, transitions and action kinds the runs reach. */
  readonly coverage?: boolean;
  /**
   * Counterexamples of distinct signatures kept per property (sim/signature.ts), default 1: how many mechanisms by
   * which one property fails the fuzz reports, each shrunk without changing its signature.
   */
  readonly perProperty?: number;
  /**
   * Finding keys (sim/signature.ts's findingKey) whose counterexamples are known already (still-failing stored traces):
   * found, never shrunk. A property's other signatures are searched and shrunk as any.
   */
  readonly known?: ReadonlySet<string>;
  /** Ends the fuzz now: the search stops and nothing more is shrunk. */
  readonly signal?: AbortSignal;
  /**
   * Asked after each run and each shrink this call makes (in this thread: an executor of one lane that is not
   * contained): true ends the call there, its outcome carrying a checkpoint that a later call (`resume`, in a fresh
   * thread) goes on from. Runs are a function of the seed and their number, so the findings are those one call gives.
   * check-store's worker hands over so once its user's module has worn it (targets/module/wear.ts).
   */
  readonly pause?: () => boolean;
  /** Where an earlier call of the same fuzz paused: it goes on from there. Coverage counts this call's runs. */
  readonly resume?: FuzzCheckpoint | null;
  /**
   * Asked after each run (in this thread, as `pause`): true makes it the search's last, and its findings are shrunk
   * (a store whose call never settled: every later run could wait out the timeout too).
   */
  readonly lastRun?: () => boolean;
  /** The first counterexample of each finding key as soon as it is found, as it was found: nothing is run again for it. */
  readonly onFound?: (found: { readonly run: number; readonly violation: Violation; readonly choices: readonly number[] }) => void;
  /** The first counterexample of each finding key, recorded unshrunk as soon as it is found (to be written at once). */
  readonly onDiscovery?: (discovery: { readonly run: number; readonly trace: Trace }) => void | Promise<void>;
  /** Each finding, once shrunk (or given up on) and recorded. */
  readonly onFinding?: (finding: Finding) => void | Promise<void>;
  readonly onProgress?: (progress: FuzzProgress) => void;
  /**
   * A run threw (over the wire: the server crashed or stopped answering): true ends the fuzz there, as a stop does,
   * keeping what was found (unshrunk); false, or no hook, lets the error through.
   */
  readonly onRunError?: (error: unknown) => boolean;
}

/**
 * All a fuzz keeps across its runs and shrinks, for another call to go on from (FuzzOptions.resume). Plain data: it
 * crosses to a fresh worker thread.
 */
export interface FuzzCheckpoint {
  /** The next ordinal to run, and the runs and steps made before it. */
  readonly next: number;
  readonly runs: number;
  readonly steps: number;
  /** Every candidate the lanes reported, in the order they did. */
  readonly candidates: readonly Candidate[];
  /** True once the search is over (its last run made): the findings are being shrunk. */
  readonly searched: boolean;
  /** The findings shrunk so far, in the order of the candidates chosen (null: not yet). */
  readonly findings: readonly (Finding | null)[];
}

/** Where a fuzz stands, for a progress line. */
export interface FuzzProgress {
  readonly phase: 'search' | 'shrink';
  readonly runs: number;
  readonly steps: number;
  /** Properties with a counterexample so far. */
  readonly found: number;
  readonly elapsedMs: number;
  /** Null without a time budget. */
  readonly remainingMs: number | null;
}

/** A violation found, shrunk and recorded. */
export interface Finding {
  /** 1-based number of the run that found it. */
  readonly run: number;
  readonly original: RunResult;
  readonly shrink: ShrinkResult;
  /** False when the budget or a stop ended the fuzz before this one was shrunk, its property was known, or `passedOver`. */
  readonly shrunk: boolean;
  /** Not shrunk because {@link FuzzOptions.shrinkIf} said so (over the wire: a finding that fails nothing). */
  readonly passedOver?: boolean;
  readonly trace: Trace;
  /**
   * The run violated the property, and re-running its choices (to shrink them) did not: real time decided it (a target
   * over the wire). The trace holds the unshrunk choices and the verdict of the run that found it.
   */
  readonly flaky?: boolean;
}

/** The outcome of a fuzz. */
export interface FuzzOutcome {
  readonly runs: number;
  readonly steps: number;
  /** The first finding, or null. */
  readonly finding: Finding | null;
  /** Every finding, up to `perProperty` per property (each of its own signature), in the order their properties were first violated. */
  readonly findings: readonly Finding[];
  /** True when a stop (`signal`) ended it. */
  readonly interrupted: boolean;
  readonly coverage: CoverageCounts | null;
  readonly elapsedMs: number;
  /** Of it, the search's share (lanes running), for runs/s figures. */
  readonly searchMs: number;
  /** Null once the fuzz is over; else where `pause` ended this call, to go on from (`findings` are those shrunk so far). */
  readonly checkpoint: FuzzCheckpoint | null;
}

/** Re-runs `choices` with recording on and packs the result as a trace. */
export async function recordTrace(
  target: Target,
  config: SimConfig,
  choices: readonly number[],
  shrink: ShrinkResult | null,
  properties: readonly PropertyName[] | null = null,
  run: Simulate = runSimulation,
): Promise<Trace> {
  const recorded = await run(target, config, sequenceChoices(choices), { record: true, ...(properties === null ? {} : { properties }) });
  return packTrace(target, config, recorded, shrink, properties);
}

/** A recorded run packed as a trace: its steps and its verdict, as they happened. */
export function packTrace(target: Target, config: SimConfig, recorded: RunResult, shrink: ShrinkResult | null, properties: readonly PropertyName[] | null): Trace {
  return traceOf(target, config, properties, { choices: recorded.choices, steps: recorded.trace ?? [], verdict: recorded.violation }, shrink);
}

/** A trace of `target` under `config` made of a run's choices, steps and verdict. */
function traceOf(
  target: Target,
  config: SimConfig,
  properties: readonly PropertyName[] | null,
  run: { readonly choices: readonly number[]; readonly steps: Trace['steps']; readonly verdict: Trace['verdict'] },
  shrink: ShrinkResult | null,
): Trace {
  const level = levelOf(target);
  return {
    format: 'resumecheck-trace',
    formatVersion: TRACE_FORMAT_VERSION,
    resumecheckVersion: RESUMECHECK_VERSION,
    ...(level === undefined ? {} : { level: level.name }),
    sdk: target.sdk ?? null,
    target: target.name,
    config,
    properties: properties === null ? null : [...properties],
    seed: config.seed,
    choices: [...run.choices],
    steps: run.steps,
    verdict: run.verdict,
    shrink: shrink === null ? null : { originalLength: shrink.originalLength, shrunkLength: run.choices.length, evaluations: shrink.evaluations },
  };
}

/** One shrink to make, in whatever thread: plain data. */
export interface ShrinkTask {
  readonly config: SimConfig;
  readonly choices: readonly number[];
  readonly property: PropertyName;
  /** The signature the shrunk counterexample keeps (sim/signature.ts). */
  readonly signature: string | undefined;
  readonly bounds: ShrinkBounds;
  readonly properties: readonly PropertyName[] | null;
  readonly deadlineMs: number | null;
  /** A shorter start to try first (ShrinkOptions.from): the shrunk choices of another finding of the same run. */
  readonly from?: readonly number[];
}

/**
 * Where lanes and shrinks run: this thread, or this thread and a pool of workers (sim/search/fuzz-workers.ts).
 */
export interface FuzzExecutor {
  /** How many lanes and shrinks it runs at once. */
  readonly parallelism: number;
  /** True when every lane and shrink runs in a worker and this thread runs nothing of the target (a user's module). */
  readonly contained?: boolean;
  /** How its runs are made (lanes, shrinks, recordings), when not by runSimulation alone (inThreadExecutor's `run`). */
  readonly run?: Simulate;
  search(
    plans: readonly LanePlan[],
    control: Int32Array,
    hooks: { onCandidate(candidate: Candidate): void | Promise<void>; onProgress(runs: number, steps: number): void } & Pick<LaneHooks, 'pause' | 'last'>,
  ): Promise<{ runs: number; steps: number; coverage: CoverageCounts | null; paused?: boolean }>;
  /**
   * Shrinks one counterexample and records the shrunk run as a trace, in the thread that shrank it (so no other
   * thread waits for this one's turn to record it); `control`'s stop cell ends the shrink early.
   */
  shrink(task: ShrinkTask, control: Int32Array): Promise<ShrunkTask>;
  /**
   * Runs `task` (runs of the target in this thread: recording a trace) when no other run of this thread is under way:
   * an SDK run patches process globals for its length, so two may never overlap in one thread.
   */
  turn<T>(task: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A thread's turn: tasks run one after the other, in the order they were asked for. */
export function createTurn(): <T>(task: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const next = last.then(task);
    last = next.catch(() => undefined);
    return next;
  };
}

/** A shrink made, and its shrunk run recorded. Plain data: it crosses from worker threads. */
export interface ShrunkTask {
  readonly shrink: ShrinkResult;
  readonly trace: Trace;
}

/** Makes one shrink in this thread and records the shrunk run; `control`'s stop cell ends the shrink early. */
export async function shrinkTask(target: Target, task: ShrinkTask, control: Int32Array, run?: Simulate): Promise<ShrunkTask> {
  // A target whose runs may wait out a call timeout records its candidates too (its shortest is not run again, which
  // could wait once more), and its shrink ends once they have waited SHRINK_TIMEOUTS_MAX times.
  const waited = target.timeoutsWaited;
  const waitsBefore = waited?.() ?? 0;
  const record = target.realTime === true || waited !== undefined;
  const { recorded, ...shrink } = await shrinkChoices(target, task.config, task.choices, task.property, task.bounds, {
    ...(task.properties === null ? {} : { properties: task.properties }),
    ...(task.signature === undefined ? {} : { signature: task.signature }),
    deadlineMs: task.deadlineMs,
    ...(task.from === undefined ? {} : { from: task.from }),
    stopped: () => Atomics.load(control, CONTROL.stop) !== 0 || (waited !== undefined && waited() - waitsBefore >= SHRINK_TIMEOUTS_MAX),
    ...(record ? { record: true } : {}),
    // An executor's own run, confirmed as runSimulation would be for a target whose runs may differ.
    ...(run === undefined ? {} : { run: target.flakyRuns === true ? confirmedRun(run) : run }),
  });
  // A real-time target's shrunk trace is the shrink's own run of those choices, which violated the property; a re-run
  // might not (the finding would then be relabelled, or dropped). Any other target's re-run is the same run.
  const trace = recorded === undefined ? await recordTrace(target, task.config, shrink.choices, shrink, task.properties, run) : packTrace(target, task.config, recorded, shrink, task.properties);
  return { shrink, trace };
}

/**
 * Runs lanes and shrinks in this thread, one at a time; every run through `run` when given (check-store's end-to-end
 * phase: a run judged against sdk-core, a run the store made fail read as a violation).
 */
export function inThreadExecutor(target: Target, run?: Simulate): FuzzExecutor {
  const hooks = run === undefined ? {} : { run };
  return {
    parallelism: 1,
    ...hooks,
    // The lane waits for what a candidate's recording returns before its next run, so its runs need no turn.
    turn: createTurn(),
    async search(plans, control, laneHooks) {
      let runs = 0;
      let steps = 0;
      const coverage = plans[0]?.coverage === true ? emptyCoverage() : null;
      for (const plan of plans) {
        const lane = await searchLane(target, plan, control, { ...laneHooks, ...hooks }, coverage);
        runs += lane.runs;
        steps += lane.steps;
        if (lane.paused === true) return { runs, steps, coverage, paused: true };
      }
      return { runs, steps, coverage };
    },
    shrink(task, control) {
      return shrinkTask(target, task, control, run);
    },
    async close() {},
  };
}

/** Of a time budget, the share the search may use once something was found, leaving the rest for shrinking. */
const SEARCH_SHARE_ONCE_FOUND = 0.6;
/** Of a time budget, the share shrinking may reach up to, leaving the rest for recording and writing. */
const SHRINK_SHARE = 0.95;

/**
 * When a shrink of `length` steps started now must end: of the time left before `deadlineMs` on each of `threads`
 * threads, its part by length among itself and the shrinks still waiting (`waiting`: their lengths), and never past
 * the deadline.
 */
export function shrinkShare(deadlineMs: number, threads: number, length: number, waiting: readonly number[]): number {
  const now = sharedWallMs();
  const left = Math.max(0, deadlineMs - now);
  const total = waiting.reduce((sum, other) => sum + other, length);
  return now + Math.min(left, (left * threads * length) / Math.max(1, total));
}

/** Fuzzes a target until a violation is found or the budget is spent. */
export async function fuzz(options: FuzzOptions): Promise<FuzzOutcome> {
  const workers = options.workers ?? 1;
  if (workers <= 1 && options.contained !== true) return fuzzWith(options, inThreadExecutor(options.target));
  // Loaded only when asked for: the pool brings worker_threads and a loader for the worker's own modules.
  const { workerPoolExecutor } = await import('./fuzz-workers.ts');
  const executor = await workerPoolExecutor(options.target, Math.max(1, workers), { contained: options.contained === true, ...(options.recycle === undefined ? {} : { recycle: options.recycle }) });
  try {
    return await fuzzWith(options, executor);
  } finally {
    await executor.close();
  }
}

/** The fuzz over a given executor. */
export async function fuzzWith(options: FuzzOptions, executor: FuzzExecutor): Promise<FuzzOutcome> {
  const { target, config } = options;
  const startedMs = options.startedMs ?? sharedWallMs();
  const stopAtFirst = options.stopAtFirst ?? true;
  const checked = options.properties ?? null;
  const shard = options.shard ?? { index: 1, count: 1 };
  const known = options.known ?? new Set<string>();
  const perProperty = options.perProperty ?? 1;
  const deadline = (share: number): number | null => (options.timeMs === null ? null : startedMs + options.timeMs * share);
  const control = createControl({ shared: executor.parallelism > 1 || executor.contained === true, lanes: executor.parallelism });
  const stop = (): void => {
    Atomics.store(control, CONTROL.stop, 1);
  };
  const stopped = (): boolean => Atomics.load(control, CONTROL.stop) !== 0;
  if (options.signal?.aborted === true) stop();
  options.signal?.addEventListener('abort', stop, { once: true });

  /** The properties a candidate's run checked (a run made again checks fewer): its shrink and its trace check them too. */
  const checkedBy = (candidate: Candidate): readonly PropertyName[] | null => candidate.properties ?? checked;
  /** A candidate's trace says which of the searched properties its run was made without (none for a first run). */
  const searchedNames = searchedProperties(target, checked);
  const withUnchecked = (trace: Trace, candidate: Candidate): Trace => {
    const made = candidate.properties;
    if (made === undefined) return trace;
    const unchecked = searchedNames.filter((name) => !made.includes(name));
    return unchecked.length === 0 ? trace : { ...trace, unchecked };
  };
  const resume = options.resume ?? null;
  if ((options.pause !== undefined || options.lastRun !== undefined || resume !== null) && (executor.parallelism > 1 || executor.contained === true)) {
    throw new Error('assertion: a fuzz pauses, resumes and ends its search on a run in this thread alone');
  }
  const book = new CandidateBook({ stopAtFirst, propertiesChecked: searchedNames.length, perProperty });
  // Every candidate reported, in order: offered again in that order, they make the book what it was (a checkpoint's).
  const offered: Candidate[] = [];
  for (const candidate of resume?.candidates ?? []) {
    offered.push(candidate);
    book.offer(candidate);
  }
  if (resume !== null) {
    Atomics.store(control, CONTROL.next, resume.next);
    Atomics.store(control, CONTROL.found, book.size);
    Atomics.store(control, CONTROL.bound, book.bound());
  }
  const discoveries: Promise<void>[] = [];
  // Runs made in this thread (recording traces) take the thread's turn, with any lane or shrink the executor runs here.
  const inTurn = <T>(task: () => Promise<T>): Promise<T> => executor.turn(task);
  let runs = resume?.runs ?? 0;
  let steps = resume?.steps ?? 0;
  const progress = (phase: FuzzProgress['phase']): void => {
    const elapsedMs = sharedWallMs() - startedMs;
    const remainingMs = options.timeMs === null ? null : Math.max(0, options.timeMs - elapsedMs);
    options.onProgress?.({ phase, runs, steps, found: book.size, elapsedMs, remainingMs });
  };
  const laneCount = executor.parallelism;
  const plans: LanePlan[] = Array.from({ length: laneCount }, () => ({
    config,
    runsMax: options.runsMax,
    shard,
    properties: checked,
    stopAtFirst,
    perProperty,
    deadlineMs: deadline(1),
    deadlineFoundMs: deadline(SEARCH_SHARE_ONCE_FOUND),
    coverage: options.coverage === true,
  }));
  const searchStartedMs = sharedWallMs();
  const searchOver = resume?.searched === true;
  const searched = searchOver ? { runs: 0, steps: 0, coverage: null } : await executor.search(plans, control, {
    onCandidate(candidate) {
      offered.push(candidate);
      if (!book.offer(candidate)) return;
      Atomics.store(control, CONTROL.found, book.size);
      // The bound may only have come down; lanes read it before their next run.
      Atomics.store(control, CONTROL.bound, book.bound());
      // Told at once only while its property may still keep it (a property's first `perProperty` keys to arrive).
      if (known.has(findingKey(candidate.violation)) || !book.mayKeep(candidate.violation)) return;
      options.onFound?.({ run: candidate.run, violation: candidate.violation, choices: candidate.choices });
      if (options.onDiscovery === undefined) return;
      const runConfig: SimConfig = { ...config, seed: runSeed(config.seed, candidate.run) };
      const discovery = inTurn(async () => options.onDiscovery!({ run: candidate.run, trace: withUnchecked(await candidateTrace(target, runConfig, candidate, checkedBy(candidate), stopped, executor.run), candidate) }));
      discoveries.push(discovery);
      // Awaited with the others after the search; marked handled now, so a failure waits for that.
      discovery.catch(() => undefined);
      return discovery;
    },
    onProgress(laneRuns, laneSteps) {
      runs += laneRuns;
      steps += laneSteps;
      progress('search');
    },
    ...(options.onRunError === undefined
      ? {}
      : {
          onRunError(error: unknown) {
            if (options.onRunError?.(error) !== true) return false;
            stop();
            return true;
          },
        }),
    ...(options.pause === undefined ? {} : { pause: options.pause }),
    ...(options.lastRun === undefined ? {} : { last: options.lastRun }),
  });
  const searchMs = sharedWallMs() - searchStartedMs;
  runs = (resume?.runs ?? 0) + searched.runs;
  steps = (resume?.steps ?? 0) + searched.steps;
  await Promise.all(discoveries);
  const outcome = (findings: readonly (Finding | null)[], checkpoint: FuzzCheckpoint | null): FuzzOutcome => {
    options.signal?.removeEventListener('abort', stop);
    const done = findings.filter((finding): finding is Finding => finding !== null);
    return {
      runs,
      steps,
      finding: done[0] ?? null,
      findings: done,
      interrupted: options.signal?.aborted === true,
      coverage: searched.coverage,
      elapsedMs: sharedWallMs() - startedMs,
      searchMs,
      checkpoint,
    };
  };
  const checkpoint = (findings: readonly (Finding | null)[], over: boolean): FuzzCheckpoint => ({ next: Atomics.load(control, CONTROL.next), runs, steps, candidates: offered, searched: over, findings });
  if ('paused' in searched && searched.paused === true) return outcome([], checkpoint([], false));

  // Shrinking: the chosen candidates, at most `parallelism` at a time, each within a share of the budget left.
  const chosen = book.chosen();
  const findings: (Finding | null)[] = chosen.map((_, index) => (searchOver ? (resume.findings[index] ?? null) : null));
  if (searchOver && resume.findings.length !== chosen.length) throw new Error('assertion: a checkpoint whose findings are not those its candidates choose');
  // Several findings of one run (properties violated by the same steps, often) are shrunk one after another: the
  // first found leads, and the others start from its shrunk choices where those violate their property too
  // (ShrinkOptions.from). When that came (99109bd), such a later finding of the main job (sdk-shared, --no-corpus,
  // seed 1) took 31 to 129 shrink runs where it had taken 64 to 282, and the job 3.7 K against 4.1 K; no trace longer.
  // A real-time target's findings do not take one (ShrinkOptions.from): each leads itself, in the usual order.
  // A run's leader: its finding of the lowest pass, the first of them on a tie.
  const leaderOfRun = new Map<number, number>();
  chosen.forEach((candidate, index) => {
    const leader = leaderOfRun.get(candidate.ordinal);
    if (leader === undefined || (candidate.pass ?? 0) < (chosen[leader]!.pass ?? 0)) leaderOfRun.set(candidate.ordinal, index);
  });
  const leaders = chosen.map((candidate, index) => (target.realTime === true ? index : leaderOfRun.get(candidate.ordinal)!));
  const settled: ((finding: Finding) => void)[] = [];
  const leaderDone = chosen.map((_, index) => new Promise<Finding>((resolve) => (settled[index] = resolve)));
  findings.forEach((finding, index) => finding !== null && settled[index]!(finding));
  // Longest first (ties: in order), so with several at once the long shrink of a long run does not start last while
  // the other threads wait for it. A run's later finding is ready once its leader's shrink is done (it may start from
  // the leader's shrunk choices), and then takes its place by length: a thread that finds none ready waits for the next
  // leader to finish. (Later findings after every leader left a thread idle at the end of the main job while the other
  // shrank one of 25 steps, a leader long done.) Each finding keeps its place in `findings` whatever the order.
  const waiting = chosen.flatMap((_, index) => (findings[index] === null ? [index] : [])).sort((left, right) => chosen[right]!.choices.length - chosen[left]!.choices.length || left - right);
  const ready = (index: number): boolean => leaders[index] === index || findings[leaders[index]!] !== null;
  const takeNext = async (): Promise<number | undefined> => {
    for (;;) {
      const at = waiting.findIndex(ready);
      if (at >= 0) return waiting.splice(at, 1)[0];
      if (waiting.length === 0) return undefined;
      await Promise.race(waiting.map((index) => leaderDone[leaders[index]!]!));
    }
  };
  const shrinkDeadline = deadline(SHRINK_SHARE);
  const shrinkOne = async (index: number): Promise<void> => {
    const candidate = chosen[index]!;
    const property = candidate.violation.property;
    const signature = candidate.violation.signature;
    const runConfig: SimConfig = { ...config, seed: runSeed(config.seed, candidate.run) };
    const original: RunResult = { violation: candidate.violation, choices: candidate.choices, steps: candidate.steps, healSteps: candidate.healSteps, trace: null };
    const unshrunk: ShrinkResult = { choices: candidate.choices, originalLength: candidate.choices.length, evaluations: 0 };
    let shrink = unshrunk;
    let shrunkTrace: Trace | null = null;
    let flaky = false;
    let cut = false;
    // A run's later finding starts once its leader's is done (ready), from its shrunk choices where they serve.
    const led = leaders[index] === index ? null : await leaderDone[leaders[index]!]!;
    const passedOver = options.shrinkIf !== undefined && !options.shrinkIf(candidate.violation);
    const skip = passedOver || known.has(findingKey(candidate.violation)) || stopped() || (shrinkDeadline !== null && sharedWallMs() >= shrinkDeadline);
    if (!skip) {
      const from = led !== null && led.shrunk ? led.trace.choices : undefined;
      // The time left on every thread, shared among this shrink and those still to start by their lengths (a later
      // finding's from its leader's shrunk choices): a shrink's runs and their number grow with its length. An equal
      // share cut the long counterexamples, shrunk first, to a step or two shorter, while the short ones ended early.
      const share = shrinkDeadline === null ? null : shrinkShare(shrinkDeadline, executor.parallelism, (from ?? candidate.choices).length, waiting.map((other) => chosen[other]!.choices.length));
      progress('shrink');
      try {
        ({ shrink, trace: shrunkTrace } = await executor.shrink(
          {
            config: runConfig,
            choices: candidate.choices,
            property,
            signature,
            bounds: options.shrinkBounds ?? DEFAULT_SHRINK_BOUNDS,
            properties: checkedBy(candidate),
            deadlineMs: share,
            ...(from === undefined ? {} : { from }),
          },
          control,
        ));
      } catch (error) {
        // Only in this thread: a target over the wire runs nowhere else (a worker finds targets by name).
        if (error instanceof NotReproducedError) flaky = true;
        // A stop cut a run of the shrink off (over the wire, where a run takes seconds): the finding is kept as found.
        else if (stopped()) cut = true;
        else throw error;
      }
      // Shrunk, the recording of the shortest sequence did not violate the property again: timing decided (over the
      // wire), so the finding is flaky, kept unshrunk with the verdict of the run that found it.
      if (shrunkTrace !== null && (shrunkTrace.verdict === null || findingKey(shrunkTrace.verdict) !== findingKey(candidate.violation))) {
        shrunkTrace = null;
        shrink = unshrunk;
        flaky = true;
      }
    }
    const shrunk = !skip && !flaky && !cut;
    // Unshrunk (skipped or flaky), the run that found it; shrunk, as it was recorded where it was shrunk.
    const recorded = shrunkTrace ?? (await inTurn(() => candidateTrace(target, runConfig, candidate, checkedBy(candidate), stopped, executor.run)));
    // A flaky finding (never a crash): the unshrunk choices, with the verdict of the run that found it, which the
    // re-run to record them need not repeat.
    const trace: Trace = withUnchecked(flaky ? withVerdict(recorded, candidate.violation) : recorded, candidate);
    const finding: Finding = { run: candidate.run, original, shrink: flaky ? { ...unshrunk, evaluations: 1 } : shrink, shrunk, trace, ...(flaky ? { flaky: true } : {}), ...(passedOver ? { passedOver: true } : {}) };
    findings[index] = finding;
    settled[index]!(finding);
    await options.onFinding?.(finding);
  };
  // A call pauses only once it has made progress (a run or a shrink), so that every call does.
  let progressed = searched.runs > 0;
  let paused = false;
  const shrinkers = Array.from({ length: Math.min(executor.parallelism, chosen.length) }, async () => {
    for (;;) {
      if (progressed && waiting.length > 0 && options.pause?.() === true) {
        paused = true;
        return;
      }
      const index = await takeNext();
      if (index === undefined) return;
      await shrinkOne(index);
      progressed = true;
    }
  });
  await Promise.all(shrinkers);
  return outcome(findings, paused ? checkpoint(findings, true) : null);
}

/**
 * The trace of the run that found a candidate: on a real-time target, that run as it was recorded (a re-run of its
 * choices may go otherwise, and its steps would not show what the verdict says); on any other, a re-run of its
 * choices with recording on, which is the same run (its verdict is the finding's, should the two ever differ).
 */
async function candidateTrace(target: Target, config: SimConfig, candidate: Candidate, properties: readonly PropertyName[] | null, stopped: () => boolean, run?: Simulate): Promise<Trace> {
  if (candidate.recorded !== undefined) return packTrace(target, config, candidate.recorded, null, properties);
  return recordAfterFinding(target, config, candidate, properties, stopped, run);
}

/**
 * A found run recorded with its verdict. Once the fuzz was stopped (a signal, a server that failed mid-run) the target
 * may be gone: then the trace keeps the choices and the verdict without the recorded steps, rather than losing them.
 */
async function recordAfterFinding(
  target: Target,
  config: SimConfig,
  candidate: { readonly choices: readonly number[]; readonly violation: NonNullable<Trace['verdict']> },
  checked: readonly PropertyName[] | null,
  stopped: () => boolean,
  run?: Simulate,
): Promise<Trace> {
  try {
    return withVerdict(await recordTrace(target, config, candidate.choices, null, checked, run), candidate.violation);
  } catch (error) {
    if (!stopped()) throw error;
    return traceOf(target, config, checked, { choices: candidate.choices, steps: [], verdict: candidate.violation }, null);
  }
}

/** The recorded trace with the verdict of the run that found it, should a re-run's verdict differ. */
function withVerdict(recorded: Trace, violation: NonNullable<Trace['verdict']>): Trace {
  return recorded.verdict !== null && findingKey(recorded.verdict) === findingKey(violation) ? recorded : { ...recorded, verdict: violation };
}

/** Adds the coverage of several lanes. */
export function mergeLaneCoverage(parts: readonly (CoverageCounts | null)[]): CoverageCounts | null {
  const present = parts.filter((part): part is CoverageCounts => part !== null);
  if (present.length === 0) return null;
  const total = emptyCoverage();
  for (const part of present) mergeCoverage(total, part);
  return total;
}

