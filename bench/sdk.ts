// Figure 5: the real SDK targets (asynchronous): simulated steps/s with fuzz-shaped walks, and the time to the
// first counterexample of a seed-'1' fuzz (the fuzz's own search loop, without shrinking), with its property.

import type { PropertyName } from '../properties/names.ts';
import type { SimConfig } from '../sim/config.ts';
import type { Target } from '../targets/target.ts';
import { findFirstCounterexample } from './first-counterexample.ts';
import { type SimSpeed, measureSimSpeed } from './sim-speed.ts';

/** Speed and first finding of one SDK target. */
export interface SdkResult {
  readonly target: string;
  readonly speed: SimSpeed;
  readonly first: {
    readonly seed: string;
    readonly found: boolean;
    readonly run: number | null;
    readonly runs: number;
    readonly msToFirst: number;
    readonly property: PropertyName | null;
    readonly length: number | null;
    readonly explanation: string | null;
  };
}

/** Measures one SDK target. */
export async function measureSdk(
  target: Target,
  config: SimConfig,
  options: { warmupMs: number; measureMs: number; runsMax: number; timeMs: number },
): Promise<SdkResult> {
  const speed = await measureSimSpeed(target, { stepsMax: config.stepsMax, warmupMs: options.warmupMs, measureMs: options.measureMs, config, runsPerBatch: 1 });
  const found = await findFirstCounterexample(target, { ...config, seed: '1' }, { runsMax: options.runsMax, timeMs: options.timeMs });
  const violation = found.result?.violation ?? null;
  return {
    target: target.name,
    speed,
    first: {
      seed: '1',
      found: violation !== null,
      run: found.run,
      runs: found.runs,
      msToFirst: found.elapsedMs,
      property: violation?.property ?? null,
      length: found.result?.choices.length ?? null,
      explanation: violation?.explanation ?? null,
    },
  };
}
