// Figure 1: simulated steps/s and runs/s of the engine on a target, with random walks made exactly as the fuzz
// makes them (per-run seed `${seed}.${run}`, `planWalk`, `walkChoices`), single-threaded, after a warm-up;
// and the ceiling, the bare hand-written loop over the same kind of world (bench/bare-loop.ts).

import { createActionList } from '../sim/actions.ts';
import { planWalk, walkChoices } from '../sim/choices.ts';
import { DEFAULT_CONFIG, type SimConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { runSeed } from '../sim/search/fuzz.ts';
import type { Target } from '../targets/target.ts';
import { createBareLoop } from './bare-loop.ts';
import { type Rate, measureRate, measureRateAsync } from './measure.ts';
import { levelOf } from '../sim/levels/level.ts';

/** Throughput of the engine on one target and config. */
export interface SimSpeed {
  readonly target: string;
  readonly stepsMax: number;
  /** Simulated steps (fault phase + liveness phase) per second. */
  readonly stepsPerSecond: number;
  readonly runsPerSecond: number;
  readonly runs: number;
  readonly steps: number;
  readonly elapsedMs: number;
  /** Runs that reported a violation (a correct target has none; a run stops at its first). */
  readonly violations: number;
  readonly firstViolation: { readonly seed: string; readonly property: string; readonly explanation: string } | null;
}

/** Runs per measured batch: few enough that the clock is read often, many enough that reading it costs nothing. */
const RUNS_PER_BATCH = 16;

/** Measures the engine's throughput on `target` with fuzz-shaped random walks. */
export async function measureSimSpeed(
  target: Target,
  options: { stepsMax: number; warmupMs: number; measureMs: number; config?: SimConfig; runsPerBatch?: number },
): Promise<SimSpeed> {
  const config: SimConfig = { ...(options.config ?? DEFAULT_CONFIG), seed: 'bench', stepsMax: options.stepsMax };
  const runsPerBatch = options.runsPerBatch ?? RUNS_PER_BATCH;
  let violations = 0;
  let firstViolation: SimSpeed['firstViolation'] = null;
  // Violations are counted over the warm-up's runs too: a correct target has none in either.
  // One action list for all runs, as fuzz() does.
  const actions = createActionList();
  const body = async (batch: number): Promise<number> => {
    let steps = 0;
    for (let index = 0; index < runsPerBatch; index += 1) {
      const seed = runSeed(config.seed, batch * runsPerBatch + index + 1);
      const result = await runSimulation(target, { ...config, seed }, walkChoices(planWalk(seed, config.stepsMax, levelOf(target)?.faultKinds)), { actions });
      steps += result.steps + result.healSteps;
      if (result.violation !== null) {
        violations += 1;
        firstViolation ??= { seed, property: result.violation.property, explanation: result.violation.explanation };
      }
    }
    return steps;
  };
  const rate: Rate = await measureRateAsync(body, { warmupMs: options.warmupMs, measureMs: options.measureMs });
  const runs = rate.batches * runsPerBatch;
  return {
    target: target.name,
    stepsMax: options.stepsMax,
    stepsPerSecond: rate.perSecond,
    runsPerSecond: (runs * 1000) / rate.elapsedMs,
    runs,
    steps: rate.units,
    elapsedMs: rate.elapsedMs,
    violations,
    firstViolation,
  };
}

/** Throughput of the bare loop. */
export interface BareSpeed {
  readonly stepsMax: number;
  readonly stepsPerSecond: number;
  readonly runsPerSecond: number;
}

/** Measures the bare loop with the same walk shape (per-run seed, drawn length, same PRNG). */
export function measureBareSpeed(options: { stepsMax: number; warmupMs: number; measureMs: number }): BareSpeed {
  const loop = createBareLoop(options.stepsMax);
  const runsPerBatch = 64;
  const rate = measureRate(
    (batch) => {
      let steps = 0;
      for (let index = 0; index < runsPerBatch; index += 1) steps += loop.run(runSeed('bench', batch * runsPerBatch + index + 1));
      return steps;
    },
    { warmupMs: options.warmupMs, measureMs: options.measureMs },
  );
  return { stepsMax: options.stepsMax, stepsPerSecond: rate.perSecond, runsPerSecond: (rate.batches * runsPerBatch * 1000) / rate.elapsedMs };
}
