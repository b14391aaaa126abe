// A worker thread running a user's store module wears: each simulated world imports the module afresh (a URL never
// used before, so the module's own state starts empty) and Node's ESM loader never frees a module instance, so the
// thread's heap grows with every run (about 70 KB a run of `fuzz --target module:…` on the in-memory store: 1.7 GB of
// resident memory by run 20 000); a store may also leave handles open (timers, sockets). A thread whose heap in use or
// whose handles have grown past their bound hands over between two runs, and a fresh thread goes on from the next run.
// Runs are a function of the seed and their number, so what is found is the same however the runs are shared out.
// check-store's contained check and the contained fuzz (sim/search/fuzz-workers.ts) both recycle on this evidence.

import { getHeapStatistics } from 'node:v8';

/** When a worker running a user's module hands over to a fresh one. Plain data: it crosses to worker threads. */
export interface RecycleBounds {
  /** Runs one worker makes at the most, whatever the evidence. */
  readonly runs: number;
  /** Bytes of the worker's JavaScript heap in use, seen between two runs, past which a fresh worker goes on. */
  readonly heapBytes: number;
  /** Handles (timers, sockets, ...) the worker's event loop holds beyond those it held at its start, past which a fresh worker goes on. */
  readonly handles: number;
}

/** The bounds a check or a contained fuzz recycles its worker by, unless told others. */
export const RECYCLE_DEFAULTS: RecycleBounds = { runs: 100_000, heapBytes: 256 * 2 ** 20, handles: 64 };

/** A worker's wear, read between two runs. */
export interface WearGauge {
  /** True when the heap in use or the handles held have grown past their bounds. */
  worn(): boolean;
}

/** Starts gauging this thread's wear: the handles it holds now are its own, not the store's. */
export function wearGauge(bounds: Pick<RecycleBounds, 'heapBytes' | 'handles'>): WearGauge {
  const handlesBefore = process.getActiveResourcesInfo().length;
  return {
    worn: () => getHeapStatistics().used_heap_size > bounds.heapBytes || process.getActiveResourcesInfo().length - handlesBefore > bounds.handles,
  };
}
