// Several threads for a fuzz: this thread and a pool of worker threads, each searching a lane and then making
// shrinks, one at a time. The choice of what to shrink stays in this thread (sim/search/fuzz.ts), so the findings do not
// depend on how many threads there are.
//
// This thread is one of them: it has loaded the target already (to record traces), so a fuzz of N threads starts
// N - 1 workers, not N, saving one isolate's module loading (0.1-0.4 s of CPU compiled) and memory, and its lane
// starts at once, while the workers' lanes start as soon as they have loaded. Each searching thread still warms its
// JIT up itself (on an SDK target about 1.5 s of extra CPU over its first few hundred runs). Lanes claim ordinals
// from one shared counter, so a late start or a slower core leaves no thread idle at the end.

import type { Target } from '../../targets/target.ts';
import { type CoverageCounts, emptyCoverage } from '../coverage.ts';
import type { FuzzExecutor, ShrunkTask } from './fuzz.ts';
import { WORKERS_MAX, createTurn, mergeLaneCoverage, shrinkTask } from './fuzz.ts';
import { FUZZ_WORKER_MARK, type WorkerReply, type WorkerRequest } from './fuzz-worker.ts';
import { CONTROL, LANE_RUN_CELLS, type LaneOutcome, searchLane } from './fuzz-search.ts';
import { type InProcessDescription, workerDescriptionOf } from '../../targets/resolve-target.ts';
import { type PoolWorker as PoolWorkerOf, WorkerLoadError, askPoolWorker, closePoolWorkers, startPoolWorker } from './worker-thread.ts';
import { every, realNowMs } from '../../targets/module/clock.ts';
import { callSlotReader, createCallSlotBuffer } from '../../targets/module/call-slot.ts';
import { beatWatch, blockedAfterMs } from '../../targets/module/heartbeat.ts';
import { STORE_CALL_TIMEOUT_MS } from '../../targets/module/module.target.ts';
import { RECYCLE_DEFAULTS, type RecycleBounds } from '../../targets/module/wear.ts';

type PoolWorker = PoolWorkerOf<WorkerReply>;

/** The pool's executor: also tells when every worker has loaded. */
export interface WorkerPoolExecutor extends FuzzExecutor {
  /**
   * Resolves once every worker has loaded (the search does not wait for it: this thread's lane starts at once), for
   * a caller that times the start-up apart or wants every lane running from the first run.
   */
  ready(): Promise<void>;
  /** How many times a contained worker, worn by the user's module (targets/module/wear.ts), was replaced by a fresh one. */
  recycled(): number;
}

/**
 * A contained fuzz's verdict: a worker running the user's module went down (it called process.exit, an error was
 * thrown from one of its timers, it ran out of memory). Nothing of the module runs in this thread, so this thread
 * is still here to say so, in one line.
 */
export class ContainedFailure extends Error {
  override readonly name = 'ContainedFailure';
}

/**
 * How long a contained worker's event loop may stand still (no heartbeat) before the user's module counts as having
 * blocked it (a busy loop, a synchronous wait): longer than any store call may take (the module target's call
 * timeout), so a slow call is never taken for one. Real time: the one thing a blocked thread cannot count itself.
 */
export const BLOCKED_MS = blockedAfterMs(STORE_CALL_TIMEOUT_MS);
/** How often this thread reads the contained workers' heartbeats. */
const WATCH_MS = 250;

/** A contained worker whose loop stood still past its bound: terminated, and this is why. */
export class BlockedWorker extends Error {
  override readonly name = 'BlockedWorker';
}

/** A thread a shrink can run in: this one, or the worker at a place of the pool. */
type ShrinkSlot = { readonly kind: 'here' } | { readonly kind: 'worker'; readonly index: number };

/**
 * An executor of `count` threads for `target` (this thread and `count - 1` workers), which a worker must be able to
 * build again from its description (targets/resolve-target.ts). Contained, a worker worn by the user's module (its
 * heap or its handles past `recycle`'s bounds, default RECYCLE_DEFAULTS) hands over between two runs to a fresh one,
 * which goes on with its lane from the next ordinal, or makes the next shrink: the same findings, bounded memory.
 */
