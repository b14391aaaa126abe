// The one place the project touches the event loop's clock: yielding a macrotask turn, so a driver can let
// an in-process system (the SDK's transport) finish reacting before it observes the result.

/**
 * Resolves after one macrotask turn (`setImmediate`): every microtask and `process.nextTick` queued before
 * the call has run by then. No wall-clock time is read or waited for.
 */
export function macrotaskTurn(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}

/** Milliseconds from an arbitrary origin, for time budgets only (never for anything a run's outcome depends on). */
export function monotonicMs(): number {
  return performance.now();
}

/**
 * Milliseconds since the Unix epoch at monotonic resolution: the same clock in every worker thread (each thread's
 * `performance.now()` has its own origin), for time budgets shared across threads only.
 */
export function sharedWallMs(): number {
  return performance.timeOrigin + performance.now();
}
