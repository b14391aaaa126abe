// The reduced exhaustive search, breadth first: every distinct world is expanded once overall (not once per
// deepening) and judged once (its liveness phase and final checks), level by level, so the first violation met is a
// shortest one. Equal worlds are merged by key (sim/search/state-key.ts); with `independence`, sleep sets (sim/search/independence.ts)
// skip the second order of two actions that commute. A level's worlds are kept as choice paths, not as copies of
// the world: consecutive paths share their prefixes, and a stack of snapshots along the last path takes the search
// back to a shared prefix's end in one restore and one step per level that differs. A wide depth is shared out
// among threads (sim/search/explore-workers.ts) in chunks read back in order, so the outcome is one thread's.

import { checkedProperties } from '../../properties/index.ts';
import { CLIENT_PROPERTY_NAMES, PROPERTY_NAMES, type PropertyName } from '../../properties/names.ts';
import type { Target } from '../../targets/target.ts';
import { macrotaskTurn, sharedWallMs } from '../clock.ts';
import { PARALLEL_LEVEL_MIN, type SimConfig } from '../config.ts';
import { SteppedRun } from '../engine.ts';
import { EVERY_CLIENT, footprintOf, independent, isEntangled } from './independence.ts';
import { type WorldSnapshot, canSnapshot, captureWorld, restoreWorld } from './snapshot.ts';
import type { World } from '../world.ts';
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
  /**
   * Threads to share each wide depth out among, this one included (default 1): workers that find the target
   * by its name. The outcome is the same for any number: the worlds are judged in chunks, and the chunks are read
   * in order, as one thread would have met them.
   */
  readonly threads?: number;
  /** Worlds of a depth at least, for the threads to share its expansion out (default {@link PARALLEL_LEVEL_MIN}). */
  readonly threadsFrom?: number;
  /**
   * Entries of a depth shared out that a thread claims at a time (default CHUNK_ENTRIES, sim/search/explore-workers.ts).
   * Only how the work is cut: the outcome is the same for any size.
   */
  readonly chunkEntries?: number;
  /**
   * Ends the search (a signal): checked between depths, every {@link INTERRUPT_CHECK_ENTRIES} entries of a depth
   * searched or merged in this thread, and after each chunk this thread takes of a depth shared out, when the event
   * loop is given a turn; the outcome's budget is then `interrupted`.
   */
  readonly signal?: AbortSignal;
  /** Told as each depth's search starts: the depth, and the worlds of the depth before it whose steps lead there. */
  readonly onDepth?: (depth: number, worlds: number) => void;
}

/** Entries of a depth expanded or judged in this thread between two turns of the event loop, when a signal may stop it. */
export const INTERRUPT_CHECK_ENTRIES = 512;

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
  /** Why the search stopped short of the depth asked for: a budget, a signal (`interrupted`), or null. */
  readonly budget: 'runs' | 'time' | 'states' | 'frontier' | 'interrupted' | null;
  /**
   * Interrupted: of the `of` worlds of depth `depthCleared` whose steps the depth being searched takes, those whose
   * every step was taken (in any order, by any thread); null otherwise.
   */
  readonly searched: { readonly worlds: number; readonly of: number } | null;
  /** Threads the wide depths were shared out among (1 unless workers were asked for and a depth was wide enough). */
  readonly threads: number;
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
export class Level {
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
  // Other threads, for the wide depths: started a depth before the first (so that they load while this one expands
  // it); a search that never gets wide starts none.
  let pool: Promise<LevelPool | null> | null = null;
  const startPool =
    (options.threads ?? 1) > 1
      ? (): Promise<LevelPool | null> => {
          if (pool === null) {
            pool = startLevelPool(target, config, options);
            // Awaited at the first wide depth; a failure to start is reported there, not as an unhandled rejection.
            pool.catch(() => undefined);
          }
          return pool;
        }
      : null;
  try {
    return await search(run, options, startPool);
  } finally {
    const started: LevelPool | null = pool === null ? null : await (pool as Promise<LevelPool | null>).catch(() => null);
    await started?.close();
    await run.close();
  }
}

/**
 * The world of one level's entry after another, each reached from the snapshot of the longest prefix it shares
 * with the entry before it (a stack of snapshots along the last path), and its enabled actions listed.
 */
