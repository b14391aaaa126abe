// The reduced exhaustive search, breadth first: every distinct world is expanded once overall (not once per
// deepening) and judged once (its liveness phase and final checks), level by level, so the first violation met is a
// shortest one. Equal worlds are merged by key (sim/state-key.ts); with `independence`, sleep sets (sim/independence.ts)
// skip the second order of two actions that commute. A level's worlds are kept as choice paths, not as copies of
// the world: consecutive paths share their prefixes, and a stack of snapshots along the last path takes the search
// back to a shared prefix's end in one restore and one step per level that differs.

import { checkedProperties } from '../properties/index.ts';
import type { PropertyName } from '../properties/names.ts';
import type { Target } from '../targets/target.ts';
import { monotonicMs } from './clock.ts';
import type { SimConfig } from './config.ts';
import { SteppedRun } from './engine.ts';
import { EVERY_CLIENT, footprintOf, independent, isEntangled } from './independence.ts';
import { type WorldSnapshot, canSnapshot, captureWorld, restoreWorld } from './snapshot.ts';
import { KeyNames, worldKey } from './state-key.ts';

/** How far the breadth-first search may go, and what it may hold. */
export interface FrontierOptions {
  readonly depthMax: number;
  /** Steps taken at the most (each a sequence one longer than a distinct world's). */
  readonly runsMax: number;
  readonly only?: PropertyName;
  /** Skip the second order of independent actions (sleep sets); default true. */
  readonly independence?: boolean;
  readonly timeMs?: number;
  /** Distinct worlds remembered at the most (default {@link STATES_MAX}). */
  readonly statesMax?: number;
  /** Worlds of one level waiting to be expanded, at the most (default {@link FRONTIER_MAX}). */
  readonly frontierMax?: number;
}

/** What the breadth-first search found. */
export interface FrontierOutcome {
  readonly choices: number[] | null;
  readonly property: PropertyName | null;
  readonly runs: number;
  readonly runsLastDepth: number;
  readonly depthCleared: number;
  /**
   * Worlds judged (each with its liveness phase): the distinct worlds short of the last depth, and every world met
   * at the last depth (not keyed: judging one costs less than keying it).
   */
  readonly states: number;
  /** Steps not taken because a sleep set held them (the other order of independent actions was taken). */
  readonly slept: number;
  /** Why the search stopped short of the depth asked for: a budget, or null. */
  readonly budget: 'runs' | 'time' | 'states' | 'frontier' | null;
}

/**
 * Distinct worlds remembered at the most: a visited entry is a number in a Map (about 40 bytes), and a Map holds
 * 2^24 entries at the most.
 */
export const STATES_MAX = 12_000_000;

/**
 * A level's worlds waiting to be expanded, at the most: each is its choice path (2 bytes a step) and its sleep set
 * (a few numbers), about 100 bytes at depth 8, so the bound is about 400 MB.
 */
export const FRONTIER_MAX = 4_000_000;

/** Action numbers are packed as kind·2^20 + a·2^10 + b: a and b stay below 1024 (ACTIONS_MAX). */
function packAction(kind: number, a: number, b: number): number {
  return kind * 1048576 + a * 1024 + b;
}

/** One level of the search: the worlds first met at this depth, as choice paths, with their sleep sets. */
class Level {
  count = 0;
  paths: Uint16Array;
  /** Per world, its sleep set as [action, footprint, action, footprint, ...], or null for an empty one. */
  readonly sleeps: (number[] | null)[] = [];

  constructor(readonly depth: number) {
    this.paths = new Uint16Array(Math.max(1, depth) * 1024);
  }

  push(prefix: Uint16Array, prefixAt: number, choice: number, sleep: number[] | null): number {
    const depth = this.depth;
    if ((this.count + 1) * depth > this.paths.length) {
      const grown = new Uint16Array(this.paths.length * 2);
      grown.set(this.paths);
      this.paths = grown;
    }
    const at = this.count * depth;
    for (let step = 0; step < depth - 1; step += 1) this.paths[at + step] = prefix[prefixAt + step]!;
    this.paths[at + depth - 1] = choice;
    this.sleeps.push(sleep);
    this.count += 1;
    return this.count - 1;
  }
}

/** True when a packed sleep set holds `action`. */
function sleeps(set: readonly number[] | null, action: number): boolean {
  if (set === null) return false;
  for (let at = 0; at < set.length; at += 2) if (set[at] === action) return true;
  return false;
}

/** Runs the breadth-first search on a target that can snapshot its state. */
export async function exploreFrontier(target: Target, config: SimConfig, options: FrontierOptions): Promise<FrontierOutcome> {
  const run = await SteppedRun.open(target, config, checkedProperties(options.only));
  if (run === null) throw new Error('the breadth-first search needs a synchronous target');
  try {
    return search(run, options);
  } finally {
    await run.close();
  }
}

