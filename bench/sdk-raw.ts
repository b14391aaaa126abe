// Figure 8: the SDK targets' simulated steps/s against the raw cost of the same SDK requests: the same runs,
// timed twice at once, as a whole and inside the target boundary alone (every call the engine makes into the
// target: opening a run, booting an incarnation, each request handled, each cut, tool step, notification,
// expiry and restart, closing the run). Inside the boundary is the SDK itself (McpServer, the transport, the
// event store) plus the plumbing any direct driver of the SDK needs (building Requests, reading the SSE
// bodies, waiting for the transport to settle: targets/sdk/sdk-server.ts). The rest is the simulator's own
// cost: the model, the enabled-action lists, the monitors, the liveness phase. `steps/s ÷ raw steps/s` is the
// share of the time the SDK work takes: 1 would mean the simulator costs nothing on top of it.

import { createActionList } from '../sim/actions.ts';
import { planWalk, walkChoices } from '../sim/choices.ts';
import type { SimConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { runSeed } from '../sim/search/fuzz.ts';
import type { ServerInstance, Target, TargetRun } from '../targets/target.ts';
import { nowMs } from './measure.ts';

/** One SDK target's figure. */
export interface SdkRawResult {
  readonly target: string;
  readonly runs: number;
  readonly steps: number;
  readonly totalMs: number;
  /** Of totalMs, the time spent inside the target boundary. */
  readonly targetMs: number;
  readonly stepsPerSecond: number;
  /** Steps per second of target time alone: what driving the SDK with the same requests costs. */
  readonly rawStepsPerSecond: number;
  readonly ratio: number;
}

/** A timer that adds the time of every awaited call it wraps. */
interface Clock {
  spentMs: number;
}

async function timed<T>(clock: Clock, call: () => T | Promise<T>): Promise<T> {
  const started = nowMs();
  try {
    return await call();
  } finally {
    clock.spentMs += nowMs() - started;
  }
}

function timedInstance(clock: Clock, instance: ServerInstance): ServerInstance {
  return {
    handle: (request) => timed(clock, () => instance.handle(request)),
    cut: (connection) => timed(clock, () => instance.cut(connection)),
    advance: (execution) => timed(clock, () => instance.advance(execution)),
    notify: (sessionId, message) => timed(clock, () => instance.notify(sessionId, message)),
    closeConnection: (connection, retryMs) => timed(clock, () => instance.closeConnection(connection, retryMs)),
    expire: (sessionId) => timed(clock, () => instance.expire(sessionId)),
    dispose: () => timed(clock, () => instance.dispose()),
  };
}

/** `target` with every call into it timed (asynchronous targets only: the wrapper awaits every call). */
export function timedTarget(target: Target, clock: Clock): Target {
  return {
    ...target,
    async open(options) {
      const run: TargetRun = await timed(clock, () => target.open(options));
      if (run.sync) throw new Error(`bench: ${target.name} is synchronous; the raw-cost figure is for the SDK targets`);
      return {
        sync: false,
        boot: (incarnation, host) => {
          const started = nowMs();
          const instance = run.boot(incarnation, host);
          clock.spentMs += nowMs() - started;
          return timedInstance(clock, instance);
        },
        close: () => timed(clock, () => run.close()),
      };
    },
  };
}

/** Runs fuzz-shaped walks on `target` for about `measureMs` (after `warmupMs`) and splits the time. */
export async function measureSdkRaw(target: Target, config: SimConfig, options: { warmupMs: number; measureMs: number }): Promise<SdkRawResult> {
  const clock: Clock = { spentMs: 0 };
  const wrapped = timedTarget(target, clock);
  const actions = createActionList();
  let run = 0;
  const once = async (): Promise<number> => {
    run += 1;
    const seed = runSeed('bench-raw', run);
    const result = await runSimulation(wrapped, { ...config, seed }, walkChoices(planWalk(seed, config.stepsMax)), { actions });
    return result.steps + result.healSteps;
  };
  const warmupEnd = nowMs() + options.warmupMs;
  while (nowMs() < warmupEnd) await once();
  clock.spentMs = 0;
  let steps = 0;
  let runs = 0;
  const started = nowMs();
  while (nowMs() - started < options.measureMs) {
    steps += await once();
    runs += 1;
  }
  const totalMs = nowMs() - started;
  const stepsPerSecond = (steps * 1000) / totalMs;
  const rawStepsPerSecond = (steps * 1000) / clock.spentMs;
  return { target: target.name, runs, steps, totalMs, targetMs: clock.spentMs, stepsPerSecond, rawStepsPerSecond, ratio: stepsPerSecond / rawStepsPerSecond };
}