export class Walker {
  readonly world: World;
  /** The snapshots along the last path regenerated: stack[i] is the world after its first i choices. */
  private readonly stack: WorldSnapshot[];
  private readonly stackPath: number[] = [];
  /** The enabled actions of the world reached, packed, and their footprints (restoring refills the run's list). */
  readonly actions: number[] = [];
  readonly footprints: number[] = [];

  constructor(
    readonly run: SteppedRun,
    private readonly useIndependence: boolean,
  ) {
    this.world = run.world;
    if (!canSnapshot(this.world)) throw new Error('the target offered a state key but no snapshot');
    this.stack = [captureWorld(this.world)];
  }

  /** Forgets the path walked last (a new level's paths are one step longer). */
  reset(): void {
    this.stack.length = 1;
    this.stackPath.length = 0;
  }

  /** The path walked last. */
  path(): readonly number[] {
    return this.stackPath;
  }

  /** Takes the world to the end of `depth` choices at `paths[at..]` and returns its snapshot. */
  goTo(paths: Uint16Array, at: number, depth: number): WorldSnapshot {
    const { world, run, stack, stackPath } = this;
    // Back to the longest prefix shared with the last path, then forward along this one.
    let shared = 0;
    while (shared < stackPath.length && shared < depth && stackPath[shared] === paths[at + shared]) shared += 1;
    shared = Math.min(shared, stack.length - 1);
    stack.length = shared + 1;
    stackPath.length = shared;
    let atHere = false;
    for (let step = shared; step < depth; step += 1) {
      restoreWorld(world, stack[step]!);
      run.enabled();
      const choice = paths[at + step]!;
      run.step(choice);
      stack.push(captureWorld(world));
      stackPath.push(choice);
      atHere = true;
    }
    const here = stack[depth]!;
    if (!atHere) restoreWorld(world, here);
    return here;
  }

  /** Lists the actions enabled in the world reached (with their footprints); returns how many. */
  list(): number {
    const list = this.run.enabled();
    const count = list.count;
    const { actions, footprints, world } = this;
    actions.length = 0;
    footprints.length = 0;
    for (let choice = 0; choice < count; choice += 1) {
      actions.push(packAction(list.kind[choice]!, list.a[choice]!, list.b[choice]!));
      footprints.push(this.useIndependence ? footprintOf(world, list.kind[choice]!, list.a[choice]!) : EVERY_CLIENT);
    }
    return count;
  }

  /**
   * Whether the world entered last may take actions as independent: sleep sets are kept, and its clients are not
   * tied together (an attached connection carrying a stream its client does not own).
   */
  reducible = false;

  /** Takes the world to entry `entry` of `level` and lists its enabled actions (in `actions`); returns its snapshot. */
  enter(level: LeafLevel, entry: number): WorldSnapshot {
    const here = this.goTo(level.paths, entry * level.depth, level.depth);
    this.list();
    this.reducible = this.useIndependence && !isEntangled(this.world);
    return here;
  }

  /** Takes packed action `action` in the world as it stands. */
  take(action: number): void {
    // Taken by its (kind, a, b): a restored world's actions need not be listed again.
    this.run.take(action >>> 20, (action >>> 10) & 1023, action & 1023);
  }
}

/** A level's entries as judging their children reads them: their paths and sleep sets. */
export interface LeafLevel {
  readonly depth: number;
  readonly count: number;
  readonly paths: Uint16Array;
  readonly sleeps: readonly (readonly number[] | null)[];
}

/** What judging the last depth's worlds counts. */
export interface LeafCounts {
  runs: number;
  slept: number;
  leaves: number;
}

/** How judging the last depth's worlds may stop: at a step budget, or at a deadline (on the shared clock). */
export interface LeafBudget {
  readonly runsMax: number;
  readonly deadline: number | null;
  /** Stop before this entry (to give the event loop a turn), with the kind `pause`; default: none. */
  readonly pauseAt?: number;
}

/** Where judging a range of the last depth's entries stopped: at the end, at a violation, or at a budget. */
export type LeafStop =
  | { readonly kind: 'end' }
  | { readonly kind: 'violation'; readonly entry: number; readonly choice: number; readonly property: PropertyName }
  | { readonly kind: 'runs' | 'time'; readonly entry: number }
  /** A signal ended it before `entry` (only in the thread that was signalled). */
  | { readonly kind: 'interrupted'; readonly entry: number }
  /** Stopped before `entry` (its budget's `pauseAt`), nothing of it judged: the caller goes on from there. */
  | { readonly kind: 'pause'; readonly entry: number };

