// check-store's containment: the check runs in a contained fuzz worker (sim/search/fuzz-workers.ts: the thread
// names each store call and beats while its loop turns, and this thread watches), so whatever the store does —
// process.exit, a busy loop, an uncaught error from its timers, a connection that never closes — the main thread stays
// in charge and gives one verdict line naming the store call and the seed. An interruption (SIGINT, SIGTERM) stops the
// worker, keeps every trace written so far and leaves no temporary file.
//
// The worker is recycled on evidence that it should be: each simulated run imports the store's module afresh (so its
// module-level state starts empty) and Node's ESM loader never frees a module, so a thread whose heap has grown past
// a bound, or whose store has left handles open (timers, connections) past a bound, hands its progress back between
// two runs and a fresh thread goes on from the next run with what the check kept (advanceStoreCheck's progress).
// Runs are a function of the seed and their number, so the verdicts and the trace bytes are the same however the
// runs are shared out. A thread that sees no such evidence makes every run: a fresh one costs a start (loading the
// checker, the SDK and the store) and a cold JIT, which recycling every 200 runs paid twenty times in a 2000-run check.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BlockedWorker, type PoolMember, startContainedWorker } from '../sim/search/fuzz-workers.ts';
import type { WorkerReply, WorkerRequest, WorkerTask } from '../sim/search/fuzz-worker.ts';
import { CONTROL, createControl } from '../sim/search/fuzz-search.ts';
import { WorkerExitError, WorkerLoadError, WorkerTaskError, askPoolWorker } from '../sim/search/worker-thread.ts';
import { every } from '../targets/module/clock.ts';
import { blockedAfterMs } from '../targets/module/heartbeat.ts';
import { type StoreModuleRef, StoreModuleError, firstLine } from '../targets/module/store-module.ts';
import { moduleSource } from '../targets/module/module.target.ts';
import { RECYCLE_DEFAULTS, type RecycleBounds, wearGauge } from '../targets/module/wear.ts';
import { type CheckEventStoreOptions, STORE_CHECK_NOT_BEGUN, type StoreCheckProgress, type StoreCheckResult, type StoreDiscovery, type StoreViolation, advanceStoreCheck, storeCheckResult } from './check-event-store.ts';

/** What the worker's task is given: plain data. */
interface CheckTask {
  readonly ref: StoreModuleRef;
  readonly options: CheckEventStoreOptions;
  readonly progress: StoreCheckProgress;
  readonly recycle: RecycleBounds;
}

/** What the worker's task tells as it goes. */
type CheckReport = { readonly type: 'violation'; readonly violation: StoreViolation } | { readonly type: 'discovery'; readonly discovery: StoreDiscovery };

/** The task's result: the check's progress (done, or to go on from in a fresh worker), or bad input. */
type CheckTaskResult = { readonly type: 'progress'; readonly progress: StoreCheckProgress } | { readonly type: 'bad-input'; readonly message: string };

/** How a contained check ended. */
export type ContainedOutcome =
  /** `workers`: the worker threads the check took (1 unless one was recycled). */
  | { readonly kind: 'done'; readonly result: StoreCheckResult; readonly workers: number }
  | { readonly kind: 'bad-input'; readonly message: string }
  /** The store took the worker down, or stopped its loop: one verdict line; the violations found before it. */
  | { readonly kind: 'contained'; readonly verdict: string; readonly violations: readonly StoreViolation[] }
  /** Interrupted and the worker did not finish in time: the violations found so far. */
  | { readonly kind: 'interrupted'; readonly violations: readonly StoreViolation[] };

/** Milliseconds an interrupted worker gets to return what it has before it is stopped. */
export const INTERRUPT_GRACE_MS = 800;
/** The start of the teardown warning about handles a store left open. */
export const LEAKED_HANDLES_WARNING = 'the store left handles open';
/**
 * Serializable options only: the worker gets no functions. When a worker is recycled: `recycleRuns`,
 * `recycleHeapBytes` and `recycleHandles` (targets/module/wear.ts: RecycleBounds, defaults RECYCLE_DEFAULTS).
 */
