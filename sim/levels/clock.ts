// The simulator's clock for a level whose system keeps its own timers (the SDK clients' reconnect backoff and request
// timeouts): simulated milliseconds and a queue of timers that fire only when the run says time passes. For the length
// of one run the global timer functions and Date.now are replaced by this clock's, and restored after.

/** The clock's first reading: 2026-01-01T00:00:00Z (as the SDK server targets' patched clock starts). */
export const SIM_CLOCK_EPOCH_MS = 1_767_225_600_000;

/** One pending timer. */
export interface SimTimer {
  readonly id: number;
  readonly dueMs: number;
  readonly callback: () => void;
  /** Milliseconds it was set for (for traces). */
  readonly delayMs: number;
}

const PATCH_MARK = Symbol.for('resumecheck.sim-clock');

/** Simulated time: it moves only when a timer is fired. Timers fire in (due time, order set) order. */
export class SimClock {
  nowMs = SIM_CLOCK_EPOCH_MS;
  /** Pending timers, kept sorted by due time, then by id. */
  readonly timers: SimTimer[] = [];
  /** Timers set so far (the next timer's id). */
  private set = 0;
  /** Called whenever a timer is set or cleared (the level counts it as activity). */
  onChange: () => void = () => {};

  setTimer(callback: () => void, delayMs: number): number {
    this.set += 1;
    const delay = Number.isFinite(delayMs) && delayMs > 0 ? Math.floor(delayMs) : 0;
    const timer: SimTimer = { id: this.set, dueMs: this.nowMs + delay, callback, delayMs: delay };
    let at = this.timers.length;
    while (at > 0 && this.timers[at - 1]!.dueMs > timer.dueMs) at -= 1;
    this.timers.splice(at, 0, timer);
    this.onChange();
    return timer.id;
  }

  clearTimer(id: unknown): void {
    const index = this.timers.findIndex((timer) => timer.id === id);
    if (index >= 0) {
      this.timers.splice(index, 1);
      this.onChange();
    }
  }

  /** The next timer, or null. */
  next(): SimTimer | null {
    return this.timers[0] ?? null;
  }

  /** Moves time to the next timer's due time and runs it; returns it, or null when none is pending. */
  fireNext(): SimTimer | null {
    const timer = this.timers.shift();
    if (timer === undefined) return null;
    if (timer.dueMs > this.nowMs) this.nowMs = timer.dueMs;
    timer.callback();
    return timer;
  }
}

/** The patched globals of one run. */
export interface PatchedClock {
  /** Puts the original globals back. Idempotent; must be called in `finally`. */
  restore(): void;
}

/** A timer handle as Node's callers use it (`unref`, `ref`, `hasRef`, and a number when coerced). */
class TimerHandle {
  constructor(readonly id: number) {}
  unref(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  hasRef(): boolean {
    return true;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

/**
 * Replaces `setTimeout`, `clearTimeout`, `setInterval`, `clearInterval` and `Date.now` with `clock`'s for the length of
 * one run, and `Math.random` with `random` (a PRNG of the run's seed: a client's ambient randomness is part of the run).
 * An interval is a timer that sets itself again when it fires. Only one run may hold them at a time.
 * `setImmediate` and microtasks stay real: they carry no time, and the level lets the system settle with them.
 */
export function patchClock(clock: SimClock, random: () => number): PatchedClock {
  const global = globalThis as unknown as Record<string, unknown>;
  if ((global['setTimeout'] as Record<symbol, unknown>)[PATCH_MARK] === true) {
    throw new Error('assertion: the timers are already on a simulated clock; close that run (in finally) first');
  }
  const saved = {
    setTimeout: global['setTimeout'],
    clearTimeout: global['clearTimeout'],
    setInterval: global['setInterval'],
    clearInterval: global['clearInterval'],
    dateNow: Object.getOwnPropertyDescriptor(Date, 'now')!,
    mathRandom: Object.getOwnPropertyDescriptor(Math, 'random')!,
  };
  const idOf = (handle: unknown): unknown => (handle instanceof TimerHandle ? handle.id : handle);
  // Intervals are named by negative numbers, so an interval's handle never equals a timer's; the map gives its current timer.
  const intervals = new Map<number, number>();
  let intervalsSet = 0;
  const fakeSetTimeout = (callback: (...args: unknown[]) => void, delayMs?: number, ...args: unknown[]): TimerHandle =>
    new TimerHandle(clock.setTimer(() => callback(...args), delayMs ?? 0));
  const fakeSetInterval = (callback: (...args: unknown[]) => void, delayMs?: number, ...args: unknown[]): TimerHandle => {
    intervalsSet += 1;
    const handle = new TimerHandle(-intervalsSet);
    const arm = (): void => {
      intervals.set(handle.id, clock.setTimer(() => {
        arm();
        callback(...args);
      }, Math.max(1, delayMs ?? 1)));
    };
    arm();
    return handle;
  };
  const fakeClearInterval = (handle: unknown): void => {
    const key = idOf(handle) as number;
    const current = intervals.get(key);
    if (current !== undefined) clock.clearTimer(current);
    intervals.delete(key);
  };
  Object.defineProperty(fakeSetTimeout, PATCH_MARK, { value: true });
  global['setTimeout'] = fakeSetTimeout;
  global['clearTimeout'] = (handle: unknown): void => clock.clearTimer(idOf(handle));
  global['setInterval'] = fakeSetInterval;
  global['clearInterval'] = fakeClearInterval;
  Object.defineProperty(Date, 'now', { ...saved.dateNow, value: () => clock.nowMs });
  Object.defineProperty(Math, 'random', { ...saved.mathRandom, value: random });
  let restored = false;
  return {
    restore() {
      if (restored) return;
      restored = true;
      global['setTimeout'] = saved.setTimeout;
      global['clearTimeout'] = saved.clearTimeout;
      global['setInterval'] = saved.setInterval;
      global['clearInterval'] = saved.clearInterval;
      Object.defineProperty(Date, 'now', saved.dateNow);
      Object.defineProperty(Math, 'random', saved.mathRandom);
    },
  };
}
