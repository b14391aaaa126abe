// One worker thread of a fuzz (sim/search/fuzz-workers.ts starts it): searches the lane and makes the shrinks it is
// sent, for the target described in its workerData (built through the CLI's resolver), and answers with plain data.

import { parentPort, workerData } from 'node:worker_threads';
import { callSlotWriter, installStoreCallSlot } from '../../targets/module/call-slot.ts';
import { startBeating } from '../../targets/module/heartbeat.ts';
import type { Target } from '../../targets/target.ts';
import { emptyCoverage } from '../coverage.ts';
import { type ShrinkTask, shrinkTask } from './fuzz.ts';
import { type LaneHooks, type LanePlan, searchLane } from './fuzz-search.ts';
import { type RecycleBounds, wearGauge } from '../../targets/module/wear.ts';
import { type InProcessDescription, resolveTarget, targetNameOf } from '../../targets/resolve-target.ts';

/** What the pool sends a worker. */
export type WorkerRequest =
  | { readonly kind: 'search'; readonly plan: LanePlan; readonly control: Int32Array }
  | { readonly kind: 'shrink'; readonly id: number; readonly task: ShrinkTask; readonly control: Int32Array }
  /**
   * A task of another search, whatever target the worker was started on: `module` names one of resumecheck's own
   * modules (relative to the package, without its extension: `sim/search/matrix-search`), whose {@link WorkerTask}
   * `workerTask` runs it on `data`.
   */
  | { readonly kind: 'task'; readonly id: number; readonly module: WorkerTaskModule; readonly data: unknown; readonly control: Int32Array };

/** What a worker answers. */
export type WorkerReply =
  | { readonly kind: 'candidate'; readonly candidate: import('./fuzz-search.ts').Candidate }
  | { readonly kind: 'progress'; readonly runs: number; readonly steps: number }
  /** `paused`: the worker is worn (targets/module/wear.ts) and a fresh one should go on with the lane. */
  | { readonly kind: 'searched'; readonly runs: number; readonly steps: number; readonly coverage: import('../coverage.ts').CoverageCounts | null; readonly paused: boolean }
  /** `worn`: a fresh worker should make the next shrink. */
  | { readonly kind: 'shrunk'; readonly id: number; readonly result: import('./fuzz.ts').ShrunkTask; readonly worn: boolean }
  /** What a task tells as it goes (check-store's violations as it finds them), then its result. */
  | { readonly kind: 'told'; readonly id: number; readonly report: unknown }
  | { readonly kind: 'task-done'; readonly id: number; readonly result: unknown }
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'ready' };

/** The modules whose tasks a fuzz worker runs: resumecheck's own, never one a trace or a user names. */
export type WorkerTaskModule = 'sim/search/matrix-search' | 'check-store/contained-check';

/**
 * A task module's entry: runs one task in this worker on `data` (plain data), telling what it finds as it goes with
 * `tell`; `control` is the asker's control block (its stop cell ends the task early). Resolves with plain data.
 */
export type WorkerTask = (data: unknown, control: Int32Array, tell: (report: unknown) => void) => Promise<unknown>;

/** A contained worker's wear (targets/module/wear.ts): runs made, and whether it should hand over; null when never. */
interface Wear {
  ran(runs: number): void;
  worn(): boolean;
}

/** The wear of a worker recycled by `bounds`, counted from now. */
function wearOf(bounds: RecycleBounds): Wear {
  const gauge = wearGauge(bounds);
  let made = 0;
  return {
    ran(runs) {
      made += runs;
    },
    worn: () => made >= bounds.runs || gauge.worn(),
  };
}

async function handle(target: Target, request: Exclude<WorkerRequest, { kind: 'task' }>, wear: Wear | null, reply: (message: WorkerReply) => void): Promise<void> {
  if (request.kind === 'search') {
    const coverage = request.plan.coverage ? emptyCoverage() : null;
    const hooks: LaneHooks = { onCandidate: (candidate) => reply({ kind: 'candidate', candidate }), onProgress: (runs, steps) => reply({ kind: 'progress', runs, steps }) };
    if (wear !== null) {
      hooks.pause = () => {
        wear.ran(1);
        return wear.worn();
      };
    }
    const lane = await searchLane(target, request.plan, request.control, hooks, coverage);
    reply({ kind: 'searched', runs: lane.runs, steps: lane.steps, coverage: lane.coverage, paused: lane.paused === true });
    return;
  }
  const result = await shrinkTask(target, request.task, request.control);
  wear?.ran(result.shrink.evaluations);
  reply({ kind: 'shrunk', id: request.id, result, worn: wear?.worn() === true });
}

/** Marks the workerData of a fuzz worker, so this module does nothing in any other thread that loads it. */
export const FUZZ_WORKER_MARK = 'resumecheck-fuzz-worker';

/** The task modules' entries, each module loaded at its first task; the modules beside this one's (compiled or sources). */
function taskRunner(): (request: Extract<WorkerRequest, { kind: 'task' }>, reply: (message: WorkerReply) => void) => Promise<void> {
  const entries = new Map<WorkerTaskModule, Promise<WorkerTask>>();
  const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
  return async ({ id, module, data, control }, reply) => {
    let entry = entries.get(module);
    if (entry === undefined) {
      entry = import(new URL(`../../${module}${extension}`, import.meta.url).href).then((loaded: { workerTask?: WorkerTask }) => {
        if (typeof loaded.workerTask !== 'function') throw new Error(`assertion: ${module} has no workerTask`);
        return loaded.workerTask;
      });
      entries.set(module, entry);
    }
    const result = await (await entry)(data, control, (report) => reply({ kind: 'told', id, report }));
    reply({ kind: 'task-done', id, result });
  };
}

const port = parentPort;
const data = workerData as { mark?: unknown; target?: InProcessDescription | null; slot?: SharedArrayBuffer | null; recycle?: RecycleBounds | null } | null;
// A worker started with no target (target null) answers tasks only: the matrix's, check-store's.
if (port !== null && data !== null && typeof data === 'object' && data.mark === FUZZ_WORKER_MARK && typeof data.target === 'object') {
  const description = data.target ?? null;
  // Contained: its pool terminates it once the beats stop (sim/search/fuzz-workers.ts); loading the user's module is
  // watched too, and each store call is named in the slot (targets/module/call-slot.ts) before it is made.
  if (data.slot !== undefined && data.slot !== null) {
    const slot = callSlotWriter(data.slot);
    installStoreCallSlot(slot);
    startBeating(() => slot.beat());
  }
  const reply = (message: WorkerReply): void => port.postMessage(message);
  const failed = (error: unknown): void => reply({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  const runTask = taskRunner();
  (description === null ? Promise.resolve(null) : resolveTarget(description)).then((target) => {
    // Gauged from here: what loading left (the checker, the SDK, the module's first instance) is the thread's own.
    const wear = data.recycle === undefined || data.recycle === null ? null : wearOf(data.recycle);
    port.on('message', (request: WorkerRequest) => {
      if (request.kind === 'task') {
        runTask(request, reply).catch(failed);
        return;
      }
      if (target === null) {
        reply({ kind: 'failed', message: 'worker: a worker started with no target runs tasks only' });
        return;
      }
      handle(target, request, wear, reply).catch(failed);
    });
    // Loaded: requests sent meanwhile were kept for the listener; the pool can tell its start-up apart.
    reply({ kind: 'ready' });
  }, (error: unknown) => failed(new Error(`fuzz worker: target ${description === null ? '(none)' : targetNameOf(description)}: ${error instanceof Error ? error.message : String(error)}`)));
}
