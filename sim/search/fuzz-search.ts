// The fuzz's search: seeded random walks, one lane per thread, and the rule that picks which counterexamples
// are shrunk, made so the findings of a given seed and run count are the same whatever the number of lanes.
//
// A fuzz of R runs makes the runs with ordinals 0..R-1 (ordinal j is run number `shard.index + shard.count * j`);
// lanes claim the next ordinal from a counter they share (the control block), so each makes an increasing sequence
// of ordinals and a lane that starts late (a worker still loading) or runs slower (a busy core) makes fewer, never
// leaving the others idle at the end. A simulation stops at its first violation; unless the search stops at its
// first, the run is then made again without the property violated, until a simulation ends with none (every property
// violated in a run gives a candidate; see `eachViolation`), or rather read off one run that goes on past each
// violation as those simulations would (sim/every-violation.ts).
// A violation's finding key is its property and its signature (sim/signature.ts: how it happened), so one property
// may have several counterexamples, up to `perProperty` of them, the keys first seen at the lowest ordinals.
// Which runs count is decided on ordinals alone: with `stopAtFirst`, the runs up to the first violating ordinal;
// otherwise, once every checked property has `perProperty` keys, the runs up to the ordinal where the last of them
// got its last (and all R runs when some property never does). A lane stops past that bound as soon as it knows
// it; what it made past it is left out. Of the counted runs, each key's counterexample to shrink is the shortest
// (ties: the lowest ordinal), so the choice depends on no lane's speed.

import { type PropertyName, levelPropertyNames } from '../../properties/names.ts';
import type { Target } from '../../targets/target.ts';
import { createActionList } from '../actions.ts';
import { levelWalk, sequenceChoices } from '../choices.ts';
import { macrotaskTurn, sharedWallMs } from '../clock.ts';
import type { SimConfig } from '../config.ts';
import { CoverageObserver, type CoverageCounts } from '../coverage.ts';
import { type RunResult, runSimulation } from '../engine.ts';
import type { Simulate } from '../shrink/shrink.ts';
import { findingKey } from '../signature.ts';
import type { Violation } from '../world.ts';
import { levelOf } from '../levels/level.ts';

/** Cells of the control block lanes share (an Int32Array, over a SharedArrayBuffer when lanes are threads). */
export const CONTROL = {
  /** 1 once the search must stop now (a signal, the time budget). */
  stop: 0,
  /** The highest ordinal still counted. */
  bound: 1,
  /** How many properties have a counterexample so far (lanes stop earlier to leave time for shrinking). */
  found: 2,
  /** The next ordinal no lane has claimed yet. */
  next: 3,
} as const;

/** No bound yet. */
export const BOUND_NONE = 0x7fffffff;

/** The first of the cells that say, per lane, which run it is making (0 before its first): a contained fuzz reads them. */
export const LANE_RUN_CELLS = 4;

