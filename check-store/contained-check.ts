// check-store's containment: the check runs in a worker thread, so whatever the store does — process.exit, a busy
// loop, an uncaught error from its timers, a connection that never closes — the main thread stays in charge and gives
// one verdict line naming the store call and the seed. An interruption (SIGINT, SIGTERM) stops the worker, keeps every
// trace written so far and leaves no temporary file.
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
import type { Worker } from 'node:worker_threads';
import { startWorkerModule } from '../sim/search/worker-thread.ts';
import { every, realNowMs } from '../targets/module/clock.ts';
import { beatWatch, blockedAfterMs } from '../targets/module/heartbeat.ts';
import type { StoreModuleRef } from '../targets/module/store-module.ts';
import { callSlotReader, createCallSlotBuffer } from '../targets/module/call-slot.ts';
import { RECYCLE_DEFAULTS, type RecycleBounds } from '../targets/module/wear.ts';
import { type CheckEventStoreOptions, STORE_CHECK_NOT_BEGUN, type StoreCheckProgress, type StoreCheckResult, type StoreDiscovery, type StoreViolation, storeCheckResult } from './check-event-store.ts';

/** What the main thread tells the worker. */
export type WorkerRequest = { readonly type: 'stop' };

/** What the worker tells the main thread. */
export type WorkerReport =
  | { readonly type: 'violation'; readonly violation: StoreViolation }
  | { readonly type: 'discovery'; readonly discovery: StoreDiscovery }
  /** The worker made its runs: the check's progress (done, or to go on from in a fresh worker). */
  | { readonly type: 'progress'; readonly progress: StoreCheckProgress }
  | { readonly type: 'bad-input'; readonly message: string }
  | { readonly type: 'crash'; readonly message: string; readonly stack: string | null };

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
/** How often the main thread looks at the worker's heartbeat. */
const WATCH_MS = 100;
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

/**
 * Starts the check of the store module `ref` in a worker. `onViolation` is called with each violation as the worker
 * finds and shrinks it (its trace already written), `onDiscovery` as soon as a run shows it.
 */
export function startContainedCheck(ref: StoreModuleRef, options: ContainedOptions, onViolation: (violation: StoreViolation) => void, onDiscovery: (discovery: StoreDiscovery) => void = () => {}): ContainedCheck {
  const slot = createCallSlotBuffer();
  const reader = callSlotReader(slot);
  const { recycleRuns = RECYCLE_DEFAULTS.runs, recycleHeapBytes = RECYCLE_DEFAULTS.heapBytes, recycleHandles = RECYCLE_DEFAULTS.handles, ...checkOptions } = options;
  const recycle: RecycleBounds = { runs: recycleRuns, heapBytes: recycleHeapBytes, handles: recycleHandles };
  let workers = 0;
  // A worker making no run would hand over the same progress for ever.
  if (!Number.isInteger(recycleRuns) || recycleRuns < 1) throw new Error(`assertion: recycleRuns takes a whole number of at least 1, got ${recycleRuns}`);
  const violations: StoreViolation[] = [];
  const callTimeoutMs = options.callTimeoutMs ?? 3_000;
  // A loop that has not turned for this long is stuck in synchronous code (a busy loop): more than any store call may take.
  const stuckMs = blockedAfterMs(callTimeoutMs);
  let interrupted = false;
  let graceTimer: (() => void) | null = null;
  let settle: (outcome: ContainedOutcome) => void = () => {};
  const outcome = new Promise<ContainedOutcome>((resolve) => {
    settle = resolve;
  });
  let finished = false;
  const where = (): string => {
    const call = reader.lastCall();
    return call === null ? 'before any store call' : `during or after ${call}`;
  };
  // The worker at work, and its heartbeat (before its first beat, the startup bound applies).
  let worker: Worker | null = null;
  const watch = beatWatch(() => reader.beats(), stuckMs);
  const finish = (result: ContainedOutcome): void => {
    if (finished) return;
    finished = true;
    stopWatch();
    graceTimer?.();
    // Whatever the store left open (connections, timers) goes with the thread.
    void (worker?.terminate() ?? Promise.resolve()).then(() => {
      removeTemporaries(options.out ?? null);
      settle(result);
    });
  };
  const stopWatch = every(WATCH_MS, () => {
    if (watch.stalled(realNowMs()) && worker !== null) {
      finish({ kind: 'contained', verdict: `the store blocked the checker's thread for over ${stuckMs} ms (a busy loop or a synchronous wait) ${where()}`, violations: [...violations] });
    }
  });
  const start = (progress: StoreCheckProgress): void => {
    const current = startWorkerModule(import.meta.url, 'check-worker', { ref, options: checkOptions, slot, progress, recycle }, { stdout: false, stderr: false });
    workers += 1;
    worker = current;
    watch.restart();
    // A worker that handed its progress back is retired: its exit is no verdict.
    let retired = false;
    const next = (advanced: StoreCheckProgress): void => {
      retired = true;
      worker = null;
      // The old thread goes (with its module instances and whatever the store left open) before the next one starts.
      void current.terminate().then(() => {
        if (finished) return;
        if (advanced.done || interrupted) return finish({ kind: 'done', result: storeCheckResult(ref, checkOptions, advanced), workers });
        start(advanced);
      });
    };
    current.on('message', (report: WorkerReport) => {
      if (retired) return;
      switch (report.type) {
        case 'violation':
          violations.push(report.violation);
          onViolation(report.violation);
          return;
        case 'discovery':
          onDiscovery(report.discovery);
          return;
        case 'progress':
          return next(report.progress);
        case 'bad-input':
          return finish({ kind: 'bad-input', message: report.message });
        case 'crash':
          throw new Error(`assertion: the check crashed in its worker: ${report.message}${report.stack === null ? '' : `\n${report.stack}`}`);
      }
    });
    current.on('error', (error: unknown) => {
      if (retired) return;
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      finish({ kind: 'contained', verdict: `the store's code threw an uncaught error (${message}) ${where()}: an error from its timers or callbacks would end the server's process`, violations: [...violations] });
    });
    current.on('exit', (code) => {
      if (retired) return;
      if (interrupted) return finish({ kind: 'interrupted', violations: [...violations] });
      finish({ kind: 'contained', verdict: `the store ended the checker's thread (process.exit(${code}) or the like) ${where()}: it would end the server's process`, violations: [...violations] });
    });
  };
  start(STORE_CHECK_NOT_BEGUN);
  return {
    outcome,
    interrupt() {
      if (interrupted || finished) return;
      interrupted = true;
      worker?.postMessage({ type: 'stop' } satisfies WorkerRequest);
      graceTimer = every(INTERRUPT_GRACE_MS, () => finish({ kind: 'interrupted', violations: [...violations] }));
    },
  };
}
