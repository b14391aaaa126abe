// A target whose runs depend on real time (a server over the wire) may not repeat a run when its choices are re-run.
// Its findings must still be what was found: each trace is a run that happened, its verdict the one its steps show,
// never relabelled, listed twice or dropped after shrinking. Planted here in process, deterministically: a target that
// behaves as the cross-stream-replay bug on every other run and as the reference on the others, flagged real-time.

import { describe, expect, it } from 'vitest';
import { sequenceChoices } from '../../sim/choices.ts';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { fuzz } from '../../sim/search/fuzz.ts';
import type { Trace } from '../../traces/trace.ts';
import { findTarget } from '../index.ts';
import type { Target } from '../target.ts';

const planted = findTarget('cross-stream-replay')!;
const reference = findTarget('reference')!;

/**
 * Every other run on the planted bug (the odd ones, or the even ones), the others on the reference: a re-run of a
 * finding's choices holds, and which re-runs do depends on how many runs were made before.
 */
function everyOtherRun(plantedOn: 'odd' | 'even'): Target {
  let opened = 0;
  return {
    name: `every-other-run-${plantedOn}`,
    kind: 'module',
    description: `cross-stream-replay on ${plantedOn} runs, the reference on the others`,
    breaks: [],
    realTime: true,
    open(options) {
      opened += 1;
      return (opened % 2 === (plantedOn === 'odd' ? 1 : 0) ? planted : reference).open(options);
    },
  };
}

/** The trace is a run of the planted target as it happened: replaying its choices in process gives its steps and verdict. */
async function expectHappened(trace: Trace): Promise<void> {
  const replayed = await runSimulation(planted, trace.config, sequenceChoices(trace.choices), { record: true });
  expect(trace.verdict).toEqual(replayed.violation);
  expect(trace.steps).toEqual(replayed.trace);
}

// Seed 1's runs 1 and 2 (seeds 1.1 and 1.2) reach no-cross-stream-replay in 20 steps on the planted target.
describe.each(['odd', 'even'] as const)('findings on a real-time target planted on %s runs, seed 1, 20 steps', (plantedOn) => {
  it('the first-found trace, the shrunk trace and every finding are runs that happened, with their own verdicts', async () => {
    const discovered: Trace[] = [];
    const outcome = await fuzz({
      target: everyOtherRun(plantedOn),
      config: resolveConfig({ seed: '1', stepsMax: 20 }),
      runsMax: 2,
      timeMs: null,
      shrinkBounds: { fastCheckEvaluationsMax: 8, passEvaluationsMax: 8 },
      onDiscovery: ({ trace }) => {
        discovered.push(trace);
      },
    });
    expect(discovered.map((trace) => trace.verdict?.property)).toEqual(['no-cross-stream-replay']);
    await expectHappened(discovered[0]!);
    expect(outcome.findings.map((finding) => finding.trace.verdict?.property)).toEqual(['no-cross-stream-replay']);
    for (const finding of outcome.findings) await expectHappened(finding.trace);
  });
});