/** A fresh control block, with a run cell for each of `lanes` lanes. */
export function createControl(options: { readonly shared: boolean; readonly lanes?: number }): Int32Array {
  const size = 4 * (LANE_RUN_CELLS + (options.lanes ?? 0));
  const cells = new Int32Array(options.shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
  cells[CONTROL.bound] = BOUND_NONE;
  return cells;
}

/** The seed of run `run` of a fuzz seeded with `seed`. */
export function runSeed(seed: string, run: number): string {
  return `${seed}.${run}`;
}

/** What one lane searches. Plain data: it crosses to worker threads. */
export interface LanePlan {
  /** The base config; each run gets its own seed derived from `config.seed`. */
  readonly config: SimConfig;
  /** Runs of the whole search (its ordinals are 0..runsMax-1). */
  readonly runsMax: number;
  readonly shard: { readonly index: number; readonly count: number };
  /** Check only these properties; null for all. */
  readonly properties: readonly PropertyName[] | null;
  readonly stopAtFirst: boolean;
  /** Counterexamples of distinct signatures kept per property (1: one per property). */
  readonly perProperty: number;
  /** Wall-clock deadlines (sharedWallMs), or null: when nothing was found yet, and once something was. */
  readonly deadlineMs: number | null;
  readonly deadlineFoundMs: number | null;
  /** Count coverage. */
  readonly coverage: boolean;
  /** This lane's number, when the control block has run cells for lanes: each run's number is written there first. */
  readonly lane?: number;
  /**
   * Record the run of each candidate sent (its choices again, recording on), so that the thread the fuzz is driven
   * from never runs the target (a contained fuzz of a user's module, sim/search/fuzz-workers.ts).
   */
  readonly recordCandidates?: boolean;
}

/** A run that violated a property: a counterexample not yet shrunk. */
export interface Candidate {
  readonly ordinal: number;
  /** 1-based run number (its seed is `runSeed(config.seed, run)`). */
  readonly run: number;
  readonly violation: Violation;
  readonly choices: readonly number[];
  readonly steps: number;
  readonly healSteps: number;
  /** On a real-time target, the run as it was recorded (its steps): a re-run of its choices may go otherwise. */
  readonly recorded?: RunResult;
  /**
   * The properties the simulation that found it checked, when it was the run made again without the properties that
   * ended it earlier (`eachViolation`); absent: the search's own. Its shrink and trace check the same.
   */
  readonly properties?: readonly PropertyName[];
  /** Which simulation of its run found it, from 0 (absent: 0), which orders the candidates of one run. */
  readonly pass?: number;
}

/** The properties a search checks, named: its own list, or every property of the target's level. */
export function searchedProperties(target: Target, properties: readonly PropertyName[] | null): readonly PropertyName[] {
  return properties ?? levelPropertyNames(levelOf(target)?.name);
}

/**
 * Every violation of one run. Checking fewer properties changes no step of a run, only which violation ends it, so
 * the run is made with `properties` (null: all of `all`) and, each time a violation ends it, made again without the
 * property violated, until a simulation ends with none or no property is left, or `again` says no more (asked before
 * each simulation after the first: a search that stops at its first violation, or that was told to stop now).
 * `each` is given every simulation's result with the properties it checked (null for the first when `properties` is
 * null); a promise it returns is awaited. Returns how many simulations were made. A first result that carries the
 * later ones (RunResult.later: the run went on past its violations, sim/every-violation.ts) is read instead of
 * simulating again: the same results, one simulation.
 */
export async function eachViolation(
  properties: readonly PropertyName[] | null,
  all: readonly PropertyName[],
  again: () => boolean,
  simulate: (properties: readonly PropertyName[] | null) => Promise<RunResult>,
  each: (result: RunResult, properties: readonly PropertyName[] | null) => void | Promise<void> | undefined,
): Promise<number> {
  let checked = properties;
  let simulations = 0;
  let later: readonly RunResult[] | undefined;
  for (;;) {
    const result = later === undefined ? await simulate(checked) : later[simulations - 1];
    if (result === undefined) throw new Error('assertion: a run that went on past its violations reported fewer simulations than it needs');
    if (simulations === 0) later = result.later;
    simulations += 1;
    const handled = each(result, checked);
    if (handled !== undefined) await handled;
    if (result.violation === null || !again()) return simulations;
    const violated = result.violation.property;
    const left = (checked ?? all).filter((property) => property !== violated);
    if (left.length === (checked ?? all).length) throw new Error(`assertion: a run reported ${violated}, which it did not check`);
    if (left.length === 0) return simulations;
    checked = left;
  }
}

/** What a lane reports while and after it searches. */
export interface LaneHooks {
  /** A lane in the calling thread waits for what it returns (recording a trace must not overlap its next run). */
  onCandidate(candidate: Candidate): void | Promise<void>;
  /** Runs and steps made since the previous call. */
  onProgress(runs: number, steps: number): void;
  /**
   * When given, each run is made through it: the thread's turn, for a lane in a thread that also runs the target
   * for other reasons at the same time (recording traces the other lanes found), which must never overlap a run.
   */
  turn?<T>(task: () => Promise<T>): Promise<T>;
  /**
   * A run threw (a server over the wire that crashed or stopped answering): true ends the lane there, the run not
   * counted, keeping what was done; false (or no hook) lets the error through.
   */
  onRunError?(error: unknown): boolean;
  /**
   * Asked after each run: true ends the lane there, paused, for a fresh thread to go on from the next ordinal (a
   * contained worker worn by a user's module, targets/module/wear.ts). The ordinals are shared, so nothing is lost.
   */
  pause?(): boolean;
  /** How each run is made, when not by runSimulation alone (an executor's own `run`, sim/search/fuzz.ts). */
  run?: Simulate;
  /** Asked after each run: true makes it the lane's last, not paused (the search is over). */
  last?(): boolean;
}

/** A lane's totals. */
export interface LaneOutcome {
  readonly runs: number;
  readonly steps: number;
  readonly coverage: CoverageCounts | null;
  /** True when the lane ended because `pause` said so, with ordinals maybe left for a fresh thread. */
  readonly paused?: boolean;
}

/** How often a lane reports progress and lets the event loop run (signals, messages), in ms. */
const YIELD_EVERY_MS = 50;

/** The run number of an ordinal. */
export function runOfOrdinal(shard: LanePlan['shard'], ordinal: number): number {
  return shard.index + shard.count * ordinal;
}

/** Claims the next ordinal for a lane: increasing in every lane, each ordinal claimed once. */
function claimOrdinal(control: Int32Array, runsMax: number): number {
  // Past runsMax the counter only grows by one per lane that asks, so it cannot wrap around.
  if (Atomics.load(control, CONTROL.next) >= runsMax) return runsMax;
  return Atomics.add(control, CONTROL.next, 1);
}

/** Searches one lane until the ordinals run out, or the bound, the deadline or a stop ends it. */
export async function searchLane(target: Target, plan: LanePlan, control: Int32Array, hooks: LaneHooks, coverage: CoverageCounts | null): Promise<LaneOutcome> {
  const actions = createActionList();
  const only = plan.properties === null ? {} : { properties: plan.properties };
  const observer = coverage === null ? null : new CoverageObserver(coverage);
  // On a real-time target every run is recorded: the one that finds something is kept as it ran.
  const record = target.realTime === true ? { record: true } : {};
  // Every violation of a run from one simulation (sim/every-violation.ts) where more than its first is wanted: a run
  // over the wire is then not made again either (seconds each), each violation keeping the steps it was recorded in.
  const every = plan.stopAtFirst ? {} : { everyViolation: true };
  const options = observer === null ? { ...only, ...record, ...every, actions } : { ...only, ...record, ...every, actions, coverage: observer };
  let runs = 0;
  let steps = 0;
  let runsReported = 0;
  let stepsReported = 0;
  let yieldedMs = sharedWallMs();
  const turn = hooks.turn;
  const simulateRun = hooks.run ?? runSimulation;
  /** Per finding key (sim/signature.ts), the length of the shortest candidate this lane has reported. */
  const shortestSent = new Map<string, number>();
  const all = searchedProperties(target, plan.properties);
  // The run under way, which the functions below (made once a lane, not once a run) read.
  let ordinal = 0;
  let run = 0;
  let runConfig: SimConfig = plan.config;
  let deadline: number | null = null;
  let simulated = 0;
  let violated = false;
  let paused = false;
  const simulate = (checked: readonly PropertyName[] | null): Promise<RunResult> => {
    const choices = levelWalk(runConfig, levelOf(target));
    // The first simulation is the run as a search counts it (coverage too); the ones made again check fewer properties.
    const runOptions = checked === plan.properties ? options : { ...record, actions, properties: checked! };
    const config = runConfig;
    return turn === undefined ? simulateRun(target, config, choices, runOptions) : turn(() => simulateRun(target, config, choices, runOptions));
  };
  const sendCandidate = async (result: RunResult & { readonly violation: Violation }, checked: readonly PropertyName[] | null): Promise<void> => {
    // A candidate no shorter than an earlier one of this lane for the same key is one the book drops (an
    // earlier ordinal at most as long dominates it): not sent, which on a target that fails most runs spares a
    // message per run. The first of each property always goes.
    const key = findingKey(result.violation);
    const shortest = shortestSent.get(key);
    if (shortest !== undefined && shortest <= result.choices.length) return;
    shortestSent.set(key, result.choices.length);
    // Recorded here when asked to (the run again, recording on: the same run in process), or as it ran on a real-time target.
    const config = runConfig;
    const recordRun = (): Promise<RunResult> => simulateRun(target, config, sequenceChoices(result.choices), { ...(checked === null ? {} : { properties: checked }), record: true });
    const recorded =
      target.realTime === true
        ? result
        : plan.recordCandidates === true
          ? await (turn === undefined ? recordRun() : turn(recordRun))
          : undefined;
    await hooks.onCandidate({
      ordinal,
      run,
      violation: result.violation,
      choices: result.choices,
      steps: result.steps,
      healSteps: result.healSteps,
      ...(recorded === undefined ? {} : { recorded }),
      ...(checked === plan.properties ? {} : { properties: checked!, pass: simulated - 1 }),
    });
  };
  // Most runs violate nothing: their result costs no promise.
  const onResult = (result: RunResult, checked: readonly PropertyName[] | null): Promise<void> | undefined => {
    simulated += 1;
    steps += result.steps + result.healSteps;
    if (result.violation === null) return undefined;
    violated = true;
    return sendCandidate(result as RunResult & { readonly violation: Violation }, checked);
  };
  // A stop (a signal) or the time budget ends a run's later simulations too: over the wire each takes seconds.
  const again = (): boolean => !plan.stopAtFirst && Atomics.load(control, CONTROL.stop) === 0 && (deadline === null || sharedWallMs() < deadline);
  for (ordinal = claimOrdinal(control, plan.runsMax); ordinal < plan.runsMax; ordinal = claimOrdinal(control, plan.runsMax)) {
    if (Atomics.load(control, CONTROL.stop) !== 0 || ordinal > Atomics.load(control, CONTROL.bound)) break;
    deadline = Atomics.load(control, CONTROL.found) > 0 ? plan.deadlineFoundMs : plan.deadlineMs;
    const now = sharedWallMs();
    if (deadline !== null && runs > 0 && now >= deadline) break;
    if (now - yieldedMs >= YIELD_EVERY_MS) {
      hooks.onProgress(runs - runsReported, steps - stepsReported);
      runsReported = runs;
      stepsReported = steps;
      // A synchronous target never gives the event loop a turn by itself: signals and messages wait for this.
      await macrotaskTurn();
      yieldedMs = sharedWallMs();
      if (Atomics.load(control, CONTROL.stop) !== 0 || ordinal > Atomics.load(control, CONTROL.bound)) break;
    }
    runs += 1;
    run = runOfOrdinal(plan.shard, ordinal);
    if (plan.lane !== undefined) Atomics.store(control, LANE_RUN_CELLS + plan.lane, run);
    runConfig = { ...plan.config, seed: runSeed(plan.config.seed, run) };
    simulated = 0;
    violated = false;
    try {
      await eachViolation(plan.properties, all, again, simulate, onResult);
    } catch (error) {
      // A run a stop (a signal) or its target's failure cut off is no run: the lane ends with what it did. Cut off
      // after its first simulation, the run counts, with the candidates it gave.
      if (hooks.onRunError?.(error) !== true && Atomics.load(control, CONTROL.stop) === 0) throw error;
      if (simulated === 0) runs -= 1;
      break;
    }
    // Later ordinals of this lane are all past this one: with stopAtFirst none of them can count.
    if (plan.stopAtFirst && violated) break;
    if (hooks.last?.() === true) break;
    if (hooks.pause?.() === true) {
      paused = true;
      break;
    }
  }
  hooks.onProgress(runs - runsReported, steps - stepsReported);
  observer?.finish();
  return paused ? { runs, steps, coverage, paused } : { runs, steps, coverage };
}

/** True when `candidate` was found before `other`: in an earlier run, or in the same run by an earlier simulation. */
function earlier(candidate: Candidate, other: Candidate): boolean {
  return candidate.ordinal < other.ordinal || (candidate.ordinal === other.ordinal && (candidate.pass ?? 0) < (other.pass ?? 0));
}

/**
 * The counterexamples lanes report, kept so the ones to shrink do not depend on the order they arrive in: per
 * finding key (a property and a signature, sim/signature.ts), the candidates no earlier one is as short as (a front
 * on ordinal and length, at most `stepsMax` long). A property keeps up to `perProperty` keys: the ones first seen at
 * the lowest ordinals.
 */
export class CandidateBook {
  private readonly fronts = new Map<string, Candidate[]>();
  /** Per property, the keys seen for it. */
  private readonly keys = new Map<PropertyName, string[]>();

  constructor(private readonly options: { readonly stopAtFirst: boolean; readonly propertiesChecked: number; readonly perProperty?: number }) {}

  private get perProperty(): number {
    return this.options.perProperty ?? 1;
  }

  /** Files a candidate; true when it is the first of its key seen (in arrival order). */
  offer(candidate: Candidate): boolean {
    const key = findingKey(candidate.violation);
    const front = this.fronts.get(key);
    if (front === undefined) {
      this.fronts.set(key, [candidate]);
      const property = candidate.violation.property;
      this.keys.set(property, [...(this.keys.get(property) ?? []), key]);
      return true;
    }
    // Kept when no candidate of a lower ordinal is at least as short; drops those it now dominates.
    if (front.some((other) => other.ordinal < candidate.ordinal && other.choices.length <= candidate.choices.length)) return false;
    const kept = front.filter((other) => !(other.ordinal > candidate.ordinal && other.choices.length >= candidate.choices.length));
    kept.push(candidate);
    kept.sort((left, right) => left.ordinal - right.ordinal);
    this.fronts.set(key, kept);
    return false;
  }

  /** True while a violation's key is among the first `perProperty` keys of its property to arrive. */
  mayKeep(violation: Violation): boolean {
    const keys = this.keys.get(violation.property) ?? [];
    return keys.indexOf(findingKey(violation)) < this.perProperty;
  }

  /** How many properties have a candidate. */
  get size(): number {
    return this.keys.size;
  }

  /** The first ordinal of a key. */
  private first(key: string): number {
    return this.fronts.get(key)![0]!.ordinal;
  }

  /** A property's keys by their first ordinal (ties: by key), all of them. */
  private keysInOrder(property: PropertyName): string[] {
    return [...(this.keys.get(property) ?? [])].sort((left, right) => this.first(left) - this.first(right) || (left < right ? -1 : left > right ? 1 : 0));
  }

  /**
   * The highest ordinal that counts, as far as the candidates so far tell (BOUND_NONE when not yet known): with
   * stopAtFirst, the first violating ordinal; otherwise, once every checked property has `perProperty` keys, the
   * ordinal by which the last of them had its `perProperty`-th.
   */
  bound(): number {
    if (this.keys.size === 0) return BOUND_NONE;
    if (this.options.stopAtFirst) return Math.min(...[...this.fronts.keys()].map((key) => this.first(key)));
    if (this.keys.size < this.options.propertiesChecked) return BOUND_NONE;
    let bound = 0;
    for (const property of this.keys.keys()) {
      const ordered = this.keysInOrder(property);
      if (ordered.length < this.perProperty) return BOUND_NONE;
      bound = Math.max(bound, this.first(ordered[this.perProperty - 1]!));
    }
    return bound;
  }

  /**
   * The candidates to shrink, in the order their properties were first violated (by ordinal), each property's in the
   * order their keys were: with stopAtFirst, the first violating run alone; otherwise, per property, its first
   * `perProperty` keys among the counted runs, the shortest counted candidate of each.
   */
  chosen(): Candidate[] {
    const bound = this.bound();
    const groups: { first: Candidate; picks: Candidate[] }[] = [];
    for (const property of this.keys.keys()) {
      const picks: Candidate[] = [];
      for (const key of this.keysInOrder(property)) {
        if (picks.length >= this.perProperty) break;
        const counted = this.fronts.get(key)!.filter((candidate) => candidate.ordinal <= bound);
        if (counted.length === 0) continue;
        const shortest = counted.reduce((best, candidate) =>
          candidate.choices.length < best.choices.length || (candidate.choices.length === best.choices.length && candidate.ordinal < best.ordinal) ? candidate : best,
        );
        picks.push(this.options.stopAtFirst ? counted[0]! : shortest);
      }
      if (picks.length > 0) {
        const firsts = picks.map((pick) => this.fronts.get(findingKey(pick.violation))![0]!);
        groups.push({ first: firsts.reduce((best, candidate) => (earlier(candidate, best) ? candidate : best)), picks });
      }
    }
    // By the run that first violated each property; in one run, by the simulation that did (see eachViolation).
    groups.sort((left, right) => left.first.ordinal - right.first.ordinal || (left.first.pass ?? 0) - (right.first.pass ?? 0));
    if (this.options.stopAtFirst) {
      // The first violating run alone: of all keys, the lowest first ordinal.
      const all = groups.flatMap((group) => group.picks);
      const firstRun = all.reduce<Candidate | null>((best, candidate) => (best === null || candidate.ordinal < best.ordinal ? candidate : best), null);
      return firstRun === null ? [] : [firstRun];
    }
    return groups.flatMap((group) => group.picks);
  }
}
