// Every property a run violates is found, not the first alone: a fuzz of every property makes a run again without
// the property that ended it (eachViolation), so a property masked by an earlier violation in the same run is still
// found there. Checking fewer properties changes no step of a run, so a property's first violating run is the one a
// fuzz of that property alone finds.

import { describe, expect, it } from 'vitest';
import { type PropertyName, levelPropertyNames } from '../../properties/names.ts';
import { findTarget } from '../../targets/index.ts';
import type { Target } from '../../targets/target.ts';
import { readableFromTrace } from '../../traces/render/readable.ts';
import { renderText } from '../../traces/render/text.ts';
import { sequenceChoices } from '../choices.ts';
import { resolveConfig } from '../config.ts';
import { runSimulation } from '../engine.ts';
import { findingKey } from '../signature.ts';
import { fuzz } from './fuzz.ts';
import { CONTROL, type Candidate, createControl, eachViolation, searchLane } from './fuzz-search.ts';

const RUNS = 300;

/** Per property, the first run (ordinal) a lane's search violated it in, and which simulation of that run did. */
async function firstViolations(target: Target, properties: readonly PropertyName[] | null): Promise<Map<PropertyName, { ordinal: number; pass: number }>> {
  const first = new Map<PropertyName, { ordinal: number; pass: number }>();
  const plan = { config: resolveConfig({ seed: '1' }), runsMax: RUNS, shard: { index: 1, count: 1 }, properties, stopAtFirst: false, perProperty: 1, deadlineMs: null, deadlineFoundMs: null, coverage: false };
  const onCandidate = (candidate: Candidate): void => {
    const property = candidate.violation.property;
    const known = first.get(property);
    if (known === undefined || candidate.ordinal < known.ordinal) first.set(property, { ordinal: candidate.ordinal, pass: candidate.pass ?? 0 });
  };
  await searchLane(target, plan, createControl({ shared: false }), { onCandidate, onProgress() {} }, null);
  return first;
}

describe('every property a run violates is found (seed 1, 300 runs)', () => {
  for (const name of ['cross-stream-replay', 'counter-ids', 'no-ledger']) {
    it(`${name}: each property's first violating run is the one a fuzz of it alone finds, masked ones included`, async () => {
      const target = findTarget(name)!;
      const all = await firstViolations(target, null);
      // Some property was first violated in a run another property had ended earlier: without the run made again,
      // it would be found later or never.
      expect([...all.values()].some((first) => first.pass > 0)).toBe(true);
      for (const [property, first] of all) {
        const alone = await firstViolations(target, [property]);
        expect({ property, ordinal: alone.get(property)?.ordinal }).toEqual({ property, ordinal: first.ordinal });
      }
    });
  }

  it('a finding of a run made again replays from its trace, which says what it left unchecked', async () => {
    const target = findTarget('cross-stream-replay')!;
    const outcome = await fuzz({ target, config: resolveConfig({ seed: '1' }), runsMax: RUNS, timeMs: null, stopAtFirst: false });
    const masked = outcome.findings.filter((finding) => finding.trace.properties !== null);
    expect(masked.length).toBeGreaterThan(0);
    for (const { trace } of masked) {
      expect(trace.properties).toContain(trace.verdict!.property);
      expect(trace.properties!.length).toBeLessThan(levelPropertyNames(undefined).length);
      const replayed = await runSimulation(target, trace.config, sequenceChoices(trace.choices), { properties: trace.properties! });
      expect(findingKey(replayed.violation!)).toBe(findingKey(trace.verdict!));
      const text = renderText(readableFromTrace(trace, 'trace.json')).join('\n');
      expect(text).toMatch(/unchecked: [a-z-]+(, [a-z-]+)* \(the run violated (it|them) first; it was made again without (it|them)\)/);
    }
  });

  it('a stop during a run ends its later simulations: one candidate, no run made again after it', async () => {
    const target = findTarget('cross-stream-replay')!;
    const control = createControl({ shared: false });
    const plan = { config: resolveConfig({ seed: '1' }), runsMax: RUNS, shard: { index: 1, count: 1 }, properties: null, stopAtFirst: false, perProperty: 1, deadlineMs: null, deadlineFoundMs: null, coverage: false };
    const candidates: Candidate[] = [];
    const onCandidate = (candidate: Candidate): void => {
      candidates.push(candidate);
      Atomics.store(control, CONTROL.stop, 1);
    };
    const outcome = await searchLane(target, plan, control, { onCandidate, onProgress() {} }, null);
    // Run 1 of cross-stream-replay violates one property and then another (see the first test): the stop came between.
    expect(candidates.map((candidate) => candidate.ordinal)).toEqual([0]);
    expect(outcome.runs).toBe(1);
  });

  it('stopping at the first violation makes each run once', async () => {
    let simulations = 0;
    const made = await eachViolation(null, ['no-hang', 'no-redelivery'], () => false, async () => {
      simulations += 1;
      return { violation: { property: 'no-hang', step: 1, explanation: '' }, choices: [], steps: 1, healSteps: 0, trace: null };
    }, () => undefined);
    expect({ made, simulations }).toEqual({ made: 1, simulations: 1 });
  });

  it('a run is made again without each property that ended it, until one ends with none', async () => {
    const checkedEach: (readonly PropertyName[] | null)[] = [];
    const ends: PropertyName[] = ['no-redelivery', 'no-hang'];
    const made = await eachViolation(null, ['no-hang', 'no-redelivery', 'no-silent-gap'], () => true, async (properties) => {
      checkedEach.push(properties);
      const property = ends.shift();
      return { violation: property === undefined ? null : { property, step: 1, explanation: '' }, choices: [], steps: 1, healSteps: 0, trace: null };
    }, () => undefined);
    expect(made).toBe(3);
    expect(checkedEach).toEqual([null, ['no-hang', 'no-silent-gap'], ['no-silent-gap']]);
  });
});
