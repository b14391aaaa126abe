// The exhaustive search on `reference`, depth by depth, in three modes measured in the same run: without the
// reduction (every sequence, iterative deepening), with equal worlds merged only (breadth first from snapshots), and
// with the whole reduction (merged, and independent actions in one order: sleep sets). Each search is cut at a stated
// time cap, and once one mode hits its cap the deeper depths are not run for it; the machine's load is read after
// each search. Then each planted target's known minimum, found by the reduced search at that depth.

import { availableParallelism, loadavg } from 'node:os';
import { MINIMA, minimaConfig } from './minima.ts';
import type { SimConfig } from '../sim/config.ts';
import { explore } from '../sim/search/explore.ts';
import { PLANTED_TARGETS } from '../targets/planted/index.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { nowMs } from './measure.ts';
import { type SnapshotCost, measureSnapshotCost } from './snapshot-cost.ts';

/**
 * The ways the bench searches: every sequence, equal worlds merged, merged and sleep sets, and that with the wide
 * depths shared out among {@link EXPLORE_THREADS} threads (the same sequences and states, in less time).
 */
export type ExploreMode = 'without' | 'merged' | 'with' | 'threads';

export const EXPLORE_MODES: readonly ExploreMode[] = ['without', 'merged', 'with', 'threads'];

/** Threads of the `threads` mode: one per core (2 on the bench's machine), up to 4. */
export const EXPLORE_THREADS = Math.min(4, availableParallelism());

export interface ExploreSearch {
  readonly depth: number;
  readonly mode: ExploreMode;
  /** False when a shallower search of this mode hit its cap, so this one was not run. */
  readonly ran: boolean;
  readonly capMs: number;
  readonly cut: boolean;
  readonly depthCleared: number;
  readonly sequences: number;
  readonly states: number | null;
  readonly ms: number;
  readonly violation: string | null;
  /** Steps sleep sets skipped (0 in the other modes). */
  readonly slept: number;
  /** The 1-minute load average when the search ended. */
  readonly load: number;
  /** Threads that judged its widest depths (1 but in the `threads` mode, for depths of 2 048 worlds or more). */
  readonly threads: number;
}

/** A planted target's overall minimum, searched for with the reduction at exactly that depth. */
export interface ExploreMinimum {
  readonly target: string;
  readonly property: string;
  readonly minimum: number;
  readonly found: string | null;
  readonly length: number | null;
  readonly reduced: boolean;
  readonly sequences: number;
  readonly ms: number;
}

/** What the explore section measures. */
export interface ExploreResult {
  readonly searches: readonly ExploreSearch[];
  readonly minima: readonly ExploreMinimum[];
  /** Replaying a prefix against copying the world it reaches (the snapshot design not taken). */
  readonly snapshot: readonly SnapshotCost[];
}

/** Depths, and the time cap of each mode's search at one depth. */
export interface ExplorePlan {
  readonly depths: readonly number[];
  readonly capWithoutMs: number;
  /** The cap of the merged-only search (equal worlds merged, no sleep sets). */
  readonly capMergedMs: number;
  readonly capWithMs: number;
  /** The cap of the reduction in every core's thread: long enough for depth 8 to be measured, not estimated. */
  readonly capThreadsMs: number;
  /** Times each of 50 prefixes per depth is replayed and its world copied. */
  readonly snapshotRounds: number;
}

/** The explore options of one mode. */
function modeOptions(mode: ExploreMode): { reduce: boolean; independence?: boolean; threads?: number } {
  switch (mode) {
    case 'without':
      return { reduce: false };
    case 'merged':
      return { reduce: true, independence: false };
    case 'with':
      return { reduce: true };
    case 'threads':
      return { reduce: true, threads: EXPLORE_THREADS };
  }
}

/** Runs the explore section. */
export async function measureExplore(config: SimConfig, plan: ExplorePlan, log: (line: string) => void): Promise<ExploreResult> {
  const searches: ExploreSearch[] = [];
  // Warm-up, not recorded: the first search of a process pays for compiling the engine.
  for (const mode of EXPLORE_MODES) await explore(referenceTarget, config, { depthMax: 4, runsMax: Number.MAX_SAFE_INTEGER, ...modeOptions(mode) });
  for (const mode of EXPLORE_MODES) {
    const capMs = mode === 'threads' ? plan.capThreadsMs : mode === 'with' ? plan.capWithMs : mode === 'merged' ? plan.capMergedMs : plan.capWithoutMs;
    let capped = false;
    for (const depth of plan.depths) {
      if (capped) {
        searches.push({ depth, mode, ran: false, capMs, cut: true, depthCleared: 0, sequences: 0, states: null, ms: 0, violation: null, slept: 0, load: loadavg()[0]!, threads: 1 });
        continue;
      }
      const started = nowMs();
      const outcome = await explore(referenceTarget, config, { depthMax: depth, runsMax: Number.MAX_SAFE_INTEGER, timeMs: capMs, ...modeOptions(mode) });
      const ms = nowMs() - started;
      capped = outcome.budgetSpent;
      const load = loadavg()[0]!;
      searches.push({
        depth,
        mode,
        ran: true,
        capMs,
        cut: outcome.budgetSpent,
        depthCleared: outcome.depthCleared,
        sequences: outcome.runs,
        states: outcome.states,
        ms,
        violation: outcome.property,
        slept: outcome.slept,
        load,
        threads: outcome.threads,
      });
      log(`  reference depth ${depth} ${mode}: ${outcome.runs} sequences in ${(ms / 1000).toFixed(1)} s, load ${load.toFixed(1)}${outcome.budgetSpent ? ` (cut: ${outcome.budget})` : ''}${outcome.threads > 1 ? `, ${outcome.threads} threads` : ''}`);
    }
  }
  const minima: ExploreMinimum[] = [];
  for (const target of PLANTED_TARGETS) {
    const known = MINIMA[target.name];
    if (known === undefined) continue;
    // The target's own bug, not a note (a re-issued append running twice is every 2026-07-28 target's, the
    // reference's too): the shortest of its listed breaks, searched alone under the config it was derived under.
    const bugs = known.minima.filter((entry) => entry.length !== null && target.breaks.includes(entry.property));
    if (bugs.length === 0) continue;
    const entry = bugs.reduce((best, candidate) => (candidate.length! < best.length! ? candidate : best));
    const minimum = entry.length!;
    const started = nowMs();
    const outcome = await explore(target, minimaConfig(target.name), { depthMax: minimum, runsMax: 10_000_000, reduce: true, only: entry.property });
    minima.push({
      target: target.name,
      property: entry.property,
      minimum,
      found: outcome.property,
      length: outcome.choices?.length ?? null,
      reduced: outcome.reduction.applied,
      sequences: outcome.runs,
      ms: nowMs() - started,
    });
  }
  const snapshot = await measureSnapshotCost(config, [4, 6, 8], plan.snapshotRounds);
  return { searches, minima, snapshot };
}