function search(run: SteppedRun, options: FrontierOptions): FrontierOutcome {
  const world = run.world;
  if (!canSnapshot(world)) throw new Error('the target offered a state key but no snapshot');
  const useIndependence = options.independence !== false;
  const statesMax = options.statesMax ?? STATES_MAX;
  const frontierMax = options.frontierMax ?? FRONTIER_MAX;
  const deadline = options.timeMs === undefined ? null : monotonicMs() + options.timeMs;
  const names = new KeyNames();
  // hash → check·64 + the shallowest depth met (as the replaying search packs it).
  const visited = new Map<number, number>();
  let runs = 0;
  let runsLastDepth = 0;
  let slept = 0;
  let leaves = 0;
  const outcome = (choices: number[] | null, depthCleared: number, budget: FrontierOutcome['budget']): FrontierOutcome => ({
    choices,
    property: choices === null ? null : (world.violation?.property ?? null),
    runs,
    runsLastDepth,
    depthCleared,
    states: visited.size - 1 + leaves,
    slept,
    budget,
  });
  const root = captureWorld(world);
  visited.set(worldKey(world, names)!.hash, worldKey(world, names)!.check * 64);
  let level = new Level(0);
  level.count = 1;
  level.sleeps.push(null);
  // The snapshots along the last path regenerated: stack[i] is the world after its first i choices.
  const stack: WorldSnapshot[] = [root];
  const stackPath: number[] = [];
  // The enabled actions of the world being expanded, copied (restoring refills the run's list).
  const actions: number[] = [];
  const footprints: number[] = [];
  const done: number[] = [];
  for (let depth = 0; depth < options.depthMax; depth += 1) {
    const childDepth = depth + 1;
    const next = childDepth < options.depthMax ? new Level(childDepth) : null;
    // The next level's worlds by hash, for a second path reaching one of them (its sleep set is then dropped).
    const nextIndex = new Map<number, number>();
    runsLastDepth = 0;
    stack.length = Math.min(stack.length, 1);
    stackPath.length = 0;
    for (let entry = 0; entry < level.count; entry += 1) {
      const at = entry * depth;
      // Back to the longest prefix shared with the last path, then forward along this one.
      let shared = 0;
      while (shared < stackPath.length && shared < depth && stackPath[shared] === level.paths[at + shared]) shared += 1;
      shared = Math.min(shared, stack.length - 1);
      stack.length = shared + 1;
      stackPath.length = shared;
      let atHere = false;
      for (let step = shared; step < depth; step += 1) {
        restoreWorld(world, stack[step]!);
        run.enabled();
        const choice = level.paths[at + step]!;
        run.step(choice);
        stack.push(captureWorld(world));
        stackPath.push(choice);
        atHere = true;
      }
      const here = stack[depth]!;
      if (!atHere) restoreWorld(world, here);
      const list = run.enabled();
      const count = list.count;
      actions.length = 0;
      footprints.length = 0;
      for (let choice = 0; choice < count; choice += 1) {
        actions.push(packAction(list.kind[choice]!, list.a[choice]!, list.b[choice]!));
        footprints.push(useIndependence ? footprintOf(world, list.kind[choice]!, list.a[choice]!) : EVERY_CLIENT);
      }
      const sleep = level.sleeps[entry]!;
      // From a world whose clients are tied together, nothing is taken as independent.
      const reduceHere = useIndependence && !isEntangled(world);
      done.length = 0;
      let dirty = false;
      for (let choice = 0; choice < count; choice += 1) {
        const action = actions[choice]!;
        if (sleeps(sleep, action)) {
          slept += 1;
          continue;
        }
        if (runs >= options.runsMax) return outcome(null, depth, 'runs');
        if (deadline !== null && (runs & 255) === 0 && monotonicMs() >= deadline) return outcome(null, depth, 'time');
        if (dirty) restoreWorld(world, here);
        dirty = true;
        // Taken by its (kind, a, b): a restored world's actions need not be listed again.
        run.take(action >>> 20, (action >>> 10) & 1023, action & 1023);
        runs += 1;
        runsLastDepth += 1;
        // A violation in the step: every shorter sequence was judged, so it is a shortest one.
        if (world.violation !== null) return outcome([...stackPath, choice], depth, null);
        // At the last depth a world is only judged: judging it (its liveness phase, a few microseconds) costs less
        // than keying it to find out whether an equal one was judged already.
        if (next === null) {
          leaves += 1;
          if (run.finish() !== null) return outcome([...stackPath, choice], depth, null);
          continue;
        }
        const key = worldKey(world, names);
        if (key === null) throw new Error('a target that offered a state key stopped offering one');
        const entryOld = visited.get(key.hash);
        const same = entryOld !== undefined && Math.floor(entryOld / 64) === key.check;
        done.push(action, footprints[choice]!);
        if (same) {
          // Met before: at a shallower depth (expanded there, with more steps left), or at this one.
          if (entryOld % 64 === childDepth) {
            const index = nextIndex.get(key.hash);
            if (index !== undefined && next !== null) next.sleeps[index] = null;
          }
          continue;
        }
        // Another world under a known hash (about one in 2^85 pairs) is judged and expanded, but not remembered.
        if (entryOld === undefined) {
          if (visited.size >= statesMax) return outcome(null, depth, 'states');
          visited.set(key.hash, key.check * 64 + childDepth);
        }
        if (run.finish() !== null) return outcome([...stackPath, choice], depth, null);
        if (next.count >= frontierMax) return outcome(null, depth, 'frontier');
        let childSleep: number[] | null = null;
        if (reduceHere) {
          const footprint = footprints[choice]!;
          // Z' = { z ∈ Z ∪ done-before-this : z independent of this }.
          if (sleep !== null) {
            for (let index = 0; index < sleep.length; index += 2) {
              if (independent(sleep[index + 1]!, footprint)) (childSleep ??= []).push(sleep[index]!, sleep[index + 1]!);
            }
          }
          for (let index = 0; index < done.length - 2; index += 2) {
            if (independent(done[index + 1]!, footprint)) (childSleep ??= []).push(done[index]!, done[index + 1]!);
          }
        }
        const index = next.push(level.paths, at, choice, childSleep);
        if (entryOld === undefined) nextIndex.set(key.hash, index);
      }
    }
    if (next === null) break;
    level = next;
    if (level.count === 0) return outcome(null, options.depthMax, null);
  }
  return outcome(null, options.depthMax, null);
}
