// The served SDK app's own clock: a real server's time, which the simulator never reads.

/** Resolves once the wall clock shows a later millisecond than when it was called. */
export async function nextMillisecond(): Promise<void> {
  const called = Date.now();
  while (Date.now() <= called) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Resolves after `ms` milliseconds of the wall clock: a store's slow write (`--store-write-latency-ms`). */
export function sleepMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
