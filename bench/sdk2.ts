// Figure 7: the 2.x SDK targets (asynchronous), measured as figure 5 measures the 1.x ones, each beside its 1.x
// counterpart (the same event store) measured in the same run: steps/s, the ratio 2.x / 1.x, and the first
// counterexample of a seed-'1' fuzz.

import type { SimConfig } from '../sim/config.ts';
import { sdkCoreTarget, sdkSharedTarget, sdkTarget } from '../targets/sdk/index.ts';
import { sdk2CoreTarget, sdk2DualBareTarget, sdk2DualTarget, sdk2ExampleTarget, sdk2SharedTarget } from '../targets/sdk2/index.ts';
import type { Target } from '../targets/target.ts';
import { type SdkResult, measureSdk } from './sdk.ts';

/** Each 2.x target with the 1.x target that has the same event store: the baseline it is compared with. */
export const SDK2_PAIRS: ReadonlyArray<readonly [Target, Target]> = [
  [sdk2ExampleTarget, sdkTarget],
  [sdk2SharedTarget, sdkSharedTarget],
  [sdk2CoreTarget, sdkCoreTarget],
  [sdk2DualTarget, sdkCoreTarget],
  [sdk2DualBareTarget, sdkCoreTarget],
];

/** One 2.x target's figures and its 1.x baseline's steps/s. */
export interface Sdk2Result extends SdkResult {
  readonly baseline: string;
  readonly baselineStepsPerSecond: number;
}

/**
 * Measures every 2.x target and, unless figure 5 already measured it in this run (`measured`), its 1.x baseline.
 * The baseline is measured just before the 2.x target so both see the same load.
 */
export async function measureSdk2(
  config: SimConfig,
  options: { warmupMs: number; measureMs: number; runsMax: number; timeMs: number },
  measured: readonly SdkResult[] | null,
  log: (line: string) => void,
): Promise<Sdk2Result[]> {
  const results: Sdk2Result[] = [];
  const baselines = new Map<string, number>((measured ?? []).map((result) => [result.target, result.speed.stepsPerSecond]));
  for (const [target, baseline] of SDK2_PAIRS) {
    if (!baselines.has(baseline.name)) {
      const speed = await measureSdk(baseline, config, options);
      baselines.set(baseline.name, speed.speed.stepsPerSecond);
    }
    const result = await measureSdk(target, config, options);
    results.push({ ...result, baseline: baseline.name, baselineStepsPerSecond: baselines.get(baseline.name) ?? 0 });
    log(`  ${target.name} done`);
  }
  return results;
}
