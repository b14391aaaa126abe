// A worker thread running a user's module beats a shared counter while its event loop turns, and the thread that
// started it watches the count: one that stands still longer than any store call may take means the module blocked
// the loop (a busy loop, a synchronous wait). check-store's contained check and the contained fuzz both use it.

import { every, realNowMs } from './clock.ts';

/** Milliseconds between a worker's heartbeats. */
export const BEAT_MS = 100;
/** Milliseconds a worker may take to start (loading the checker and the user's module) before its first beat. */
export const STARTUP_MS = 60_000;
/** What a blocked loop's bound adds to the longest a store call may take. */
const MARGIN_MS = 2_000;

/** How long a loop may stand still once it has beaten, when a store call may take up to `callTimeoutMs`. */
export function blockedAfterMs(callTimeoutMs: number): number {
  return callTimeoutMs + MARGIN_MS;
}

/** The worker's side: a beat at once (the watcher's stricter bound applies from here), then every {@link BEAT_MS}. */
export function startBeating(beat: () => void): () => void {
  beat();
  return every(BEAT_MS, beat);
}

/** The watcher's side, over `read` (the count): whether the beats have stood still past their bound. */
export interface BeatWatch {
  /** A fresh worker beats into the same count: its startup bound applies again. */
  restart(): void;
  stalled(now: number): boolean;
}

/** Watches the count `read` returns; before its first beat the startup bound applies, then `stuckMs`. */
export function beatWatch(read: () => number, stuckMs: number): BeatWatch {
  let started = read();
  let count = started;
  let at = realNowMs();
  return {
    restart() {
      started = read();
      count = started;
      at = realNowMs();
    },
    stalled(now) {
      const current = read();
      if (current !== count) {
        count = current;
        at = now;
        return false;
      }
      return now - at > (current === started ? STARTUP_MS : stuckMs);
    },
  };
}
