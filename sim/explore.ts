// Exhaustive exploration: every choice sequence up to a depth, shortest first (iterative deepening). The first
// violation found is a shortest counterexample, which proves the minimum a shrinker should reach.

import type { PropertyName } from '../properties/names.ts';
import type { Target } from '../targets/target.ts';
import type { SimConfig } from './config.ts';
import { type ChoiceSource, runSimulation } from './engine.ts';

/** The outcome of an exhaustive exploration. */
export interface ExploreOutcome {
  /** A shortest violating choice sequence, or null when none exists up to the depth. */
  readonly choices: readonly number[] | null;
  readonly property: PropertyName | null;
  /** Runs made. */
  readonly runs: number;
  /** The depth searched completely without a violation (one less than the counterexample's length, if found). */
  readonly depthCleared: number;
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
 * Explores every choice sequence of length 1..depthMax (each step's choice ranging over that step's enabled
 * actions), shortest first. Stops at the first violation (of `only`, when given) or after `runsMax` runs.
 */
export async function explore(
  target: Target,
  config: SimConfig,
  options: { depthMax: number; runsMax: number; only?: PropertyName },
): Promise<ExploreOutcome> {
  let runs = 0;
  const visit = async (prefix: number[], depth: number): Promise<{ choices: number[]; property: PropertyName } | null | 'budget'> => {
    if (runs >= options.runsMax) return 'budget';
    runs += 1;
    const seen = { enabledAfter: 0 };
    // With `only`, the other properties are not checked: a run must not stop at them before reaching it.
    const result = await runSimulation(target, config, prefixChoices(prefix, seen), options.only === undefined ? {} : { properties: [options.only] });
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
  for (let depth = 1; depth <= options.depthMax; depth += 1) {
    const found = await visit([], depth);
    if (found === 'budget') return { choices: null, property: null, runs, depthCleared: depth - 1 };
    if (found !== null) return { choices: found.choices, property: found.property, runs, depthCleared: depth - 1 };
  }
  return { choices: null, property: null, runs, depthCleared: options.depthMax };
}
