// A pool of worker threads for a fuzz: each searches one lane and then makes shrinks, one at a time. The
// choice of what to shrink stays in the calling thread (sim/fuzz.ts), so the findings do not depend on the pool.

import { Worker } from 'node:worker_threads';
import type { Target } from '../targets/target.ts';
import type { CoverageCounts } from './coverage.ts';
import type { FuzzExecutor } from './fuzz.ts';
import { WORKERS_MAX, mergeLaneCoverage } from './fuzz.ts';
import type { WorkerReply, WorkerRequest } from './fuzz-worker.ts';
import { targetByName } from './target-by-name.ts';
import type { ShrinkResult } from './shrink.ts';


/**
 * Starts a worker on this module's sibling. Run from TypeScript sources (under tsx), the worker registers tsx's
 * loader itself first: a loader registered in this thread does not reach other threads.
 */
function startWorker(targetName: string): Worker {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const entry = new URL('./fuzz-worker.ts', here).href;
    const code = `import { register } from 'tsx/esm/api'; register(); await import(${JSON.stringify(entry)});`;
    return new Worker(code, { eval: true, workerData: { mark: 'resumecheck-fuzz-worker', targetName } });
  }
  return new Worker(new URL('./fuzz-worker.js', here), { workerData: { mark: 'resumecheck-fuzz-worker', targetName } });
}

/** A worker and the handlers waiting on its replies. */
interface PoolWorker {
  readonly worker: Worker;
  listener: ((reply: WorkerReply) => void) | null;
  failure: ((error: Error) => void) | null;
}

/** A pool of `count` workers for `target`, which must be findable by its name (a built-in target or a store module). */
export async function workerPoolExecutor(target: Target, count: number): Promise<FuzzExecutor> {
  if ((await targetByName(target.name)) === null) throw new Error(`fuzz: --workers needs a target a worker can find by name; ${target.name} is not one`);
  const size = Math.min(Math.max(1, count), WORKERS_MAX);
  const pool: PoolWorker[] = Array.from({ length: size }, () => {
    const entry: PoolWorker = { worker: startWorker(target.name), listener: null, failure: null };
    entry.worker.on('message', (reply: WorkerReply) => {
      if (reply.kind === 'failed') entry.failure?.(new Error(reply.message));
      else entry.listener?.(reply);
    });
    entry.worker.on('error', (error) => entry.failure?.(error));
    entry.worker.on('exit', (code) => entry.failure?.(new Error(`fuzz worker exited with code ${code}`)));
    return entry;
  });
  // Every worker has loaded the simulator (and the target's modules) before the search starts.
  await Promise.all(
    pool.map(
      (entry) =>
        new Promise<void>((resolve, reject) => {
          entry.failure = reject;
          entry.listener = (reply) => {
            if (reply.kind === 'ready') resolve();
          };
        }),
    ),
  );
  const idle: PoolWorker[] = [...pool];
  let shrinkId = 0;
  const ask = <T>(entry: PoolWorker, request: WorkerRequest, onReply: (reply: WorkerReply, resolve: (value: T) => void) => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      entry.failure = reject;
      entry.listener = (reply) => onReply(reply, resolve);
      entry.worker.postMessage(request);
    });
  return {
    parallelism: size,
    async search(plans, control, hooks) {
      const lanes = await Promise.all(
        plans.map((plan, index) =>
          ask<{ runs: number; steps: number; coverage: CoverageCounts | null }>(pool[index % size]!, { kind: 'search', plan, control }, (reply, resolve) => {
            if (reply.kind === 'candidate') hooks.onCandidate(reply.candidate);
            else if (reply.kind === 'progress') hooks.onProgress(reply.runs, reply.steps);
            else if (reply.kind === 'searched') resolve(reply);
          }),
        ),
      );
      return {
        runs: lanes.reduce((sum, lane) => sum + lane.runs, 0),
        steps: lanes.reduce((sum, lane) => sum + lane.steps, 0),
        coverage: mergeLaneCoverage(lanes.map((lane) => lane.coverage)),
      };
    },
    async shrink(task, control) {
      // The caller never runs more shrinks at once than there are workers, so one is always idle here.
      const entry = idle.pop();
      if (entry === undefined) throw new Error('assertion: more shrinks at once than fuzz workers');
      shrinkId += 1;
      const id = shrinkId;
      try {
        return await ask<ShrinkResult>(entry, { kind: 'shrink', id, task, control }, (reply, resolve) => {
          if (reply.kind === 'shrunk' && reply.id === id) resolve(reply.result);
        });
      } finally {
        idle.push(entry);
      }
    },
    async close() {
      for (const entry of pool) {
        entry.failure = null;
        entry.listener = null;
      }
      await Promise.all(pool.map((entry) => entry.worker.terminate()));
    },
  };
}