const END: LeafStop = { kind: 'end' };

/**
 * Judges the last depth's worlds below entries `[from, to)` of `level`, in order: each action of each entry's world
 * not in its sleep set is taken from a restore of that world, and the world it leads to is judged (the step's
 * monitors, then its liveness phase and final checks) without being keyed. `stop` says whether to stop before
 * an entry (another thread found a violation earlier). The same in this thread and in a worker's.
 */
export function judgeLeaves(walker: Walker, level: LeafLevel, from: number, to: number, counts: LeafCounts, budget: LeafBudget, stop: (entry: number) => boolean): LeafStop {
  const { world, run, actions } = walker;
  const depth = level.depth;
  for (let entry = from; entry < to; entry += 1) {
    if (stop(entry)) return END;
    if (budget.pauseAt !== undefined && entry >= budget.pauseAt) return { kind: 'pause', entry };
    const here = walker.enter(level, entry);
    const count = actions.length;
    const sleep = level.sleeps[entry]!;
    let dirty = false;
    for (let choice = 0; choice < count; choice += 1) {
      const action = actions[choice]!;
      if (sleeps(sleep, action)) {
        counts.slept += 1;
        continue;
      }
      if (counts.runs >= budget.runsMax) return { kind: 'runs', entry };
      if (budget.deadline !== null && (counts.runs & 255) === 0 && sharedWallMs() >= budget.deadline) return { kind: 'time', entry };
      if (dirty) restoreWorld(world, here);
      dirty = true;
      walker.take(action);
      counts.runs += 1;
      // A violation in the step, or in the liveness phase: every shorter sequence was judged, so it is a shortest one.
      if (world.violation !== null) return { kind: 'violation', entry, choice, property: world.violation.property };
      counts.leaves += 1;
      const found = run.finish();
      if (found !== null) return { kind: 'violation', entry, choice, property: found.property };
    }
  }
  return END;
}

/** Shares wide depths out among threads (sim/search/explore-workers.ts): the last depth's judging, and a keyed depth's expansion. */
export interface LevelPool {
  /** Threads in all, this one included. */
  readonly threads: number;
  /**
   * Judges the children of every entry of `level` across the threads, this one (through `walker`) included, in
   * chunks of entries claimed in order; the chunks up to the first that decides the level (a violation), in order.
   */
  judge(level: LeafLevel, walker: Walker, budget: LeafBudget & { readonly runsLeft: number }): Promise<LeafChunks>;
  /**
   * Expands every entry of a keyed depth across the threads, in chunks claimed in order: the chunks up to the
   * first that stopped early (a violation in a step, or the deadline), in order, for this thread to merge.
   */
  key(level: LeafLevel, walker: Walker, budget: LeafBudget & { readonly runsLeft: number }): Promise<KeyedChunks>;
  /** Stops the workers. After the search's signal (judge and key return at once then, workers maybe still busy) only this is called. */
  close(): Promise<void>;
}

/** A keyed depth expanded in chunks. */
export interface KeyedChunks {
  readonly chunks: readonly KeyedChunk[];
  /** Entries the chunks cover, from the first on. */
  readonly entries: number;
  readonly timeUp: boolean;
  /** Entries whose every step was taken, in the chunks read back (after a signal, what was done before it, as far as read). */
  readonly entriesDone: number;
}

/** The last depth judged in chunks of entries. */
export interface LeafChunks {
  /** Entries a chunk. */
  readonly size: number;
  /** From the first chunk on, each one's counts and where it stopped, up to the first that stopped early or the last. */
  readonly chunks: readonly { readonly counts: LeafCounts; readonly stop: LeafStop }[];
  /** True when a thread met the deadline: the counts of every chunk judged, in order or not, are then in `total`. */
  readonly timeUp: boolean;
  readonly total: LeafCounts;
  /** Entries whose every step was judged, in the chunks read back (after a signal, what was done before it, as far as read). */
  readonly entriesDone: number;
}

async function startLevelPool(target: Target, config: SimConfig, options: FrontierOptions): Promise<LevelPool | null> {
  const { levelPool } = await import('./explore-workers.ts');
  return levelPool(target, config, options);
}

