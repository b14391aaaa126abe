// The fuzz's flaky findings: a violation that re-running its choices does not repeat (over the wire, timing decides
// it) is reported as flaky, unshrunk, with the verdict of the run that found it; never a crash.

import { describe, expect, it } from 'vitest';
import { noOwnerCheckTarget } from '../../targets/planted/no-owner-check.target.ts';
import { referenceTarget } from '../../targets/reference/reference.target.ts';
import type { Target } from '../../targets/target.ts';
import { resolveConfig } from '../config.ts';
import { fuzz } from './fuzz.ts';

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
