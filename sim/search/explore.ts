// Exhaustive exploration: every choice sequence up to a depth, shortest first. The first violation found is a
// shortest counterexample, which proves the minimum a shrinker should reach.
//
// Without the reduction every sequence is run, by iterative deepening. With it (`reduce: true`) equal worlds are
// merged: equal keys (sim/search/state-key.ts) mean equal futures (the same actions, answers and monitor verdicts, the
// liveness phase included), so a world is explored only the first time, at the shallowest depth, it is reached. It
// needs the target's own key (ServerInstance.stateKey). Where the target can also snapshot its state, the search is
// breadth first from snapshots, each distinct world expanded once, with sleep sets over independent actions
// (sim/search/frontier-search.ts, sim/search/independence.ts); `snapshots: false` keeps the replaying, iteratively deepening one.

import type { PropertyName } from '../../properties/names.ts';
import { checkedProperties } from '../../properties/index.ts';
import { CLIENT_PROPERTIES } from '../../properties/clients/index.ts';
import type { Target } from '../../targets/target.ts';
import { createActionList } from '../actions.ts';
import type { SimConfig } from '../config.ts';
import { macrotaskTurn, monotonicMs } from '../clock.ts';
import { type ChoiceSource, runSimulation } from '../engine.ts';
import { exploreFrontier } from './frontier-search.ts';
import { KeyNames, NO_TARGET_KEY, worldKey } from './state-key.ts';
import type { World } from '../world.ts';
import { levelOf } from '../levels/level.ts';

/** The outcome of an exhaustive exploration. */
export interface ExploreOutcome {
  /** A shortest violating choice sequence, or null when none exists up to the depth. */
  readonly choices: readonly number[] | null;
  readonly property: PropertyName | null;
  /** Sequences run: without the reduction each deepening counted again; breadth first, one step from each distinct world per enabled action. */
  readonly runs: number;
  /** The depth searched completely without a violation (one less than the counterexample's length, if found). */
  readonly depthCleared: number;
  /**
   * With the reduction, the worlds judged: breadth first, the distinct ones short of the last depth and every one
   * met at it (judged without a key); replaying, the distinct worlds of the deepest search. Null without it.
   */
  readonly states: number | null;
  /** Sequences of the deepest search alone (breadth first: those of the full length). */
  readonly runsLastDepth: number;
  /** Whether worlds were merged; when asked for and not possible, why not. */
  readonly reduction: { readonly applied: boolean; readonly why: string | null };
  /** Whether prefixes' ends were restored from snapshots rather than replayed. */
  readonly snapshots: boolean;
  /** True when the search stopped at `runsMax` or `timeMs` before clearing the depth asked for. */
  readonly budgetSpent: boolean;
  /** Which budget stopped it: steps, time, or (the breadth-first search) the distinct worlds or one level's worlds it may hold. */
  readonly budget: 'runs' | 'time' | 'states' | 'frontier' | 'interrupted' | null;
  /** Whether independent actions were taken in one order only (sleep sets, breadth-first search). */
  readonly independence: boolean;
  /** Steps a sleep set skipped (0 without). */
  readonly slept: number;
  /** Threads the wide depths were shared out among (1 but breadth first with workers asked for and a depth of 2 048 worlds or more). */
  readonly threads: number;
  /**
   * Interrupted breadth first: of the `of` worlds of depth `depthCleared`, those whose every step (into the depth
   * being searched) was taken; null otherwise, and for the replaying searches.
   */
  readonly searched: { readonly worlds: number; readonly of: number } | null;
}