export async function workerPoolExecutor(
  target: Target,
  count: number,
  options: { readonly contained?: boolean; readonly recycle?: Partial<RecycleBounds> } = {},
): Promise<WorkerPoolExecutor> {
  const contained = options.contained === true;
  const recycle: RecycleBounds | null = contained ? { ...RECYCLE_DEFAULTS, ...options.recycle } : null;
  // A worker builds the target again from its description (plain data), through the resolver the CLI uses.
  const description = await workerDescriptionOf(target);
  if (description === null) throw new Error(`fuzz: --workers needs a target a worker can build again (one the target resolver built, or a built-in one); ${target.name} is not one`);
  const size = Math.min(Math.max(1, count), WORKERS_MAX);
  const turn = createTurn();
  // Contained, every lane and shrink is a worker's: this thread runs nothing of the target.
  const start = (): PoolMember => (contained ? startContainedWorker(description, 'fuzz worker', { stuckMs: BLOCKED_MS, recycle }) : plainMember(startFuzzWorker(description, null, recycle, 'fuzz worker'), 'fuzz worker'));
  const pool: PoolMember[] = Array.from({ length: contained ? size : size - 1 }, start);
  let recycled = 0;
  /** The worker at `index` worn: it goes (with its module instances and whatever the store left open) before a fresh one starts. */
  const replace = async (index: number): Promise<void> => {
    await pool[index]!.close();
    pool[index] = start();
    recycled += 1;
  };
  const idle: ShrinkSlot[] = [...(contained ? [] : [{ kind: 'here' } as const]), ...pool.map((_, index): ShrinkSlot => ({ kind: 'worker', index }))];
  /** Asks a worker; contained, its going down is the verdict, naming what it was doing (`what`). */
  const askContained = async <T>(control: Int32Array, place: number, what: (control: Int32Array) => string, asked: () => Promise<T>): Promise<T> => {
    try {
      return await asked();
    } catch (error) {
      if (!contained) throw error;
      // The others stop at their next run; the verdict names what this one was doing.
      Atomics.store(control, CONTROL.stop, 1);
      const cause = error instanceof Error ? error.message.split('\n')[0]! : String(error);
      // A worker that could not load (it threw, it did not exit or block) failed before the user's module ran any of
      // its work: this thread loaded the same module already, so it is no verdict on it, and says so in one line.
      if (error instanceof WorkerLoadError) throw new Error(`a fuzz worker thread could not load the target: ${cause.replace(/^(Error: )?fuzz worker: target /, '')}`);
      // A store call that outlasted the call timeout ended the run (targets/module/module.target.ts): the thread is up,
      // and every later call could wait as long again; the verdict is check-store's calls-settle, in one line.
      const hung = /^(?:Error: )?StoreHangError: (.*)$/.exec(cause);
      if (hung !== null) throw new ContainedFailure(`${target.name}: a store call never settled ${what(control)}: ${hung[1]}; inside the transport it hangs the request it serves`);
      const consequence = error instanceof BlockedWorker ? 'stop answering' : 'go down';
      const call = pool[place]!.lastCall();
      const during = call === null ? '' : `, during or after ${call}`;
      throw new ContainedFailure(`${target.name} took its worker thread down ${what(control)}${during}: ${cause.replace(/^fuzz worker /, 'the thread ')}; a server using it would ${consequence} the same way`);
    }
  };
  let shrinkId = 0;
  const ask = <T>(entry: PoolWorker, request: WorkerRequest, onReply: (reply: WorkerReply, resolve: (value: T) => void) => void): Promise<T> =>
    askPoolWorker<WorkerReply, T>(entry, request, onReply);
  return {
    parallelism: size,
    contained,
    turn,
    async ready() {
      await Promise.all(pool.map((member) => member.entry.loaded));
    },
    recycled: () => recycled,
    async search(plans, control, hooks) {
      const lanes: Promise<LaneOutcome>[] = plans.map((plan, index) => {
        if (index === 0 && !contained) {
          // This thread's lane: its runs take the thread's turn with the traces recorded here meanwhile.
          const coverage = plan.coverage ? emptyCoverage() : null;
          return searchLane(target, plan, control, { ...hooks, turn }, coverage);
        }
        const place = (contained ? index : index - 1) % pool.length;
        // Contained, a lane records its candidates itself and says which run it makes (the control block's run cells).
        const lanePlan = contained ? { ...plan, lane: index, recordCandidates: true } : plan;
        const during = (cells: Int32Array): string => {
          const run = Atomics.load(cells, LANE_RUN_CELLS + index);
          return run === 0 ? 'while loading' : `in run ${run} (seed ${plan.config.seed}.${run})`;
        };
        const searchThere = (): Promise<LaneOutcome> =>
          askContained(control, place, during, () =>
            ask<LaneOutcome>(pool[place]!.entry, { kind: 'search', plan: lanePlan, control }, (reply, resolve) => {
              if (reply.kind === 'candidate') void hooks.onCandidate(reply.candidate);
              else if (reply.kind === 'progress') hooks.onProgress(reply.runs, reply.steps);
              else if (reply.kind === 'searched') resolve(reply);
            }),
          );
        return (async (): Promise<LaneOutcome> => {
          // A worn worker's lane goes on in a fresh one from the next ordinal, while any is left to claim.
          const parts: LaneOutcome[] = [];
          for (;;) {
            const part = await searchThere();
            parts.push(part);
            const next = Atomics.load(control, CONTROL.next);
            if (part.paused !== true || Atomics.load(control, CONTROL.stop) !== 0 || next >= plan.runsMax || next > Atomics.load(control, CONTROL.bound)) break;
            await replace(place);
          }
          return {
            runs: parts.reduce((sum, part) => sum + part.runs, 0),
            steps: parts.reduce((sum, part) => sum + part.steps, 0),
            coverage: mergeLaneCoverage(parts.map((part) => part.coverage)),
          };
        })();
      });
      const outcomes = await Promise.all(lanes);
      return {
        runs: outcomes.reduce((sum, lane) => sum + lane.runs, 0),
        steps: outcomes.reduce((sum, lane) => sum + lane.steps, 0),
        coverage: mergeLaneCoverage(outcomes.map((lane): CoverageCounts | null => lane.coverage)),
      };
    },
    async shrink(task, control) {
      // The caller never runs more shrinks at once than there are threads, so one is always idle here.
      const slot = idle.pop();
      if (slot === undefined) throw new Error('assertion: more shrinks at once than fuzz threads');
      try {
        if (slot.kind === 'here') {
          return await turn(() => shrinkTask(target, task, control));
        }
        shrinkId += 1;
        const id = shrinkId;
        const shrunk = await askContained(control, slot.index, () => `while shrinking the counterexample of seed ${task.config.seed} (${task.property})`, () =>
          ask<{ result: ShrunkTask; worn: boolean }>(pool[slot.index]!.entry, { kind: 'shrink', id, task, control }, (reply, resolve) => {
            if (reply.kind === 'shrunk' && reply.id === id) resolve(reply);
          }),
        );
        if (shrunk.worn) await replace(slot.index);
        return shrunk.result;
      } finally {
        idle.push(slot);
      }
    },
    async close() {
      await Promise.all(pool.map((member) => member.close()));
    },
  };
}

