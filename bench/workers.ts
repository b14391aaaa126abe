// Figure 6: runs/s of the fuzz's search with 2 worker threads against 1, on the same seed and run count, so
// both make exactly the same runs (the findings do not depend on the number of workers; the bench checks it).
// The search phase is timed alone: the pool's start-up (each worker loads the simulator and the target's modules
// again) is printed apart, and shrinking is switched off (every property marked known), as it is not the search.

import { PROPERTY_NAMES } from '../properties/names.ts';
import { resolveConfig } from '../sim/config.ts';
import { fuzz } from '../sim/fuzz.ts';
import type { Target } from '../targets/target.ts';
import { median, nowMs } from './measure.ts';

/** One target's figure. */
export interface WorkersResult {
  readonly target: string;
  readonly runs: number;
  /** Median search runs/s over the rounds, with 1 and with 2 workers. */
  readonly oneRunsPerSecond: number;
  readonly twoRunsPerSecond: number;
  readonly ratio: number;
  /** Median whole-fuzz wall time with 2 workers minus its search time: starting the pool. */
  readonly poolStartMs: number;
  readonly oneWallMs: number;
  readonly twoWallMs: number;
  /** The same runs, steps and findings with 1 and 2 workers. */
  readonly agree: boolean;
}

/** Alternates fuzzes of `runs` runs with 1 and 2 workers, `rounds` of each. */
export async function measureWorkers(target: Target, options: { runs: number; rounds: number }): Promise<WorkersResult> {
  const one: number[] = [];
  const two: number[] = [];
  const wallOne: number[] = [];
  const wallTwo: number[] = [];
  const start: number[] = [];
  let agree = true;
  for (let round = 0; round < options.rounds; round += 1) {
    const outcomes = [];
    for (const workers of [1, 2]) {
      const started = nowMs();
      const outcome = await fuzz({
        target,
        config: resolveConfig({ seed: 'bench-workers' }),
        runsMax: options.runs,
        timeMs: null,
        stopAtFirst: false,
        workers,
        known: new Set(PROPERTY_NAMES),
      });
      const wallMs = nowMs() - started;
      const rate = (outcome.runs * 1000) / outcome.searchMs;
      if (workers === 1) {
        one.push(rate);
        wallOne.push(wallMs);
      } else {
        two.push(rate);
        wallTwo.push(wallMs);
        start.push(wallMs - outcome.elapsedMs);
      }
      outcomes.push(JSON.stringify([outcome.runs, outcome.steps, outcome.findings.map((finding) => [finding.run, finding.trace.choices])]));
    }
    if (outcomes[0] !== outcomes[1]) agree = false;
  }
  const oneRunsPerSecond = median(one);
  const twoRunsPerSecond = median(two);
  return {
    target: target.name,
    runs: options.runs,
    oneRunsPerSecond,
    twoRunsPerSecond,
    ratio: twoRunsPerSecond / oneRunsPerSecond,
    poolStartMs: median(start),
    oneWallMs: median(wallOne),
    twoWallMs: median(wallTwo),
    agree,
  };
}

/** What the machine gives a second thread right now: a busy loop's work with 2 threads over 1, same window. */
export interface ThreadCeiling {
  readonly one: number;
  readonly two: number;
  readonly ratio: number;
}

/**
 * The ceiling of the figure above, measured beside it: a pure integer loop in 1 and then 2 worker threads for
 * `windowMs` each (no allocation, no messages). On an idle 2-core machine it is about 2×; when other processes
 * keep the cores busy (the kernel shares CPU between sessions, not threads), a second thread gets nothing.
 */
export async function measureThreadCeiling(options: { windowMs: number }): Promise<ThreadCeiling> {
  const { Worker } = await import('node:worker_threads');
  const code = `const { parentPort, workerData } = require('node:worker_threads');
let x = 0; let n = 0; const started = performance.now();
while (performance.now() - started < workerData) { for (let i = 0; i < 100000; i += 1) x = (x * 31 + i) | 0; n += 1; }
parentPort.postMessage(n + (x & 0));`;
  const spin = async (count: number): Promise<number> => {
    const counts = await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<number>((resolve, reject) => {
            const worker = new Worker(code, { eval: true, workerData: options.windowMs });
            worker.on('message', (loops: number) => {
              resolve(loops);
              void worker.terminate();
            });
            worker.on('error', reject);
          }),
      ),
    );
    return counts.reduce((sum, loops) => sum + loops, 0);
  };
  const one = await spin(1);
  const two = await spin(2);
  return { one, two, ratio: two / one };
}
