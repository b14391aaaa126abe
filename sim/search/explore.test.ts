// The reduced exhaustive search misses nothing the full one finds: every planted bug's known minimum is found at
// that depth with equal worlds merged, each property's shortest violation (checked alone) has the same length
// with and without the reduction, and the reduction really applies to the targets that can key their state.

import { describe, expect, it } from 'vitest';
import { MINIMA, MINIMA_CONFIG, minimaConfig } from '../../bench/minima.ts';
import { isNote } from '../../properties/index.ts';
import { PROPERTY_NAMES } from '../../properties/names.ts';
import { PLANTED_TARGETS } from '../../targets/planted/index.ts';
import { referenceTarget } from '../../targets/reference/reference.target.ts';
import { explore, reductionUnavailable } from './explore.ts';

/**
 * The planted targets that keep state of their own outside the core (closures) or are copied with a spread, which
 * the kit cannot key (the test below checks that no other target falls back to the full search).
 */
const UNKEYED = new Set(['counter-ids', 'no-epoch-check', 'no-ledger', 'replay-request-frames', 'rival-connection-kept', 'no-in-flight-check', 'echoes-request-frames']);

/** Deepest overall minimum searched here with every property checked (deeper ones: bench/minima.test.ts). */
const OVERALL_DEPTH_MAX = 5;

describe('explore with the reduction (equal worlds merged)', () => {
  it('applies to the reference and to every planted target whose state the kit can key, and says why not elsewhere', async () => {
    expect(await reductionUnavailable(referenceTarget, MINIMA_CONFIG)).toBeNull();
    for (const target of PLANTED_TARGETS) {
      const why = await reductionUnavailable(target, MINIMA_CONFIG);
      if (UNKEYED.has(target.name)) expect(why, target.name).toMatch(/state key/);
      else expect(why, target.name).toBeNull();
    }
  });

  for (const target of PLANTED_TARGETS) {
    const known = MINIMA[target.name];
    if (known === undefined) continue;
    // A search checks every property but the notes: its shortest counterexample is the target's own bug's.
    const exact = known.minima.filter((minimum) => minimum.length !== null && !isNote(minimum.property));
    const overall = Math.min(...exact.map((minimum) => minimum.length!));
    const expected = isNote(known.overallProperty)
      ? PROPERTY_NAMES.find((name) => exact.some((minimum) => minimum.property === name && minimum.length === overall))!
      : known.overallProperty;
    // A minimum of 6 steps or more (modern-cursor-replays's era-isolation: some 400 000 sequences, the suite's costliest
    // search) is proven by bench/minima.test.ts, its witness replayed and the search below it bounded there.
    if (overall > OVERALL_DEPTH_MAX) continue;
    it(`${target.name}: finds ${expected} at its known minimum of ${overall} steps`, async () => {
      const outcome = await explore(target, minimaConfig(target.name), { depthMax: overall, runsMax: 1_000_000, reduce: true });
      expect(outcome.reduction.applied).toBe(!UNKEYED.has(target.name));
      expect(outcome.property).toBe(expected);
      expect(outcome.choices?.length).toBe(overall);
      expect(outcome.depthCleared).toBe(overall - 1);
    });
    // Each property checked alone: its shortest violation is no longer than its known minimum (a run that checks
    // only it is not stopped earlier by another), and exactly as long as the full search finds it.
    for (const minimum of exact.filter((entry) => entry.length! <= 5 && !UNKEYED.has(target.name))) {
      it(`${target.name}: ${minimum.property} alone, as short with the reduction as without`, async () => {
        const options = { depthMax: minimum.length!, runsMax: 1_000_000, only: minimum.property };
        const reduced = await explore(target, minimaConfig(target.name), { ...options, reduce: true });
        const full = await explore(target, minimaConfig(target.name), options);
        expect(reduced.property).toBe(minimum.property);
        expect(reduced.choices?.length).toBe(full.choices?.length);
        expect(reduced.choices!.length).toBeLessThanOrEqual(minimum.length!);
        expect(reduced.runs).toBeLessThanOrEqual(full.runs);
      });
    }
  }

  it('the reference holds to depth 4 either way, the reduced search running fewer sequences than there are', async () => {
    const full = await explore(referenceTarget, MINIMA_CONFIG, { depthMax: 4, runsMax: 1_000_000 });
    const reduced = await explore(referenceTarget, MINIMA_CONFIG, { depthMax: 4, runsMax: 1_000_000, reduce: true });
    expect(full.choices).toBeNull();
    expect(reduced.choices).toBeNull();
    expect(reduced.depthCleared).toBe(4);
    expect(reduced.states).not.toBeNull();
    expect(reduced.runs).toBeLessThan(full.runs);
    expect(reduced.runsLastDepth).toBeLessThan(full.runsLastDepth);
  });

  it('breadth first from snapshots, without sleep sets, finds what the replaying search finds, expanding each world once', async () => {
    for (const target of [referenceTarget, ...PLANTED_TARGETS.filter((candidate) => !UNKEYED.has(candidate.name))]) {
      const options = { depthMax: 4, runsMax: 1_000_000, reduce: true };
      const replayed = await explore(target, MINIMA_CONFIG, { ...options, snapshots: false });
      const restored = await explore(target, MINIMA_CONFIG, { ...options, independence: false });
      expect(replayed.snapshots, target.name).toBe(false);
      expect(restored.snapshots, target.name).toBe(true);
      expect(restored.choices, target.name).toEqual(replayed.choices);
      expect(restored.property, target.name).toBe(replayed.property);
      // The worlds short of the last depth are the same distinct worlds; the last depth's are judged without keys.
      if (replayed.choices === null) expect(restored.states!, target.name).toBeGreaterThanOrEqual(replayed.states!);
      // Each distinct world is expanded once, not once per deepening.
      expect(restored.runs, target.name).toBeLessThan(replayed.runs);
    }
  });

  it('with sleep sets: the same shortest counterexample (length and property) in fewer steps, and none on the reference', async () => {
    for (const target of [referenceTarget, ...PLANTED_TARGETS.filter((candidate) => !UNKEYED.has(candidate.name))]) {
      const options = { depthMax: 5, runsMax: 1_000_000, reduce: true };
      const merged = await explore(target, MINIMA_CONFIG, { ...options, independence: false });
      const slept = await explore(target, MINIMA_CONFIG, options);
      expect(slept.independence, target.name).toBe(true);
      expect(slept.property, target.name).toBe(merged.property);
      expect(slept.choices?.length, target.name).toBe(merged.choices?.length);
      expect(slept.depthCleared, target.name).toBe(merged.depthCleared);
      expect(slept.runs, target.name).toBeLessThanOrEqual(merged.runs);
      if (target === referenceTarget) {
        expect(slept.choices).toBeNull();
        expect(slept.slept).toBeGreaterThan(0);
        expect(slept.states!).toBeLessThan(merged.states!);
      }
    }
  });

  it('stops at its budget and says so', async () => {
    const outcome = await explore(referenceTarget, MINIMA_CONFIG, { depthMax: 6, runsMax: 500, reduce: true });
    expect(outcome.budgetSpent).toBe(true);
    expect(outcome.choices).toBeNull();
    expect(outcome.depthCleared).toBeLessThan(6);
  });
});