/** A worker of a pool: its thread, and (contained) the store call it made last. */
export interface PoolMember {
  readonly entry: PoolWorker;
  /** The store call the worker made last, as its call slot says; null when it made none or is not contained. */
  lastCall(): string | null;
  /** Stops watching it and ends its thread: nothing more is listened for. */
  close(): Promise<void>;
}

/** Starts a fuzz worker on `target` (null: it runs tasks only), with a call slot when contained. */
function startFuzzWorker(target: InProcessDescription | null, slot: SharedArrayBuffer | null, recycle: RecycleBounds | null, label: string, quiet = false): PoolWorker {
  const data = { mark: FUZZ_WORKER_MARK, target, slot, recycle };
  return startPoolWorker<WorkerReply>('fuzz-worker', data, label, quiet ? { stdout: false, stderr: false } : {});
}

function plainMember(entry: PoolWorker, label: string): PoolMember {
  return { entry, lastCall: () => null, close: () => closePoolWorkers([entry], label) };
}

/**
 * Starts a fuzz worker (on `target`, or null for one that runs tasks only) that contains a user's module: it names
 * each store call in a call slot of its own before making it and beats the slot while its loop turns
 * (sim/search/fuzz-worker.ts, targets/module/call-slot.ts). This thread reads the beats: a worker whose loop has stood
 * still for `stuckMs` (once it has beaten; the startup bound before) is terminated, and the request it was answering
 * fails with a {@link BlockedWorker}. `quiet` keeps the module's output off the terminal. check-store's contained
 * check and the contained fuzz both run in such workers.
 */
export function startContainedWorker(
  target: InProcessDescription | null,
  label: string,
  options: { readonly stuckMs: number; readonly recycle?: RecycleBounds | null; readonly quiet?: boolean },
): PoolMember {
  const buffer = createCallSlotBuffer();
  const slot = callSlotReader(buffer);
  const entry = startFuzzWorker(target, buffer, options.recycle ?? null, label, options.quiet === true);
  const watch = beatWatch(() => slot.beats(), options.stuckMs);
  const stop = every(WATCH_MS, () => {
    if (entry.dead !== null || !watch.stalled(realNowMs())) return;
    const blocked = new BlockedWorker(`it blocked the thread for over ${options.stuckMs} ms (a busy loop or a synchronous wait)`);
    entry.dead = blocked;
    entry.failure?.(blocked);
    void entry.worker.terminate();
  });
  entry.worker.once('exit', stop);
  return {
    entry,
    lastCall: () => slot.lastCall(),
    async close() {
      stop();
      await closePoolWorkers([entry], label);
    },
  };
}