async function search(run: SteppedRun, options: FrontierOptions, startPool: (() => Promise<LevelPool | null>) | null): Promise<FrontierOutcome> {
  const world = run.world;
  const useIndependence = options.independence !== false;
  const walker = new Walker(run, useIndependence);
  const statesMax = options.statesMax ?? STATES_MAX;
  const frontierMax = options.frontierMax ?? FRONTIER_MAX;
  const deadline = options.timeMs === undefined ? null : sharedWallMs() + options.timeMs;
  const names = new KeyNames();
  const threadsFrom = options.threadsFrom ?? PARALLEL_LEVEL_MIN;
  // hash → check·64 + the shallowest depth met (as the replaying search packs it).
  const visited = new Map<number, number>();
  let runs = 0;
  let runsLastDepth = 0;
  let slept = 0;
  let leaves = 0;
  let threads = 1;
  const outcome = (choices: number[] | null, depthCleared: number, budget: FrontierOutcome['budget'], property: PropertyName | null = null, searched: FrontierOutcome['searched'] = null): FrontierOutcome => ({
    choices,
    property: choices === null ? null : (property ?? world.violation?.property ?? null),
    runs,
    runsLastDepth,
    depthCleared,
    states: visited.size - 1 + leaves,
    slept,
    budget,
    threads,
    searched,
  });
  /** The outcome of a signal met at depth `depth`, `worlds` of its level's worlds' steps taken. */
  const interruptedAt = (depth: number, worlds: number): FrontierOutcome => outcome(null, depth, 'interrupted', null, { worlds, of: level.count });
  // A function, not a read: the signal's handler runs during the awaits, which a narrowed read would not see.
  const aborted = (): boolean => options.signal?.aborted === true;
  const rootKey = worldKey(world, names)!;
  visited.set(rootKey.hash, rootKey.check * 64);
  let level = new Level(0);
  level.count = 1;
  level.sleeps.push(null);
  const { actions, footprints } = walker;
  const done: number[] = [];
  for (let depth = 0; depth < options.depthMax; depth += 1) {
    const childDepth = depth + 1;
    if (aborted()) return interruptedAt(depth, 0);
    options.onDepth?.(childDepth, level.count);
    walker.reset();
    runsLastDepth = 0;
    // Workers are worth starting once the next depth looks wide enough to share out (about 20 actions are enabled
    // in a world): they load while this thread expands this one.
    if (startPool !== null && childDepth < options.depthMax && level.count * 16 >= threadsFrom) void startPool();
    if (childDepth === options.depthMax) {
      // The last depth: its worlds are only judged. Judging one (its liveness phase, a few microseconds) costs less
      // than keying it to find out whether an equal one was judged already.
      const counts: LeafCounts = { runs, slept, leaves };
      const stopAt = (stop: LeafStop): FrontierOutcome => {
        runs = counts.runs;
        runsLastDepth = runs - runsBefore;
        slept = counts.slept;
        leaves = counts.leaves;
        if (stop.kind === 'end') return outcome(null, options.depthMax, null);
        if (stop.kind === 'violation') return outcome([...level.paths.subarray(stop.entry * depth, stop.entry * depth + depth), stop.choice], depth, null, stop.property);
        if (stop.kind === 'pause') throw new Error('assertion: a paused judging was not resumed');
        if (stop.kind === 'interrupted') return interruptedAt(depth, stop.entry);
        return outcome(null, depth, stop.kind);
      };
      const runsBefore = runs;
      const budget: LeafBudget = { runsMax: options.runsMax, deadline };
      const pool = startPool === null || level.count < threadsFrom ? null : await startPool();
      if (pool === null) {
        if (options.signal === undefined) return stopAt(judgeLeaves(walker, level, 0, level.count, counts, budget, () => false));
        // With a signal to obey, a few hundred entries at a time, the event loop given a turn in between.
        for (let from = 0; ; ) {
          const stop = judgeLeaves(walker, level, from, level.count, counts, { ...budget, pauseAt: from + INTERRUPT_CHECK_ENTRIES }, () => false);
          if (stop.kind !== 'pause') return stopAt(stop);
          await macrotaskTurn();
          if (aborted()) return stopAt({ kind: 'interrupted', entry: stop.entry });
          from = stop.entry;
        }
      }
      threads = pool.threads;
      const judged = await pool.judge(level, walker, { ...budget, runsLeft: options.runsMax - runs });
      if (aborted()) return interruptedAt(depth, judged.entriesDone);
      // In chunk order, as one thread would have met them: the first chunk that stops decides; a chunk that would
      // have crossed the step budget is judged again here, to stop exactly where one thread would have.
      for (let chunk = 0; chunk < judged.chunks.length; chunk += 1) {
        const { counts: part, stop } = judged.chunks[chunk]!;
        if (stop.kind === 'time') break;
        if (counts.runs + part.runs > options.runsMax) {
          walker.reset();
          const from = chunk * judged.size;
          return stopAt(judgeLeaves(walker, level, from, Math.min(level.count, from + judged.size), counts, budget, () => false));
        }
        add(counts, part);
        if (stop.kind !== 'end') return stopAt(stop);
      }
      if (!judged.timeUp) {
        if (judged.chunks.length * judged.size < level.count) throw new Error('assertion: the threads stopped short of the last depth with no budget spent');
        return stopAt(END);
      }
      // Out of time: every chunk judged counts, whichever thread judged it and in whatever order.
      counts.runs = runsBefore + judged.total.runs;
      counts.slept = slept + judged.total.slept;
      counts.leaves = leaves + judged.total.leaves;
      return stopAt({ kind: 'time', entry: judged.chunks.length * judged.size });
    }
    const merge = new LevelMerge(new Level(childDepth), visited, statesMax, frontierMax);
    const pool = startPool === null || level.count < threadsFrom ? null : await startPool();
    let sequentialFrom = 0;
    if (pool !== null) {
      threads = pool.threads;
      const keyed = await pool.key(level, walker, { runsMax: Number.POSITIVE_INFINITY, deadline, runsLeft: options.runsMax - runs });
      if (aborted()) return interruptedAt(depth, keyed.entriesDone);
      // In chunk order, as one thread would have met them; each world was judged where it was keyed, and only a new
      // one's verdict is read, as one thread would have judged only it. A wide depth's merge can take seconds: with a
      // signal to obey, the event loop is given a turn every few hundred entries.
      let merged = 0;
      for (const chunk of keyed.chunks) {
        let slot = 0;
        for (let entry = chunk.from; entry < chunk.from + chunk.slots.length; entry += 1) {
          if (options.signal !== undefined && ++merged % INTERRUPT_CHECK_ENTRIES === 0) {
            await macrotaskTurn();
            if (aborted()) return interruptedAt(depth, keyed.entriesDone);
          }
          const slots = chunk.slots[entry - chunk.from]!;
          for (let choice = 0; choice < slots; choice += 1, slot += 1) {
            const state = chunk.state[slot]!;
            if (state === SLEPT) {
              slept += 1;
              continue;
            }
            if (runs >= options.runsMax) return outcome(null, depth, 'runs');
            runs += 1;
            runsLastDepth += 1;
            const path = (): number[] => [...level.paths.subarray(entry * depth, entry * depth + depth), choice];
            if (state === STEP_VIOLATION) return outcome(path(), depth, null, NAMES[chunk.property[slot]!]!);
            const hash = chunk.hash[slot]!;
            const admitted = merge.admit(hash, chunk.check[slot]!, childDepth);
            if (admitted === 'same') continue;
            if (admitted === 'states') return outcome(null, depth, 'states');
            if (chunk.property[slot]! >= 0) return outcome(path(), depth, null, NAMES[chunk.property[slot]!]!);
            if (merge.full()) return outcome(null, depth, 'frontier');
            const from = chunk.sleepStarts[slot]!;
            const to = chunk.sleepStarts[slot + 1]!;
            merge.push(level.paths, entry * depth, choice, from === to ? null : Array.from(chunk.sleepValues.subarray(from, to)), hash, admitted === 'unknown');
          }
        }
      }
      if (keyed.timeUp) return outcome(null, depth, 'time');
      sequentialFrom = keyed.entries;
    }
    {
      // The entries no thread expanded (all of them, in this thread alone; or those past a spent step budget, to
      // stop exactly where one thread would have).
      for (let entry = sequentialFrom; entry < level.count; entry += 1) {
        if (options.signal !== undefined && entry > sequentialFrom && (entry - sequentialFrom) % INTERRUPT_CHECK_ENTRIES === 0) {
          await macrotaskTurn();
          if (aborted()) return interruptedAt(depth, entry);
        }
        const here = walker.enter(level, entry);
        const count = actions.length;
        const sleep = level.sleeps[entry]!;
        done.length = 0;
        let dirty = false;
        for (let choice = 0; choice < count; choice += 1) {
          const action = actions[choice]!;
          if (sleeps(sleep, action)) {
            slept += 1;
            continue;
          }
          if (runs >= options.runsMax) return outcome(null, depth, 'runs');
          if (deadline !== null && (runs & 255) === 0 && sharedWallMs() >= deadline) return outcome(null, depth, 'time');
          if (dirty) restoreWorld(world, here);
          dirty = true;
          walker.take(action);
          runs += 1;
          runsLastDepth += 1;
          // A violation in the step: every shorter sequence was judged, so it is a shortest one.
          if (world.violation !== null) return outcome([...walker.path(), choice], depth, null);
          const key = worldKey(world, names);
          if (key === null) throw new Error('a target that offered a state key stopped offering one');
          done.push(action, footprints[choice]!);
          const admitted = merge.admit(key.hash, key.check, childDepth);
          if (admitted === 'same') continue;
          if (admitted === 'states') return outcome(null, depth, 'states');
          if (run.finish() !== null) return outcome([...walker.path(), choice], depth, null);
          if (merge.full()) return outcome(null, depth, 'frontier');
          const childSleep = walker.reducible ? childSleepOf(sleep, done, footprints[choice]!) : null;
          merge.push(level.paths, entry * depth, choice, childSleep, key.hash, admitted === 'unknown');
        }
      }
    }
    level = merge.next;
    if (level.count === 0) return outcome(null, options.depthMax, null);
  }
  return outcome(null, options.depthMax, null);
}

