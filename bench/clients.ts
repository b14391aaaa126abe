// Figure 7: the client targets (the real SDK clients at the client level): simulated steps/s with fuzz-shaped walks,
// against a baseline measured in the same run the same way (one run a batch): the 1.32.2 server transport target
// sdk-core at the server level, the other place a real SDK sits in the loop (the simulator's own clients against
// the real server, settled by the same macrotask turns), so the ratio is what the client side costs against it.

import { DEFAULT_CONFIG, type SimConfig } from '../sim/config.ts';
import type { Target } from '../targets/target.ts';
import { type SimSpeed, measureSimSpeed } from './sim-speed.ts';

/** Speed of one client target, and of the baseline measured beside it. */
export interface ClientResult {
  readonly target: string;
  readonly speed: SimSpeed;
  readonly baseline: SimSpeed;
  /** Client target steps/s over the baseline's. */
  readonly ratio: number;
}

/** Measures each client target, and the baseline once before each (so machine load affects both alike). */
export async function measureClients(
  targets: readonly Target[],
  baseline: Target,
  options: { warmupMs: number; measureMs: number; config?: SimConfig },
): Promise<ClientResult[]> {
  const config = options.config ?? DEFAULT_CONFIG;
  const results: ClientResult[] = [];
  for (const target of targets) {
    const base = await measureSimSpeed(baseline, { stepsMax: config.stepsMax, warmupMs: options.warmupMs, measureMs: options.measureMs, config, runsPerBatch: 1 });
    const speed = await measureSimSpeed(target, { stepsMax: config.stepsMax, warmupMs: options.warmupMs, measureMs: options.measureMs, config, runsPerBatch: 1 });
    results.push({ target: target.name, speed, baseline: base, ratio: speed.stepsPerSecond / base.stepsPerSecond });
  }
  return results;
}
