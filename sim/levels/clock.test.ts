// The simulated clock: timers fire in due order only when told, clearing works, and the globals come back.

import { describe, expect, it } from 'vitest';
import { SIM_CLOCK_EPOCH_MS, SimClock, patchClock } from './clock.ts';

describe('the simulated clock', () => {
  it('fires timers in (due time, order set) order, moving time only to each due time', () => {
    const clock = new SimClock();
    const fired: string[] = [];
    clock.setTimer(() => fired.push('b'), 500);
    clock.setTimer(() => fired.push('a'), 100);
    clock.setTimer(() => fired.push('c'), 500);
    const cleared = clock.setTimer(() => fired.push('never'), 200);
    clock.clearTimer(cleared);
    while (clock.fireNext() !== null);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(clock.nowMs).toBe(SIM_CLOCK_EPOCH_MS + 500);
  });

  it('puts setTimeout, clearTimeout, setInterval and Date.now on the clock (and Math.random on a seeded PRNG) for a run, and restores them', () => {
    const saved = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, setInterval: globalThis.setInterval, now: Date.now, random: Math.random };
    const clock = new SimClock();
    const patched = patchClock(clock, () => 0.25);
    const fired: number[] = [];
    try {
      expect(Math.random()).toBe(0.25);
      expect(() => patchClock(new SimClock(), () => 0)).toThrow(/already on a simulated clock/);
      setTimeout(() => fired.push(Date.now() - SIM_CLOCK_EPOCH_MS), 1000);
      const dropped = setTimeout(() => fired.push(-1), 10);
      clearTimeout(dropped);
      const interval = setInterval(() => fired.push(Date.now() - SIM_CLOCK_EPOCH_MS), 400);
      for (let turn = 0; turn < 3; turn += 1) clock.fireNext();
      clearInterval(interval);
      while (clock.fireNext() !== null);
    } finally {
      patched.restore();
    }
    expect(fired).toEqual([400, 800, 1000]);
    expect(globalThis.setTimeout).toBe(saved.setTimeout);
    expect(globalThis.clearTimeout).toBe(saved.clearTimeout);
    expect(globalThis.setInterval).toBe(saved.setInterval);
    expect(Date.now).toBe(saved.now);
    expect(Math.random).toBe(saved.random);
  });
});