/**
 * The sleep set of the world an action leads to: Z' = { z ∈ Z ∪ done-before-it : z independent of it }, from the
 * sleep set Z of the world it is taken in and the actions taken there before it (`done` ends with the action itself).
 */
export function childSleepOf(sleep: readonly number[] | null, done: readonly number[], footprint: number): number[] | null {
  let childSleep: number[] | null = null;
  if (sleep !== null) {
    for (let index = 0; index < sleep.length; index += 2) {
      if (independent(sleep[index + 1]!, footprint)) (childSleep ??= []).push(sleep[index]!, sleep[index + 1]!);
    }
  }
  for (let index = 0; index < done.length - 2; index += 2) {
    if (independent(done[index + 1]!, footprint)) (childSleep ??= []).push(done[index]!, done[index + 1]!);
  }
  return childSleep;
}

/** Every property by number, for a violation recorded in a chunk. */
const NAMES: readonly PropertyName[] = [...PROPERTY_NAMES, ...CLIENT_PROPERTY_NAMES];

/** A slot's state in a keyed chunk: its action was in the sleep set, was taken, or violated in its step. */
export const SLEPT = 0;
export const TAKEN = 1;
export const STEP_VIOLATION = 2;

/**
 * The merge of one depth's worlds into the visited set and the next level, in the order one thread meets them:
 * a world met before (at a shallower depth, or at this one: its sleep set is then dropped) is not kept again.
 */
