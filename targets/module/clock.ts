// The real clock of store checking. A store that does I/O (a timer, a file, a Redis round trip) lives in real time, so how
// long the checker waits for one of its calls is bounded by the wall clock (--call-timeout). What a run does next
// never depends on a reading: the order of operations is the choices' order, so a deterministic store's run stays
// a pure function of its seed; the clock only decides when a call counts as never settling.

import { macrotaskTurn } from '../../sim/clock.ts';

/** Macrotask turns spun before waiting sleeps between looks, so an in-memory store never waits on a timer. */
const SPIN_TURNS = 50;

/** Milliseconds from an arbitrary origin (the real clock). */
export function realNowMs(): number {
  return performance.now();
}

/** Resolves after `ms` real milliseconds. */
export function sleepMs(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}

/**
 * Waits until `done()` holds or `timeoutMs` real milliseconds pass; resolves to whether it holds. The first turns
 * are macrotask turns (an in-memory store settles within them), then 1 ms sleeps (a store waiting on I/O).
 */
export async function waitUntil(done: () => boolean, timeoutMs: number): Promise<boolean> {
  if (done()) return true;
  for (let turn = 0; turn < SPIN_TURNS; turn += 1) {
    await macrotaskTurn();
    if (done()) return true;
  }
  const deadline = realNowMs() + timeoutMs;
  while (realNowMs() < deadline) {
    await sleepMs(1);
    if (done()) return true;
  }
  return done();
}

/** Settles like `promise`, or rejects with `onTimeout()` after `timeoutMs` real milliseconds (the timer is cleared). */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Calls `tick` every `ms` real milliseconds until the returned stop is called; the timer never keeps the process up. */
export function every(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}
