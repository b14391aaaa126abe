// How a time budget's shrinking time is shared (sim/search/fuzz.ts shrinkShare): by length among the shrink starting
// now and those still waiting, over every thread's time left, never past the deadline.

import { describe, expect, it } from 'vitest';
import { sharedWallMs } from '../clock.ts';
import { shrinkShare } from './fuzz.ts';

/** The share's length in ms: the bounds of `shrinkShare(now + leftMs, …) - now`, now read before and after. */
function shareMs(leftMs: number, threads: number, length: number, waiting: readonly number[]): { readonly low: number; readonly high: number } {
  const before = sharedWallMs();
  const deadline = before + leftMs;
  const end = shrinkShare(deadline, threads, length, waiting);
  const after = sharedWallMs();
  return { low: end - after, high: end - before };
}

describe('shrinkShare', () => {
  it('gives a shrink its part by length of the time left on every thread', () => {
    // 10 of 50 steps on 2 threads: 2 × 1000 × 10 / 50 = 400 ms.
    const { low, high } = shareMs(1000, 2, 10, [10, 30]);
    expect(low).toBeLessThanOrEqual(400);
    expect(high).toBeGreaterThanOrEqual(400);
  });

  it('gives a long counterexample more than a short one, where an equal share would give each the same', () => {
    // A deadline far off: the time the calls take (microseconds, or a stall on a busy machine) cannot matter.
    const long = shareMs(1e9, 1, 30, [3, 3, 3]);
    const short = shareMs(1e9, 1, 3, [30, 3, 3]);
    expect(long.low).toBeGreaterThan(5 * short.high);
  });

  it('never reaches past the deadline, and gives nothing once it is past', () => {
    const alone = shareMs(1e9, 4, 10, []);
    expect(alone.high).toBeLessThanOrEqual(1e9);
    expect(alone.low).toBeGreaterThanOrEqual(0);
    const past = shareMs(-500, 2, 10, [5]);
    expect(past.low).toBeLessThanOrEqual(0);
  });
});
