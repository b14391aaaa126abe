// The fuzz's search loop, timed: runs seeded random walks exactly as `fuzz()` does (run seed `${seed}.${run}`,
// `planWalk`, `walkChoices`, one reused action list) and stops at the first violation, so the time to the first counterexample can be
// measured without the shrinking and trace recording that `fuzz()` does after it.

import { createActionList } from '../sim/actions.ts';
import { planWalk, walkChoices } from '../sim/choices.ts';
import type { SimConfig } from '../sim/config.ts';
import { type RunResult, runSimulation } from '../sim/engine.ts';
import { runSeed } from '../sim/search/fuzz.ts';
import type { Target } from '../targets/target.ts';
import { nowMs } from './measure.ts';
import { levelOf } from '../sim/levels/level.ts';

/** The first counterexample of a seeded search, or how far the search got without one. */
export interface FirstCounterexample {
  /** The 1-based run that found it, or null when none was found within the budget. */
  readonly run: number | null;
  /** Runs made (the finding run included). */
  readonly runs: number;
  /** Simulated steps over all runs (fault and liveness phases). */
  readonly steps: number;
  /** Wall-clock time of the search up to and including the finding run. */
  readonly elapsedMs: number;
  /** The finding run's config (its seed is the run seed), for shrinking and replay. */
  readonly config: SimConfig | null;
  readonly result: RunResult | null;
}

/** Searches with fuzz-shaped random walks until a violation, `runsMax` runs, or `timeMs` of wall-clock time. */
export async function findFirstCounterexample(
  target: Target,
  config: SimConfig,
  options: { runsMax: number; timeMs: number | null },
): Promise<FirstCounterexample> {
  const started = nowMs();
  let steps = 0;
  // One action list for all runs, as fuzz() does.
  const actions = createActionList();
  for (let run = 1; run <= options.runsMax; run += 1) {
    if (options.timeMs !== null && run > 1 && nowMs() - started >= options.timeMs) {
      return { run: null, runs: run - 1, steps, elapsedMs: nowMs() - started, config: null, result: null };
    }
    const runConfig: SimConfig = { ...config, seed: runSeed(config.seed, run) };
    const result = await runSimulation(target, runConfig, walkChoices(planWalk(runConfig.seed, runConfig.stepsMax, levelOf(target)?.faultKinds)), { actions });
    steps += result.steps + result.healSteps;
    if (result.violation !== null) return { run, runs: run, steps, elapsedMs: nowMs() - started, config: runConfig, result };
  }
  return { run: null, runs: options.runsMax, steps, elapsedMs: nowMs() - started, config: null, result: null };
}
