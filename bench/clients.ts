// Figure 7: the client targets (the real SDK clients at the client level): simulated steps/s with fuzz-shaped walks,
// against a baseline measured in the same run the same way (one run a batch): the 1.32.2 server transport target
// sdk-core at the server level, the other place a real SDK sits in the loop (the simulator's own clients against
// the real server, settled by the same macrotask turns), so the ratio is what the client side costs against it.
// Each window's CPU time (this process, all threads) is measured too: steps per CPU-second is what the code costs
// whatever share of a core the machine gave it, and the share itself says how loaded the machine was.

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
  /** Steps per second of this process's CPU time (all threads) in the measured window, the target's and the baseline's. */
  readonly stepsPerCpuSecond: number;
  readonly baselineStepsPerCpuSecond: number;
  /** CPU time over wall time of the target's window: about 1 or more (GC helpers) when a core was ours, less under load. */
  readonly cpuShare: number;
}

/** A warm-up window (not counted), then the measured one with the CPU time it took. */
async function measureWithCpu(target: Target, config: SimConfig, options: { warmupMs: number; measureMs: number }): Promise<{ speed: SimSpeed; cpuMs: number }> {
  await measureSimSpeed(target, { stepsMax: config.stepsMax, warmupMs: 0, measureMs: options.warmupMs, config, runsPerBatch: 1 });
  const before = process.cpuUsage();
  const speed = await measureSimSpeed(target, { stepsMax: config.stepsMax, warmupMs: 0, measureMs: options.measureMs, config, runsPerBatch: 1 });
  const used = process.cpuUsage(before);
  return { speed, cpuMs: (used.user + used.system) / 1000 };
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
    const base = await measureWithCpu(baseline, config, options);
    const own = await measureWithCpu(target, config, options);
    results.push({
      target: target.name,
      speed: own.speed,
      baseline: base.speed,
      ratio: own.speed.stepsPerSecond / base.speed.stepsPerSecond,
      stepsPerCpuSecond: (own.speed.steps * 1000) / own.cpuMs,
      baselineStepsPerCpuSecond: (base.speed.steps * 1000) / base.cpuMs,
      cpuShare: own.cpuMs / own.speed.elapsedMs,
    });
  }
  return results;
}
