// The exhaustive search on `reference`, depth by depth, with and without the reduction (equal worlds merged),
// measured in the same run; each search is cut at a stated time cap, and once one mode hits its cap the deeper
// depths are not run for it. Then each planted target's known minimum, found by the reduced search at that depth.

import { MINIMA } from './minima.ts';
import type { SimConfig } from '../sim/config.ts';
import { explore } from '../sim/explore.ts';
import { PLANTED_TARGETS } from '../targets/planted/index.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { nowMs } from './measure.ts';
import { type SnapshotCost, measureSnapshotCost } from './snapshot-cost.ts';

/** One search: how far it got, what it explored, how long it took. */
export interface ExploreSearch {
  readonly depth: number;
  readonly reduce: boolean;
  /** False when a shallower search of this mode hit its cap, so this one was not run. */
  readonly ran: boolean;
  readonly capMs: number;
  readonly cut: boolean;
  readonly depthCleared: number;
  readonly sequences: number;
  readonly states: number | null;
  readonly ms: number;
  readonly violation: string | null;
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
  readonly capWithMs: number;
  /** Times each of 50 prefixes per depth is replayed and its world copied. */
  readonly snapshotRounds: number;
}

/** Runs the explore section. */
export async function measureExplore(config: SimConfig, plan: ExplorePlan, log: (line: string) => void): Promise<ExploreResult> {
  const searches: ExploreSearch[] = [];
  // Warm-up, not recorded: the first search of a process pays for compiling the engine.
  for (const reduce of [false, true]) await explore(referenceTarget, config, { depthMax: 4, runsMax: Number.MAX_SAFE_INTEGER, reduce });
  for (const reduce of [false, true]) {
    const capMs = reduce ? plan.capWithMs : plan.capWithoutMs;
    let capped = false;
    for (const depth of plan.depths) {
      if (capped) {
        searches.push({ depth, reduce, ran: false, capMs, cut: true, depthCleared: 0, sequences: 0, states: null, ms: 0, violation: null });
        continue;
      }
      const started = nowMs();
      const outcome = await explore(referenceTarget, config, { depthMax: depth, runsMax: Number.MAX_SAFE_INTEGER, reduce, timeMs: capMs });
      const ms = nowMs() - started;
      capped = outcome.budgetSpent;
      searches.push({
        depth,
        reduce,
        ran: true,
        capMs,
        cut: outcome.budgetSpent,
        depthCleared: outcome.depthCleared,
        sequences: outcome.runs,
        states: outcome.states,
        ms,
        violation: outcome.property,
      });
      log(`  reference depth ${depth} ${reduce ? 'with' : 'without'} the reduction: ${outcome.runs} sequences in ${(ms / 1000).toFixed(1)} s${outcome.budgetSpent ? ' (cut at the cap)' : ''}`);
    }
  }
  const minima: ExploreMinimum[] = [];
  for (const target of PLANTED_TARGETS) {
    const known = MINIMA[target.name];
    if (known === undefined) continue;
    const minimum = Math.min(...known.minima.filter((entry) => entry.length !== null).map((entry) => entry.length!));
    const started = nowMs();
    const outcome = await explore(target, config, { depthMax: minimum, runsMax: 10_000_000, reduce: true });
    minima.push({
      target: target.name,
      property: known.overallProperty,
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
