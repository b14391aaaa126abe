// A target whose runs may differ for the same choices (Target.flakyRuns: a user's store module) is shrunk with each
// candidate confirmed by a second run: a failure that does not repeat neither starts a shrink nor steers one, and a
// target that does repeat is shrunk to the same minimum as without the confirmation.

import { describe, expect, it } from 'vitest';
import { findTarget } from '../../targets/index.ts';
import type { Target } from '../../targets/target.ts';
import { resolveConfig } from '../config.ts';
import { runSimulation } from '../engine.ts';
import { sequenceChoices } from '../choices.ts';
import { fuzz, runSeed } from '../search/fuzz.ts';
import { NotReproducedError, shrinkChoices } from './shrink.ts';

/** A target that is the planted bug on odd runs and the reference on even ones: a failure that never repeats at once. */
function alternating(planted: Target, reference: Target, flakyRuns: boolean): Target {
  let opened = 0;
  return {
    ...planted,
    name: `${planted.name}-alternating`,
    flakyRuns,
    open(options) {
      opened += 1;
      return (opened % 2 === 1 ? planted : reference).open(options);
    },
  };
}

describe('shrinking a target whose runs may differ for the same choices (seed 1)', async () => {
  const planted = findTarget('counter-ids')!;
  const reference = findTarget('reference')!;
  const found = await fuzz({ target: planted, config: resolveConfig({ seed: '1' }), runsMax: 200, timeMs: null, stopAtFirst: true });
  const finding = found.finding!;
  const config = { ...resolveConfig({ seed: '1' }), seed: runSeed('1', finding.run) };
  const { choices } = finding.original;
  const property = finding.original.violation!.property;

  it('a failure that does not repeat starts no shrink: it is not reproduced, so the finding is reported flaky', async () => {
    await expect(shrinkChoices(alternating(planted, reference, true), config, choices, property)).rejects.toThrow(NotReproducedError);
    // Unconfirmed, the same alternation is taken for a failure and shrunk: a shrunk sequence a second run does not repeat.
    const unconfirmed = alternating(planted, reference, false);
    const shrunk = await shrinkChoices(unconfirmed, config, choices, property);
    const verdicts = [];
    for (let run = 0; run < 2; run += 1) verdicts.push((await runSimulation(unconfirmed, config, sequenceChoices(shrunk.choices), {})).violation?.property ?? null);
    expect(verdicts).toContain(null);
  });

  it('a target that repeats its runs is shrunk to the same minimum, each failing candidate run twice', async () => {
    const counted = (flakyRuns: boolean): { target: Target; runs: () => number } => {
      let runs = 0;
      return { target: { ...planted, flakyRuns, open: (options) => ((runs += 1), planted.open(options)) }, runs: () => runs };
    };
    const plain = counted(false);
    const twice = counted(true);
    const unconfirmed = await shrinkChoices(plain.target, config, choices, property);
    const confirmed = await shrinkChoices(twice.target, config, choices, property);
    expect(confirmed.choices).toEqual(unconfirmed.choices);
    expect(confirmed.evaluations).toBe(unconfirmed.evaluations);
    // The same candidates; a failing one is run a second time.
    expect(twice.runs()).toBeGreaterThan(plain.runs());
    expect(twice.runs()).toBeLessThanOrEqual(2 * plain.runs());
  });
});
