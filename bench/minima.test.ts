// Every minimum bench/minima.ts states is proven here by `explore` (the property checked alone, equal worlds merged,
// as `resumecheck explore --property P --depth N` searches): an exact minimum is found at its depth, as its witness,
// and nothing shorter violates the property; a lower bound is checked at its depth (nothing up to it, one less than
// the bound). Proofs that cost more than PROOF_RUNS_MAX sequences are bounded and say so in their title.

import { describe, expect, it } from 'vitest';
import { checkedProperties } from '../properties/index.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { runSimulation } from '../sim/engine.ts';
import { explore } from '../sim/search/explore.ts';
import { PLANTED_TARGETS } from '../targets/planted/index.ts';
import { type KnownMinimum, MINIMA, minimaConfig } from './minima.ts';

/**
 * Sequences a proof may run in this test. A minimum whose derivation ran more (recorded in its `runs`) is proven
 * only up to this budget here: its witness is replayed (the property alone, in exactly its length), and the search
 * of the depth below it clears every shorter depth and runs this many sequences of that depth without finding the
 * property (the whole proof is `resumecheck explore --property P --depth N`, seconds to a minute).
 */
const PROOF_RUNS_MAX = 20_000;

/** The depth a minimum's proof searches: its exact length, or the depth below its lower bound. */
function proofDepth(minimum: KnownMinimum): number {
  return minimum.length ?? minimum.lowerBound - 1;
}

describe('bench/minima.ts: every stated minimum, proven by explore', () => {
  for (const [name, known] of Object.entries(MINIMA)) {
    const target = PLANTED_TARGETS.find((candidate) => candidate.name === name);
    it(`${name} is a planted target`, () => {
      expect(target, name).toBeDefined();
    });
    if (target === undefined) continue;
    const config = minimaConfig(name);
    for (const minimum of known.minima) {
      const depth = proofDepth(minimum);
      const bounded = minimum.runs > PROOF_RUNS_MAX;
      const stated = minimum.length === null ? `at least ${minimum.lowerBound}` : `exactly ${minimum.length}`;
      const title = `${name} × ${minimum.property}: ${stated} steps${bounded ? ` (bounded: ${PROOF_RUNS_MAX} of its ${minimum.runs} sequences)` : ''}`;
      it(title, async () => {
        const only = minimum.property;
        if (minimum.length !== null) {
          expect(minimum.lowerBound).toBe(minimum.length);
          expect(minimum.upperBound).toBe(minimum.length);
          expect(minimum.depthCleared).toBe(minimum.length - 1);
          expect(minimum.witness?.length).toBe(minimum.length);
        } else {
          expect(minimum.witness).toBeNull();
          expect(minimum.depthCleared).toBe(minimum.lowerBound - 1);
        }
        if (!bounded) {
          const outcome = await explore(target, config, { depthMax: depth, runsMax: PROOF_RUNS_MAX, reduce: true, only });
          expect(outcome.budgetSpent).toBe(false);
          if (minimum.length === null) {
            expect(outcome.choices).toBeNull();
            expect(outcome.depthCleared).toBe(depth);
          } else {
            expect(outcome.property).toBe(only);
            expect(outcome.choices).toEqual(minimum.witness);
            expect(outcome.depthCleared).toBe(depth - 1);
          }
          return;
        }
        if (minimum.witness !== null) {
          const replayed = await runSimulation(target, config, sequenceChoices(minimum.witness), checkedProperties(only));
          expect(replayed.violation?.property).toBe(only);
          expect(replayed.choices.length).toBe(minimum.witness.length);
        }
        const searchDepth = minimum.length === null ? depth : depth - 1;
        const outcome = await explore(target, config, { depthMax: searchDepth, runsMax: PROOF_RUNS_MAX, reduce: true, only });
        // Every sequence one step shorter than the proof's last depth, and that depth in part.
        expect(outcome.choices).toBeNull();
        expect(outcome.depthCleared).toBeGreaterThanOrEqual(searchDepth - 1);
      });
    }
  }
});