/** How to explore. */
export interface ExploreOptions {
  readonly depthMax: number;
  readonly runsMax: number;
  /** Check only this property (the others are not checked, so a run does not stop at them). */
  readonly only?: PropertyName;
  /** Merge equal worlds (default false: every sequence is run). */
  readonly reduce?: boolean;
  /** Wall-clock budget in ms: only decides when to stop (as `runsMax` does), never what a run does. */
  readonly timeMs?: number;
  /**
   * With the reduction: search breadth first from snapshots where the target allows it (default true), or deepen
   * iteratively, replaying each prefix.
   */
  readonly snapshots?: boolean;
  /** With the reduction, breadth first: take independent actions in one order only (sleep sets; default true). */
  readonly independence?: boolean;
  /** Breadth first: distinct worlds remembered at the most (sim/search/frontier-search.ts STATES_MAX). */
  readonly statesMax?: number;
  /** Breadth first: one level's worlds waiting to be expanded, at the most (FRONTIER_MAX). */
  readonly frontierMax?: number;
  /** Breadth first: threads to share each wide depth out among, this one included (default 1; the outcome is the same for any number). */
  readonly threads?: number;
  /** Breadth first: worlds of a depth at least, for the threads to share its expansion out. */
  readonly threadsFrom?: number;
  /** Breadth first, threads: entries a thread claims at a time (sim/search/explore-workers.ts CHUNK_ENTRIES). */
  readonly chunkEntries?: number;
  /**
   * Ends the search (SIGINT, SIGTERM): the outcome then says `interrupted` and the depth it cleared. Checked, with a
   * turn of the event loop, every 256 sequences of a replaying search and every few hundred worlds breadth first.
   */
  readonly signal?: AbortSignal;
  /**
   * Told as each depth's search starts: the depth, and breadth first the worlds of the depth before it whose steps
   * lead there (null for the replaying searches, which do not count them).
   */
  readonly onDepth?: (depth: number, worlds: number | null) => void;
}

/** Replays `prefix` exactly, then stops, remembering how many actions were enabled after it. */
export function prefixChoices(prefix: readonly number[], seen: { enabledAfter: number }): ChoiceSource {
  let next = 0;
  return {
    choose: (_world, list) => {
      if (next < prefix.length) return prefix[next++]!;
      seen.enabledAfter = list.count;
      return null;
    },
  };
}

/**
 * Thrown by the keyed choice source to end a run at the end of its prefix, where no liveness phase is needed. Not
 * an Error: it is thrown for most runs of a search, and capturing a stack trace each time cost 8% of it.
 */
const PREFIX_DONE: unique symbol = Symbol('prefix done');

/**
 * Replays `prefix`, then keys the world. A world met before at this depth or a shallower one ends the run (its
 * twin was explored with at least as many steps left); a new one is recorded and, short of the search's full
 * depth, ends the run with `expand` set (it was judged by a shallower search; its successors are next). At the
 * full depth a new world goes on to its liveness phase and final checks.
 */
class KeyedPrefix implements ChoiceSource {
  private next = 0;
  enabledAfter = 0;
  expand = false;

  constructor(
    private readonly prefix: readonly number[],
    private readonly full: boolean,
    private readonly visited: Map<number, number>,
    private readonly names: KeyNames,
  ) {}

  choose(world: World, list: { readonly count: number }): number | null {
    if (this.next < this.prefix.length) return this.prefix[this.next++]!;
    this.enabledAfter = list.count;
    const key = worldKey(world, this.names);
    if (key === null) throw new Error('a target that offered a state key stopped offering one');
    const { hash, check } = key;
    const depth = this.prefix.length;
    const entry = this.visited.get(hash);
    // An entry packs the check hash and the shallowest depth (6 bits). Another check under the same hash is
    // another world: it is explored but cannot be recorded (slower if it recurs, never unsound).
    const same = entry !== undefined && Math.floor(entry / 64) === check;
    if (same && entry % 64 <= depth) throw PREFIX_DONE;
    if (entry === undefined || same) this.visited.set(hash, check * 64 + depth);
    if (this.full) return null;
    this.expand = true;
    throw PREFIX_DONE;
  }
}

/** Deepest search the reduction packs into its visited entries. */
const REDUCED_DEPTH_MAX = 63;

/**
 * Explores every choice sequence of length 1..depthMax (each step's choice ranging over that step's enabled
 * actions), shortest first. Stops at the first violation (of `only`, when given) or after `runsMax` runs.
 */
export async function explore(target: Target, config: SimConfig, options: ExploreOptions): Promise<ExploreOutcome> {
  if (options.depthMax > config.stepsMax) throw new RangeError(`depth ${options.depthMax} is beyond the config's ${config.stepsMax} steps`);
  if (options.reduce === true) {
    const why = await reductionUnavailable(target, config);
    if (why === null) return options.snapshots === false ? exploreReduced(target, config, options) : exploreFromSnapshots(target, config, options);
    return { ...(await exploreAll(target, config, options)), reduction: { applied: false, why } };
  }
  return exploreAll(target, config, options);
}