export type ContainedOptions = Omit<CheckEventStoreOptions, 'onViolation' | 'onDiscovery' | 'stopped'> & {
  readonly recycleRuns?: number;
  readonly recycleHeapBytes?: number;
  readonly recycleHandles?: number;
};

/** A running contained check. */
export interface ContainedCheck {
  /** Asks the worker to stop at the next run; after {@link INTERRUPT_GRACE_MS} it is terminated. */
  interrupt(): void;
  readonly outcome: Promise<ContainedOutcome>;
}

/** Removes the temporary files a terminated worker may have left in `directory` (they carry this process's ID). */
function removeTemporaries(directory: string | null): void {
  if (directory === null || !existsSync(directory)) return;
  const suffix = `.${process.pid}.tmp`;
  for (const name of readdirSync(directory)) if (name.endsWith(suffix)) rmSync(join(directory, name), { force: true });
}

/** The kinds of handle and request this thread's event loop holds, counted. */
function resourceCounts(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** The handles left open since `before`, as a teardown warning; null when none were. */
function leakedResources(before: Map<string, number>, after: Map<string, number>): string | null {
  const left = [...after].filter(([kind, count]) => count > (before.get(kind) ?? 0)).map(([kind, count]) => `${kind} ×${count - (before.get(kind) ?? 0)}`);
  if (left.length === 0) return null;
  return `${LEAKED_HANDLES_WARNING} after its runs ended (${left.join(', ')}): close them in an onRunEnd hook or the module's close(); the CLI ends them with its worker thread`;
}

/**
 * The check's part in a worker (sim/search/fuzz-worker.ts runs it): at most `recycle.runs` more runs from `progress`,
 * handing back earlier once the thread is worn; each violation told as it is found. Every store call the module source
 * makes is named in the worker's call slot, for the verdict if the store stops the thread.
 */
export const workerTask: WorkerTask = async (data, control, tell) => {
  const { ref, options, progress, recycle } = data as CheckTask;
  const before = resourceCounts();
  const gauge = wearGauge(recycle);
  const report = (message: CheckReport): void => tell(message);
  try {
    const advanced = await advanceStoreCheck(
      moduleSource(ref),
      {
        ...options,
        stopped: () => Atomics.load(control, CONTROL.stop) !== 0,
        onViolation: (violation) => report({ type: 'violation', violation }),
        onDiscovery: (discovery) => report({ type: 'discovery', discovery }),
      },
      progress,
      recycle.runs,
      { pause: gauge.worn },
    );
    // One warning per check: each thread's runs leave their own handles, and the first thread to see some says so.
    const leaked = advanced.teardown.some((line) => line.startsWith(LEAKED_HANDLES_WARNING)) ? null : leakedResources(before, resourceCounts());
    return { type: 'progress', progress: leaked === null ? advanced : { ...advanced, teardown: [...advanced.teardown, leaked] } } satisfies CheckTaskResult;
  } catch (error) {
    if (error instanceof StoreModuleError) return { type: 'bad-input', message: error.message } satisfies CheckTaskResult;
    throw error;
  }
};

/**
 * Starts the check of the store module `ref` in a contained worker. `onViolation` is called with each violation as
 * the worker finds and shrinks it (its trace already written), `onDiscovery` as soon as a run shows it.
 */
export function startContainedCheck(ref: StoreModuleRef, options: ContainedOptions, onViolation: (violation: StoreViolation) => void, onDiscovery: (discovery: StoreDiscovery) => void = () => {}): ContainedCheck {
  const { recycleRuns = RECYCLE_DEFAULTS.runs, recycleHeapBytes = RECYCLE_DEFAULTS.heapBytes, recycleHandles = RECYCLE_DEFAULTS.handles, ...checkOptions } = options;
  const recycle: RecycleBounds = { runs: recycleRuns, heapBytes: recycleHeapBytes, handles: recycleHandles };
  // A worker making no run would hand over the same progress for ever.
  if (!Number.isInteger(recycleRuns) || recycleRuns < 1) throw new Error(`assertion: recycleRuns takes a whole number of at least 1, got ${recycleRuns}`);
  const violations: StoreViolation[] = [];
  // A loop that has not turned for this long is stuck in synchronous code (a busy loop): more than any store call may take.
  const stuckMs = blockedAfterMs(options.callTimeoutMs ?? 3_000);
  const control = createControl({ shared: true });
  let interrupted = false;
  let graceTimer: (() => void) | null = null;
  let worker: PoolMember | null = null;
  let finished = false;
  let settle: (outcome: ContainedOutcome) => void = () => {};
  const outcome = new Promise<ContainedOutcome>((resolve) => {
    settle = resolve;
  });
  const finish = (result: ContainedOutcome): void => {
    if (finished) return;
    finished = true;
    graceTimer?.();
    // Whatever the store left open (connections, timers) goes with the thread.
    void (worker?.close() ?? Promise.resolve()).then(() => {
      removeTemporaries(options.out ?? null);
      settle(result);
    });
  };
  /** The one verdict line when the store took the worker down (`error`: why its request failed). */
  const verdict = (error: unknown, member: PoolMember): string => {
    const call = member.lastCall();
    const where = call === null ? 'before any store call' : `during or after ${call}`;
    if (error instanceof BlockedWorker) return `the store blocked the checker's thread for over ${stuckMs} ms (a busy loop or a synchronous wait) ${where}`;
    if (error instanceof WorkerExitError) return `the store ended the checker's thread (process.exit(${error.code}) or the like) ${where}: it would end the server's process`;
    return `the store's code threw an uncaught error (${firstLine(error)}) ${where}: an error from its timers or callbacks would end the server's process`;
  };
  const run = async (): Promise<void> => {
    let progress = STORE_CHECK_NOT_BEGUN;
    for (let workers = 1; ; workers += 1) {
      const member = startContainedWorker(null, 'check-store worker', { stuckMs, quiet: true });
      worker = member;
      const request: WorkerRequest = { kind: 'task', id: workers, module: 'check-store/contained-check', data: { ref, options: checkOptions, progress, recycle } satisfies CheckTask, control };
      let result: CheckTaskResult;
      try {
        result = await askPoolWorker<WorkerReply, CheckTaskResult>(member.entry, request, (reply, resolve) => {
          if (reply.kind === 'task-done') return resolve(reply.result as CheckTaskResult);
          if (reply.kind !== 'told') return;
          const report = reply.report as CheckReport;
          if (report.type === 'discovery') return onDiscovery(report.discovery);
          violations.push(report.violation);
          onViolation(report.violation);
        });
      } catch (error) {
        // The check's own code failing (not the store's) is a bug of resumecheck's, said as one.
        if (error instanceof WorkerTaskError || error instanceof WorkerLoadError) throw new Error(`assertion: the check crashed in its worker: ${error.message}`);
        if (interrupted) return finish({ kind: 'interrupted', violations: [...violations] });
        return finish({ kind: 'contained', verdict: verdict(error, member), violations: [...violations] });
      }
      if (result.type === 'bad-input') return finish({ kind: 'bad-input', message: result.message });
      progress = result.progress;
      if (progress.done || interrupted) return finish({ kind: 'done', result: storeCheckResult(ref, checkOptions, progress), workers });
      // The old thread goes (with its module instances and whatever the store left open) before the next one starts.
      worker = null;
      await member.close();
      if (finished) return;
    }
  };
  run().catch((error: unknown) => {
    finished = true;
    void worker?.close();
    throw error;
  });
  return {
    outcome,
    interrupt() {
      if (interrupted || finished) return;
      interrupted = true;
      Atomics.store(control, CONTROL.stop, 1);
      graceTimer = every(INTERRUPT_GRACE_MS, () => finish({ kind: 'interrupted', violations: [...violations] }));
    },
  };
}