class LevelMerge {
  /** The next level's worlds by hash, for a second path reaching one of them (its sleep set is then dropped). */
  private readonly nextIndex = new Map<number, number>();

  constructor(
    readonly next: Level,
    private readonly visited: Map<number, number>,
    private readonly statesMax: number,
    private readonly frontierMax: number,
  ) {}

  /**
   * A world keyed `hash`/`check` first met at `depth`: 'same' when met before, 'states' when it cannot be
   * remembered, else 'unknown' (remembered now) or 'collision' (another world under a known hash, about one in
   * 2^85 pairs: judged and expanded, but not remembered).
   */
  admit(hash: number, check: number, depth: number): 'same' | 'states' | 'unknown' | 'collision' {
    const entryOld = this.visited.get(hash);
    const same = entryOld !== undefined && Math.floor(entryOld / 64) === check;
    if (same) {
      // Met before: at a shallower depth (expanded there, with more steps left), or at this one.
      if (entryOld % 64 === depth) {
        const index = this.nextIndex.get(hash);
        if (index !== undefined) this.next.sleeps[index] = null;
      }
      return 'same';
    }
    if (entryOld !== undefined) return 'collision';
    if (this.visited.size >= this.statesMax) return 'states';
    this.visited.set(hash, check * 64 + depth);
    return 'unknown';
  }

  /** True when the next level holds all it may. */
  full(): boolean {
    return this.next.count >= this.frontierMax;
  }