/**
 * The properties a search of `target` checks: `only`, or every one of the target's level but the notes (a client
 * target is judged by the client properties; the server level's would find nothing to judge there).
 */
export function exploredProperties(target: Target, only: PropertyName | undefined): { readonly properties: readonly PropertyName[] } {
  if (only !== undefined || levelOf(target) === undefined) return checkedProperties(only);
  // The client properties have no notes (their severities are MUST, SHOULD and advice): every one is checked.
  return { properties: CLIENT_PROPERTIES.map((property) => property.name) };
}

/** Why the reduction cannot be used on `target`, or null when it can. */
export async function reductionUnavailable(target: Target, config: SimConfig): Promise<string | null> {
  // Another level's world (a real client's) offers neither a key nor a snapshot: every prefix is replayed.
  if (levelOf(target) !== undefined) return 'a client-level target: its world (a real SDK client) can be neither keyed nor snapshotted, so every prefix is replayed';
  const run = await target.open({ windowEventsMax: config.windowEventsMax, seed: config.seed });
  try {
    if (!run.sync) return 'the target is asynchronous: only the full search applies';
    const instance = run.boot({ epoch: 1 }, PROBE_HOST);
    // Snapshots come with a key: a target offering a key only is explored by replaying prefixes.
    const keyed = instance.stateKey !== undefined;
    instance.dispose();
    return keyed ? null : NO_TARGET_KEY;
  } finally {
    await run.close();
  }
}

/** A host for booting a target only to ask what it offers; a booted server calls nothing before a request. */
const PROBE_HOST = {
  frame: () => undefined,
  end: () => undefined,
  startExecution: () => 0,
  nextStep: () => ({ kind: 'result' as const, result: {} }),
  cancelled: () => undefined,
  random: () => 0,
};

/** When a search with a time budget must stop (checked every 256 runs), or null. */
function deadlineOf(options: ExploreOptions): number | null {
  return options.timeMs === undefined ? null : monotonicMs() + options.timeMs;
}

/** A violating sequence found by a depth-first visit. */
type Found = { choices: number[]; property: PropertyName };

/** What the two replaying searches count as they go. */
interface Counts {
  runs: number;
  runsLastDepth: number;
}

/** True when a replaying search has spent its run or time budget (the clock read every 256 runs). */
function overBudget(counts: Counts, options: ExploreOptions, deadline: number | null): boolean {
  return counts.runs >= options.runsMax || (deadline !== null && (counts.runs & 255) === 0 && monotonicMs() >= deadline);
}

/** True when a signal ended a replaying search: every 256 runs the event loop gets a turn, for the signal's handler. */
async function interrupted(counts: Counts, options: ExploreOptions): Promise<boolean> {
  if (options.signal === undefined || (counts.runs & 255) !== 0) return false;
  await macrotaskTurn();
  return options.signal.aborted;
}

/** Counts one more run of a replaying search, or says the budget or a signal ended it (false). */
async function takeRun(counts: Counts, options: ExploreOptions, deadline: number | null): Promise<boolean> {
  if (overBudget(counts, options, deadline) || (await interrupted(counts, options))) return false;
  counts.runs += 1;
  counts.runsLastDepth += 1;
  return true;
}

/**
 * Iterative deepening for the replaying searches: `visit` searches every prefix up to `depth` depth first; the first
 * depth with a violation gives a shortest counterexample. `startDepth` runs before each depth's search.
 */
async function deepen(
  options: ExploreOptions,
  counts: Counts,
  visit: (prefix: number[], depth: number) => Promise<Found | null | 'budget'>,
  search: { readonly reduced: boolean; readonly states: () => number | null; readonly startDepth?: () => void },
): Promise<ExploreOutcome> {
  const outcome = (found: Found | null, depthCleared: number, budgetSpent: boolean): ExploreOutcome => ({
    choices: found?.choices ?? null,
    property: found?.property ?? null,
    runs: counts.runs,
    depthCleared,
    states: search.states(),
    runsLastDepth: counts.runsLastDepth,
    reduction: { applied: search.reduced, why: null },
    snapshots: false,
    budgetSpent,
    budget: budgetSpent ? (options.signal?.aborted === true ? 'interrupted' : counts.runs >= options.runsMax ? 'runs' : 'time') : null,
    independence: false,
    slept: 0,
    threads: 1,
    searched: null,
  });
  for (let depth = 1; depth <= options.depthMax; depth += 1) {
    counts.runsLastDepth = 0;
    options.onDepth?.(depth, null);
    search.startDepth?.();
    const found = await visit([], depth);
    if (found === 'budget') return outcome(null, depth - 1, true);
    if (found !== null) return outcome(found, depth - 1, false);
  }
  return outcome(null, options.depthMax, false);
}

