// The fuzz's flaky findings: a violation that re-running its choices does not repeat (over the wire, timing decides
// it) is reported as flaky, unshrunk, with the verdict of the run that found it; never a crash. And a run's later
// findings, shrunk from its first one's shrunk choices.

import { describe, expect, it } from 'vitest';
import { noOwnerCheckTarget } from '../../targets/planted/no-owner-check.target.ts';
import { referenceTarget } from '../../targets/reference/reference.target.ts';
import type { Target } from '../../targets/target.ts';
import { crossStreamReplayTarget } from '../../targets/planted/cross-stream-replay.target.ts';
import { PER_PROPERTY_DEFAULT, resolveConfig } from '../config.ts';
import { DEFAULT_SHRINK_BOUNDS, shrinkChoices } from '../shrink/shrink.ts';
import { type Finding, type FuzzOutcome, fuzz } from './fuzz.ts';

/** A target that is the planted bug until `fix()`, then the reference: a violation found before does not repeat. */
function fixedLater(): { target: Target; fix(): void } {
  let fixed = false;
  return {
    target: { ...noOwnerCheckTarget, name: 'fixed-later', open: (options) => (fixed ? referenceTarget : noOwnerCheckTarget).open(options) },
    fix() {
      fixed = true;
    },
  };
}

describe('a violation that does not repeat when re-run', () => {
  it('is a flaky finding: its run, its unshrunk choices and the verdict of the run that found it', async () => {
    const { target, fix } = fixedLater();
    const outcome = await fuzz({ target, config: resolveConfig({ seed: '1' }), runsMax: 500, timeMs: null, stopAtFirst: true, onDiscovery: fix });
    expect(outcome.findings).toHaveLength(1);
    const finding = outcome.findings[0]!;
    expect(finding.flaky).toBe(true);
    expect(finding.shrunk).toBe(false);
    expect(finding.trace.choices).toEqual(finding.original.choices);
    expect(finding.trace.verdict?.property).toBe(finding.original.violation!.property);
  });

  it('a violation that repeats is shrunk as before, not flaky', async () => {
    const outcome = await fuzz({ target: noOwnerCheckTarget, config: resolveConfig({ seed: '1' }), runsMax: 500, timeMs: null, stopAtFirst: true });
    const finding = outcome.findings[0]!;
    expect(finding.flaky).toBeUndefined();
    expect(finding.shrunk).toBe(true);
    expect(finding.trace.choices.length).toBeLessThanOrEqual(finding.original.choices.length);
  });
});

describe('findings of one run', () => {
  // The planted cross-stream-replay target's 2 000 runs, once for the tests below, with the order its shrinks ended in.
  const shrunkInOrder: Finding[] = [];
  let fuzzed: Promise<FuzzOutcome> | null = null;
  const crossStreamReplay = (): Promise<FuzzOutcome> =>
    (fuzzed ??= fuzz({ target: crossStreamReplayTarget, config: resolveConfig({ seed: '1' }), runsMax: 2000, timeMs: null, stopAtFirst: false, perProperty: PER_PROPERTY_DEFAULT, onFinding: (finding) => void shrunkInOrder.push(finding) }));
  /** The finding of the same run that checked the most properties: the one a run's later findings start from. */
  const leaderOf = (findings: readonly Finding[], finding: Finding): Finding =>
    findings.filter((other) => other.run === finding.run).reduce((best, other) => ((other.trace.unchecked?.length ?? 0) < (best.trace.unchecked?.length ?? 0) ? other : best));

  it('a later one is shrunk once its first one is, in its place by length, not after every other first one', async () => {
    const outcome = await crossStreamReplay();
    expect(shrunkInOrder).toHaveLength(outcome.findings.length);
    const position = (finding: Finding): number => shrunkInOrder.indexOf(finding);
    const followers = shrunkInOrder.filter((finding) => leaderOf(shrunkInOrder, finding) !== finding);
    expect(followers.length).toBeGreaterThan(0);
    for (const finding of followers) expect(position(finding)).toBeGreaterThan(position(leaderOf(shrunkInOrder, finding)));
    // One thread: longest first among those ready, so a long run's later finding comes before short runs' first ones.
    const lastLeader = Math.max(...shrunkInOrder.filter((finding) => leaderOf(shrunkInOrder, finding) === finding).map(position));
    expect(followers.some((finding) => position(finding) < lastLeader)).toBe(true);
  });

  it('a later one starts from the first one shrunk: fewer shrink runs than shrinking it alone, and no longer', async () => {
    const outcome = await crossStreamReplay();
    // A run's later findings whose first one shrank shorter than they were found (the first: checked the most properties).
    const followers = outcome.findings.filter((finding) =>
      outcome.findings.some(
        (other) =>
          other.run === finding.run &&
          (other.trace.unchecked?.length ?? 0) < (finding.trace.unchecked?.length ?? 0) &&
          other.trace.choices.length < finding.original.choices.length,
      ),
    );
    let fewer = 0;
    for (const finding of followers) {
      const violation = finding.original.violation!;
      const alone = await shrinkChoices(crossStreamReplayTarget, finding.trace.config, finding.original.choices, violation.property, DEFAULT_SHRINK_BOUNDS, {
        ...(finding.trace.properties === null ? {} : { properties: finding.trace.properties }),
        ...(violation.signature === undefined ? {} : { signature: violation.signature }),
      });
      expect(finding.trace.choices.length).toBeLessThanOrEqual(alone.choices.length);
      if (finding.shrink.evaluations < alone.evaluations) fewer += 1;
    }
    // Runs 130 and 1797: in-order-per-stream from no-redelivery's shrunk choices.
    expect(fewer).toBeGreaterThanOrEqual(2);
  });
});
