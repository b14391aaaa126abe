// An exhaustive search for the shortest violation of one property (used by bench/derive-minima.ts): every choice
// sequence, shortest first, as `explore()` does, but a prefix is pruned only when it violated something during its
// own steps. `explore(..., { only })` also prunes a prefix whose violation appeared only in the liveness phase run
// after it, though the prefix's extensions run a different liveness phase and may violate the property sought.

import type { PropertyName } from '../properties/names.ts';
import type { SimConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { prefixChoices } from '../sim/search/explore.ts';
import type { Target } from '../targets/target.ts';

/** The outcome of a search restricted to one property. */
export interface PropertySearch {
  readonly choices: readonly number[] | null;
  readonly runs: number;
  readonly depthCleared: number;
  readonly exhausted: boolean;
}

/**
 * Every choice sequence of length 1..depthMax, shortest first, looking for a violation of `property`. A prefix
 * is pruned only when it violated something during its own steps (its extensions stop there too); a violation
 * found in the liveness phase after the prefix does not prune it.
 */
export async function exploreProperty(
  target: Target,
  config: SimConfig,
  options: { property: PropertyName; depthMax: number; runsMax: number; depthFrom?: number },
): Promise<PropertySearch> {
  let runs = 0;
  const visit = async (prefix: number[], depth: number): Promise<number[] | null | 'budget'> => {
    if (runs >= options.runsMax) return 'budget';
    runs += 1;
    const seen = { enabledAfter: 0 };
    const result = await runSimulation(target, config, prefixChoices(prefix, seen));
    const violation = result.violation;
    if (violation !== null) {
      const duringPrefix = violation.step < result.steps;
      if (result.choices.length === prefix.length && violation.property === options.property && prefix.length === depth) return prefix;
      if (duringPrefix) return null;
    }
    if (prefix.length === depth) return null;
    for (let choice = 0; choice < seen.enabledAfter; choice += 1) {
      const found = await visit([...prefix, choice], depth);
      if (found !== null) return found;
    }
    return null;
  };
  for (let depth = options.depthFrom ?? 1; depth <= options.depthMax; depth += 1) {
    const found = await visit([], depth);
    if (found === 'budget') return { choices: null, runs, depthCleared: depth - 1, exhausted: true };
    if (found !== null) return { choices: found, runs, depthCleared: depth - 1, exhausted: false };
  }
  return { choices: null, runs, depthCleared: options.depthMax, exhausted: false };
}
