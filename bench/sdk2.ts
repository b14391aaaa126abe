// Figure 7: the 2.x SDK targets (asynchronous), measured as figure 5 measures the 1.x ones, each beside its baseline
// measured in the same run: the 1.x target with the same event store, or for the modern-only endpoint the dual-era
// one under the same clients. Steps/s, the ratio to the baseline, and the first counterexample of a seed-'1' fuzz.

import { MODERN_REVISION, type SimConfig } from '../sim/config.ts';
import { sdkCoreTarget, sdkSharedTarget, sdkTarget } from '../targets/sdk/index.ts';
import { sdk2CoreTarget, sdk2DualBareTarget, sdk2DualTarget, sdk2ExampleTarget, sdk2ModernTarget, sdk2SharedTarget } from '../targets/sdk2/index.ts';
import type { HttpRequest, ServerInstance, Target, TargetHost, TargetRun } from '../targets/target.ts';
import { type SdkResult, measureSdk } from './sdk.ts';

/** One measured 2.x target: its baseline, and the clients both run with (absent: the default, 2025-11-25). */
export interface Sdk2Pair {
  readonly target: Target;
  readonly baseline: Target;
  readonly protocol?: SimConfig['protocol'];
}

/** Each 2.x target with its baseline: the 1.x target with the same store; the modern-only one against the dual one. */
export const SDK2_PAIRS: readonly Sdk2Pair[] = [
  { target: sdk2ExampleTarget, baseline: sdkTarget },
  { target: sdk2SharedTarget, baseline: sdkSharedTarget },
  { target: sdk2CoreTarget, baseline: sdkCoreTarget },
  { target: sdk2DualTarget, baseline: sdkCoreTarget },
  { target: sdk2DualBareTarget, baseline: sdkCoreTarget },
  // The clients asked to speak 2026-07-28; until the simulator's clients negotiate revisions they speak 2025-11-25
  // and the modern-only endpoint rejects their initialize: the request counts below say which traffic was measured.
  { target: sdk2ModernTarget, baseline: sdk2DualTarget, protocol: MODERN_REVISION },
];

/** How many requests of each era a measured target served. */
export interface EraCounts {
  modern: number;
  legacy: number;
}

/** One 2.x target's figures and its baseline's steps/s (under the same clients). */
export interface Sdk2Result extends SdkResult {
  readonly baseline: string;
  readonly baselineStepsPerSecond: number;
  /** The revision the clients were asked to speak, when not the default. */
  readonly protocol: string | null;
  /** The requests the target served during its measurement, by the revision they carried. */
  readonly requests: EraCounts;
}

/** The ServerInstance methods a counting wrapper forwards (each only where the instance has it). */
const FORWARDED = ['cut', 'advance', 'notify', 'closeConnection', 'expire', 'dispose', 'crashNode', 'restartNode', 'catchUp', 'lagging', 'stateKey', 'snapshot', 'restore'] as const;

/** `target`, counting the requests its instances handle by era; nothing else changes. */
function countingRequests(target: Target, counts: EraCounts): Target {
  const wrap = (instance: ServerInstance): ServerInstance => {
    const wrapped: Record<string, unknown> = {
      handle(request: HttpRequest) {
        if (request.protocolVersion === MODERN_REVISION) counts.modern += 1;
        else counts.legacy += 1;
        return instance.handle(request);
      },
    };
    for (const key of FORWARDED) {
      const method = instance[key];
      if (typeof method === 'function') wrapped[key] = (method as (...args: unknown[]) => unknown).bind(instance);
    }
    return wrapped as unknown as ServerInstance;
  };
  return {
    ...target,
    async open(options) {
      const run: TargetRun = await target.open(options);
      // Only boot is wrapped: the SDK targets measured here run on one node.
      return { ...run, boot: (incarnation, host: TargetHost) => wrap(run.boot(incarnation, host)) };
    },
  };
}

/**
 * Measures every 2.x target and, unless figure 5 already measured it in this run under the same clients
 * (`measured`), its baseline, just before the 2.x target so both see the same load.
 */
export async function measureSdk2(
  config: SimConfig,
  options: { warmupMs: number; measureMs: number; runsMax: number; timeMs: number },
  measured: readonly SdkResult[] | null,
  log: (line: string) => void,
): Promise<Sdk2Result[]> {
  const results: Sdk2Result[] = [];
  const baselines = new Map<string, number>((measured ?? []).map((result) => [`${result.target}@`, result.speed.stepsPerSecond]));
  for (const pair of SDK2_PAIRS) {
    const clients = pair.protocol === undefined ? config : { ...config, protocol: pair.protocol };
    const key = `${pair.baseline.name}@${pair.protocol ?? ''}`;
    if (!baselines.has(key)) {
      const speed = await measureSdk(pair.baseline, clients, options);
      baselines.set(key, speed.speed.stepsPerSecond);
    }
    const requests: EraCounts = { modern: 0, legacy: 0 };
    const result = await measureSdk(countingRequests(pair.target, requests), clients, options);
    results.push({ ...result, baseline: pair.baseline.name, baselineStepsPerSecond: baselines.get(key) ?? 0, protocol: pair.protocol ?? null, requests });
    log(`  ${pair.target.name} done`);
  }
  return results;
}