  /** Keeps a new world of the next level: its path (a prefix from `paths` and one more choice) and sleep set. */
  push(paths: Uint16Array, at: number, choice: number, sleep: number[] | null, hash: number, remembered: boolean): void {
    const index = this.next.push(paths, at, choice, sleep);
    if (remembered) this.nextIndex.set(hash, index);
  }
}

/** One chunk of a keyed depth's entries, expanded: per slot (each enabled action of each entry's world, in order). */
export interface KeyedChunk {
  /** The chunk's first entry, and each entry's slots (enabled actions). */
  readonly from: number;
  readonly slots: Int32Array;
  /** {@link SLEPT}, {@link TAKEN} or {@link STEP_VIOLATION}. */
  readonly state: Uint8Array;
  readonly hash: Float64Array;
  readonly check: Float64Array;
  /** The property violated (an index into PROPERTY_NAMES): in the step, or by the world's judging; -1 for none. */
  readonly property: Int16Array;
  /** Slot i's child sleep set is `sleepValues[sleepStarts[i] .. sleepStarts[i + 1])`. */
  readonly sleepStarts: Int32Array;
  readonly sleepValues: Float64Array;
  /** Where it stopped: at its end, at a violation in a step (its last slot), or at the deadline. */
  readonly stop: 'end' | 'violation' | 'time';
}

/**
 * Expands entries `[from, to)` of a keyed depth as one thread would, but judging every world reached (not knowing
 * which are new, which only the merge in chunk order can tell) and recording each slot for that merge.
 */
export function keyChildren(walker: Walker, level: LeafLevel, from: number, to: number, names: KeyNames, deadline: number | null, stop: (entry: number) => boolean): KeyedChunk {
  const { world, run, actions, footprints } = walker;
  const depth = level.depth;
  const slots: number[] = [];
  const state: number[] = [];
  const hash: number[] = [];
  const check: number[] = [];
  const property: number[] = [];
  const sleepStarts: number[] = [];
  const sleepValues: number[] = [];
  const done: number[] = [];
  let steps = 0;
  let ended: KeyedChunk['stop'] = 'end';
  const slot = (kind: number, h: number, c: number, violated: number): void => {
    state.push(kind);
    hash.push(h);
    check.push(c);
    property.push(violated);
    sleepStarts.push(sleepValues.length);
  };
  entries: for (let entry = from; entry < to; entry += 1) {
    if (stop(entry)) break;
    const here = walker.enter(level, entry);
    const count = actions.length;
    const sleep = level.sleeps[entry]!;
    done.length = 0;
    let dirty = false;
    slots.push(0);
    for (let choice = 0; choice < count; choice += 1) {
      const action = actions[choice]!;
      slots[slots.length - 1]! += 1;
      if (sleeps(sleep, action)) {
        slot(SLEPT, 0, 0, -1);
        continue;
      }
      if (deadline !== null && (steps & 255) === 0 && sharedWallMs() >= deadline) {
        slots[slots.length - 1]! -= 1;
        ended = 'time';
        break entries;
      }
      if (dirty) restoreWorld(world, here);
      dirty = true;
      walker.take(action);
      steps += 1;
      if (world.violation !== null) {
        slot(STEP_VIOLATION, 0, 0, NAMES.indexOf(world.violation.property));
        ended = 'violation';
        break entries;
      }
      const key = worldKey(world, names);
      if (key === null) throw new Error('a target that offered a state key stopped offering one');
      done.push(action, footprints[choice]!);
      const found = run.finish();
      slot(TAKEN, key.hash, key.check, found === null ? -1 : NAMES.indexOf(found.property));
      const childSleep = walker.reducible ? childSleepOf(sleep, done, footprints[choice]!) : null;
      if (childSleep !== null) sleepValues.push(...childSleep);
    }
  }
  sleepStarts.push(sleepValues.length);
  return {
    from,
    slots: Int32Array.from(slots),
    state: Uint8Array.from(state),
    hash: Float64Array.from(hash),
    check: Float64Array.from(check),
    property: Int16Array.from(property),
    sleepStarts: Int32Array.from(sleepStarts),
    sleepValues: Float64Array.from(sleepValues),
    stop: ended,
  };
}

function add(into: LeafCounts, part: LeafCounts): void {
  into.runs += part.runs;
  into.slept += part.slept;
  into.leaves += part.leaves;
}
