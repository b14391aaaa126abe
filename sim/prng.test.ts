// The simulator's PRNG computes what seedrandom 3.0.5's Alea computes, number for number and state for state: every
// seed's runs, traces, stored corpus and exploration keys stay what they were when the PRNG was seedrandom's own.

import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { createPrng } from './prng.ts';

const SEEDS = ['', ' ', '1', '1.1/walk', '1.1658/server', '7.c12/contract', 'x'.repeat(300), 'séed/ünïcode/✓', ...Array.from({ length: 200 }, (_, run) => `1.${run}/walk/nodes`)];

describe("the simulator's PRNG", () => {
  it("draws seedrandom's Alea numbers for the same seed", () => {
    for (const seed of SEEDS) {
      const ours = createPrng(seed);
      const theirs = seedrandom.alea(seed);
      for (let draw = 0; draw < 100; draw += 1) {
        if (draw % 2 === 0) expect(ours.float(), seed).toBe(theirs());
        else expect(ours.below(37), seed).toBe(Math.floor(theirs() * 37));
      }
    }
  });

  it("its state is seedrandom's, and a restored state draws on as seedrandom's would", () => {
    for (const seed of SEEDS.slice(0, 20)) {
      const ours = createPrng(seed);
      const theirs = seedrandom.alea(seed, { state: true });
      for (let draw = 0; draw < 7; draw += 1) expect(ours.float()).toBe(theirs());
      const state = ours.state();
      expect(state).toEqual(theirs.state());
      const later = [ours.float(), ours.float(), ours.float()];
      ours.restore(state);
      expect([ours.float(), ours.float(), ours.float()]).toEqual(later);
      // A state seedrandom made restores too (a snapshot or key written before).
      const fromTheirs = createPrng('another seed');
      fromTheirs.restore(theirs.state());
      expect(fromTheirs.float()).toBe(theirs());
    }
  });

  it('restoring the state just read changes nothing, and after a draw goes back', () => {
    const prng = createPrng('1');
    const state = prng.state();
    prng.restore(state);
    const first = prng.float();
    prng.restore(state);
    expect(prng.float()).toBe(first);
  });
});
