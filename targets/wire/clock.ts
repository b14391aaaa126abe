// The wall clock of the over-the-wire target, the one place it waits for real time: a server on a socket answers
// when it answers, so settling after an operation needs a bounded wait and a quiet interval. Nothing a run's
// choices are made from is read here; only how long to wait for what the server does.

/** Resolves after `ms` milliseconds of wall-clock time. */
export function sleepMs(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, Math.max(0, ms));
  });
}

/** Milliseconds from an arbitrary origin (monotonic). */
export function wallMs(): number {
  return performance.now();
}

/** A timer that calls `fire` after `ms` unless cancelled first; it does not keep the process alive. */
export function startTimer(ms: number, fire: () => void): { cancel(): void } {
  const timer = setTimeout(fire, Math.max(0, ms));
  timer.unref();
  return {
    cancel() {
      clearTimeout(timer);
    },
  };
}

/**
 * Resolves after the event loop's next I/O poll (`setImmediate`). A timer that fires after the process was descheduled
 * runs before the poll that would deliver bytes which arrived meanwhile; waiting one turn lets them in first.
 */
export function afterIoPoll(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}
