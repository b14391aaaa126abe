// check-store's containment: the check runs in a worker thread, so whatever the store does — process.exit, a busy
// loop, an uncaught error from its timers, a connection that never closes — the main thread stays in charge and gives
// one verdict line naming the store call and the seed. An interruption (SIGINT, SIGTERM) stops the worker, keeps every
// trace written so far and leaves no temporary file.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { every, realNowMs } from '../targets/module/clock.ts';
import type { StoreModuleRef } from '../targets/module/store-module.ts';
import { callSlotReader, createCallSlotBuffer } from './call-slot.ts';
import type { CheckEventStoreOptions, StoreCheckResult, StoreViolation } from './check-event-store.ts';

/** What the main thread tells the worker. */
export type WorkerRequest = { readonly type: 'stop' };

/** What the worker tells the main thread. */
export type WorkerReport =
  | { readonly type: 'violation'; readonly violation: StoreViolation }
  | { readonly type: 'done'; readonly result: StoreCheckResult }
  | { readonly type: 'bad-input'; readonly message: string }
  | { readonly type: 'crash'; readonly message: string; readonly stack: string | null };

/** How a contained check ended. */
export type ContainedOutcome =
  | { readonly kind: 'done'; readonly result: StoreCheckResult }
  | { readonly kind: 'bad-input'; readonly message: string }
  /** The store took the worker down, or stopped its loop: one verdict line; the violations found before it. */
  | { readonly kind: 'contained'; readonly verdict: string; readonly violations: readonly StoreViolation[] }
  /** Interrupted and the worker did not finish in time: the violations found so far. */
  | { readonly kind: 'interrupted'; readonly violations: readonly StoreViolation[] };

/** Milliseconds an interrupted worker gets to return what it has before it is stopped. */
export const INTERRUPT_GRACE_MS = 800;
/** How often the main thread looks at the worker's heartbeat. */
const WATCH_MS = 100;
/** Milliseconds the worker may take to start (loading the checker and the store's module) before its first beat. */
const STARTUP_MS = 60_000;
/** Serializable options only: the worker gets no functions. */
export type ContainedOptions = Omit<CheckEventStoreOptions, 'onViolation' | 'stopped'>;

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
 * finds it (its trace already written).
 */
export function startContainedCheck(ref: StoreModuleRef, options: ContainedOptions, onViolation: (violation: StoreViolation) => void): ContainedCheck {
  const slot = createCallSlotBuffer();
  const reader = callSlotReader(slot);
  // Compiled (dist/), the worker's own compiled module is its entry; from the sources, a shim that registers tsx first.
  const entry = new URL(import.meta.url.endsWith('.js') ? './check-worker.js' : './check-worker.mjs', import.meta.url);
  const worker = new Worker(entry, { workerData: { ref, options, slot }, stdout: false, stderr: false });
  const violations: StoreViolation[] = [];
  const callTimeoutMs = options.callTimeoutMs ?? 3_000;
  // A loop that has not turned for this long is stuck in synchronous code (a busy loop): more than any store call may take.
  const stuckMs = callTimeoutMs + 2_000;
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
  const finish = (result: ContainedOutcome): void => {
    if (finished) return;
    finished = true;
    stopWatch();
    graceTimer?.();
    // Whatever the store left open (connections, timers) goes with the thread.
    void worker.terminate().then(() => {
      removeTemporaries(options.out ?? null);
      settle(result);
    });
  };
  let beats = reader.beats();
  let beatAt = realNowMs();
  const stopWatch = every(WATCH_MS, () => {
    const now = realNowMs();
    const current = reader.beats();
    if (current !== beats) {
      beats = current;
      beatAt = now;
      return;
    }
    if (now - beatAt > (current === 0 ? STARTUP_MS : stuckMs)) {
      finish({ kind: 'contained', verdict: `the store blocked the checker's thread for over ${stuckMs} ms (a busy loop or a synchronous wait) ${where()}`, violations: [...violations] });
    }
  });
  worker.on('message', (report: WorkerReport) => {
    switch (report.type) {
      case 'violation':
        violations.push(report.violation);
        onViolation(report.violation);
        return;
      case 'done':
        return finish({ kind: 'done', result: report.result });
      case 'bad-input':
        return finish({ kind: 'bad-input', message: report.message });
      case 'crash':
        throw new Error(`assertion: the check crashed in its worker: ${report.message}${report.stack === null ? '' : `\n${report.stack}`}`);
    }
  });
  worker.on('error', (error: unknown) => {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    finish({ kind: 'contained', verdict: `the store's code threw an uncaught error (${message}) ${where()}: an error from its timers or callbacks would end the server's process`, violations: [...violations] });
  });
  worker.on('exit', (code) => {
    if (interrupted) return finish({ kind: 'interrupted', violations: [...violations] });
    finish({ kind: 'contained', verdict: `the store ended the checker's thread (process.exit(${code}) or the like) ${where()}: it would end the server's process`, violations: [...violations] });
  });
  return {
    outcome,
    interrupt() {
      if (interrupted || finished) return;
      interrupted = true;
      worker.postMessage({ type: 'stop' } satisfies WorkerRequest);
      graceTimer = every(INTERRUPT_GRACE_MS, () => finish({ kind: 'interrupted', violations: [...violations] }));
    },
  };
}
