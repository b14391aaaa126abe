// One worker thread of a fuzz (sim/fuzz-workers.ts starts it): searches the lane and makes the shrinks it is
// sent, for the target described in its workerData (built through the CLI's resolver), and answers with plain data.

import { parentPort, workerData } from 'node:worker_threads';
import type { Target } from '../targets/target.ts';
import { emptyCoverage } from './coverage.ts';
import { type ShrinkTask, shrinkTask } from './fuzz.ts';
import { type LanePlan, searchLane } from './fuzz-search.ts';
import { type InProcessDescription, resolveTarget, targetNameOf } from '../targets/resolve-target.ts';

/** What the pool sends a worker. */
export type WorkerRequest =
  | { readonly kind: 'search'; readonly plan: LanePlan; readonly control: Int32Array }
  | { readonly kind: 'shrink'; readonly id: number; readonly task: ShrinkTask; readonly control: Int32Array };

/** What a worker answers. */
export type WorkerReply =
  | { readonly kind: 'candidate'; readonly candidate: import('./fuzz-search.ts').Candidate }
  | { readonly kind: 'progress'; readonly runs: number; readonly steps: number }
  | { readonly kind: 'searched'; readonly runs: number; readonly steps: number; readonly coverage: import('./coverage.ts').CoverageCounts | null }
  | { readonly kind: 'shrunk'; readonly id: number; readonly result: import('./fuzz.ts').ShrunkTask }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'ready' };

async function handle(target: Target, request: WorkerRequest, reply: (message: WorkerReply) => void): Promise<void> {
  if (request.kind === 'search') {
    const coverage = request.plan.coverage ? emptyCoverage() : null;
    const lane = await searchLane(
      target,
      request.plan,
      request.control,
      { onCandidate: (candidate) => reply({ kind: 'candidate', candidate }), onProgress: (runs, steps) => reply({ kind: 'progress', runs, steps }) },
      coverage,
    );
    reply({ kind: 'searched', runs: lane.runs, steps: lane.steps, coverage: lane.coverage });
    return;
  }
  const result = await shrinkTask(target, request.task, request.control);
  reply({ kind: 'shrunk', id: request.id, result });
}

/** Marks the workerData of a fuzz worker, so this module does nothing in any other thread that loads it. */
export const FUZZ_WORKER_MARK = 'resumecheck-fuzz-worker';

const port = parentPort;
const data = workerData as { mark?: unknown; target?: InProcessDescription } | null;
if (port !== null && data !== null && typeof data === 'object' && data.mark === FUZZ_WORKER_MARK && typeof data.target === 'object' && data.target !== null) {
  const description = data.target;
  const reply = (message: WorkerReply): void => port.postMessage(message);
  const failed = (error: unknown): void => reply({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  resolveTarget(description).then((target) => {
    port.on('message', (request: WorkerRequest) => {
      handle(target, request, reply).catch(failed);
    });
    // Loaded: requests sent meanwhile were kept for the listener; the pool can tell its start-up apart.
    reply({ kind: 'ready' });
  }, (error: unknown) => failed(new Error(`fuzz worker: target ${targetNameOf(description)}: ${error instanceof Error ? error.message : String(error)}`)));
}