async function exploreAll(target: Target, config: SimConfig, options: ExploreOptions): Promise<ExploreOutcome> {
  const deadline = deadlineOf(options);
  const counts: Counts = { runs: 0, runsLastDepth: 0 };
  const actions = createActionList();
  const checked = exploredProperties(target, options.only);
  const visit = async (prefix: number[], depth: number): Promise<Found | null | 'budget'> => {
    if (!(await takeRun(counts, options, deadline))) return 'budget';
    const seen = { enabledAfter: 0 };
    // With `only`, the other properties are not checked: a run must not stop at them before reaching it.
    const result = await runSimulation(target, config, prefixChoices(prefix, seen), { ...checked, actions });
    if (result.violation !== null) {
      // A violation before the prefix ended was found at a shorter depth already; only a full-length one is new.
      return result.choices.length === prefix.length ? { choices: prefix, property: result.violation.property } : null;
    }
    if (prefix.length === depth) return null;
    for (let choice = 0; choice < seen.enabledAfter; choice += 1) {
      const found = await visit([...prefix, choice], depth);
      if (found !== null) return found;
    }
    return null;
  };
  return deepen(options, counts, visit, { reduced: false, states: () => null });
}

async function exploreReduced(target: Target, config: SimConfig, options: ExploreOptions): Promise<ExploreOutcome> {
  if (options.depthMax > REDUCED_DEPTH_MAX) throw new RangeError(`the reduced search goes to depth ${REDUCED_DEPTH_MAX} at the most`);
  const deadline = deadlineOf(options);
  const counts: Counts = { runs: 0, runsLastDepth: 0 };
  let visited = new Map<number, number>();
  const names = new KeyNames();
  const actions = createActionList();
  const checked = exploredProperties(target, options.only);
  const visit = async (prefix: number[], depth: number): Promise<Found | null | 'budget'> => {
    if (!(await takeRun(counts, options, deadline))) return 'budget';
    const source = new KeyedPrefix(prefix, prefix.length === depth, visited, names);
    let result;
    try {
      result = await runSimulation(target, config, source, { ...checked, actions });
    } catch (error) {
      if (error !== PREFIX_DONE) throw error;
      if (!source.expand) return null;
      for (let choice = 0; choice < source.enabledAfter; choice += 1) {
        const found = await visit([...prefix, choice], depth);
        if (found !== null) return found;
      }
      return null;
    }
    // A run that ended without reaching the end of its prefix's choices (nothing enabled) or at the full depth.
    if (result.violation !== null) {
      return result.choices.length === prefix.length ? { choices: prefix, property: result.violation.property } : null;
    }
    return null;
  };
  // Each depth's search merges its own worlds: a world first met deeper is explored again when met shallower.
  return deepen(options, counts, visit, {
    reduced: true,
    states: () => visited.size,
    startDepth: () => {
      visited = new Map();
    },
  });
}

/** The breadth-first reduced search (sim/search/frontier-search.ts), in this module's outcome. */
async function exploreFromSnapshots(target: Target, config: SimConfig, options: ExploreOptions): Promise<ExploreOutcome> {
  if (options.depthMax > REDUCED_DEPTH_MAX) throw new RangeError(`the reduced search goes to depth ${REDUCED_DEPTH_MAX} at the most`);
  // The options it shares with the breadth-first search are that search's own (sleep sets on unless switched off).
  const found = await exploreFrontier(target, config, options);
  return {
    choices: found.choices,
    property: found.property,
    runs: found.runs,
    depthCleared: found.depthCleared,
    states: found.states,
    runsLastDepth: found.runsLastDepth,
    reduction: { applied: true, why: null },
    snapshots: true,
    budgetSpent: found.budget !== null,
    budget: found.budget,
    independence: options.independence !== false,
    slept: found.slept,
    threads: found.threads,
    searched: found.searched,
  };
}
