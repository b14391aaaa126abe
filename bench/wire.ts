// Figure 12: the same server over loopback HTTP (a `--serve` probe server, real sockets and SSE, the settle's quiet
// interval) and in process (the same target, offered the same faults), in steps/s, as a ratio measured in one run.
// The baseline is honest about what it is: the in-process run of the very server the wire run reaches.

import { planWalk, walkChoices } from '../sim/choices.ts';
import { type SimConfig, resolveConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import type { Target } from '../targets/target.ts';
import { withUnsupported } from '../targets/wire/same-faults.ts';
import { createWireTarget } from '../targets/wire/wire.target.ts';
import { nowMs } from './measure.ts';

/** One server's two speeds. */
export interface WireResult {
  readonly target: string;
  readonly inProcessStepsPerSecond: number;
  readonly wireStepsPerSecond: number;
  /** wire / in process: how much slower the same server is over loopback sockets. */
  readonly ratio: number;
  readonly wireRuns: number;
  readonly quietMs: number;
  /** Share of the wire run's time spent settling (waiting for the server to go quiet). */
  readonly settleShare: number;
}

/** Steps per second of seeded walks on `target` for `measureMs` (at least one run). */
async function stepsPerSecond(target: Target, config: SimConfig, measureMs: number): Promise<{ perSecond: number; runs: number }> {
  let steps = 0;
  let runs = 0;
  const started = nowMs();
  while (runs === 0 || nowMs() - started < measureMs) {
    runs += 1;
    const runConfig = { ...config, seed: `bench-wire.${runs}` };
    const result = await runSimulation(target, runConfig, walkChoices(planWalk(runConfig.seed, runConfig.stepsMax)));
    steps += result.steps + result.healSteps;
  }
  return { perSecond: (steps * 1000) / (nowMs() - started), runs };
}

/** Measures `target` served by examples/probe-server.mjs over loopback, and in process, in one run. */
export async function measureWire(target: Target, options: { measureMs: number; wireMeasureMs: number }): Promise<WireResult> {
  const wire = await createWireTarget({ url: null, serve: `node examples/probe-server.mjs --target ${target.name}`, allowRemote: false });
  try {
    await wire.prepare();
    // Restarts are left out of both: over the wire each is a process start, which would swamp the step rate.
    const config = resolveConfig({ restartsMax: 0 });
    const local = withUnsupported(target, wire.unsupported().map(({ kind }) => kind));
    const inProcess = await stepsPerSecond(local, config, options.measureMs);
    const settleBefore = wire.stats.settleMs;
    const started = nowMs();
    const overTheWire = await stepsPerSecond(wire, config, options.wireMeasureMs);
    const elapsed = nowMs() - started;
    return {
      target: target.name,
      inProcessStepsPerSecond: inProcess.perSecond,
      wireStepsPerSecond: overTheWire.perSecond,
      ratio: overTheWire.perSecond / inProcess.perSecond,
      wireRuns: overTheWire.runs,
      quietMs: wire.timing.quietMs,
      settleShare: (wire.stats.settleMs - settleBefore) / elapsed,
    };
  } finally {
    await wire.stop();
  }
}
