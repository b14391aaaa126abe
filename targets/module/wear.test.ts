// A contained fuzz of a user's store module (`fuzz --target module:…`) replaces a worker worn by the module (its
// heap in use or its handles past their bounds, or a number of runs) by a fresh one between two runs, which goes on
// from the next run: the findings are the same, byte for byte, however often that happens. Each case forces the
// evidence with a bound the runs pass at once, and counts the workers replaced.

import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../sim/config.ts';
import { fuzzWith } from '../../sim/search/fuzz.ts';
import { workerPoolExecutor } from '../../sim/search/fuzz-workers.ts';
import { serializeTrace } from '../../traces/trace.ts';
import { describeTargetName, resolveTarget } from '../resolve-target.ts';
import type { RecycleBounds } from './wear.ts';

const STORES = 'check-store/fixtures/planted-stores.ts';
const MISBEHAVING = 'check-store/fixtures/misbehaving-stores.ts';

/** A contained fuzz of `store` in `workers` workers (seed 1): what it found, as trace bytes, and how many workers were replaced. */
async function contained(store: string, runsMax: number, recycle: Partial<RecycleBounds>, properties?: readonly string[], perProperty = 1, workers = 1): Promise<{ runs: number; steps: number; found: string[]; recycled: number }> {
  const target = await resolveTarget(await describeTargetName(`module:${store}`));
  const executor = await workerPoolExecutor(target, workers, { contained: true, recycle });
  try {
    const outcome = await fuzzWith(
      {
        target,
        config: resolveConfig({ seed: '1' }),
        runsMax,
        timeMs: null,
        stopAtFirst: false,
        perProperty,
        shrinkBounds: { fastCheckEvaluationsMax: 5, passEvaluationsMax: 5 },
        ...(properties === undefined ? {} : { properties: properties as never }),
      },
      executor,
    );
    return { runs: outcome.runs, steps: outcome.steps, found: outcome.findings.map((finding) => `${finding.run} ${serializeTrace(finding.trace)}`), recycled: executor.recycled() };
  } finally {
    await executor.close();
  }
}

describe('a contained fuzz recycles a worker its module wore, and finds the same (seed 1)', () => {
  it('a bound of runs a worker: the lane goes on in a fresh worker from the next run, the same runs, with one worker or two', async () => {
    // The correct in-memory store, judged on a property it holds: nothing to shrink, the search alone.
    const whole = await contained('check-store/fixtures/core-store.ts', 10, {}, ['no-cross-session-delivery']);
    expect(whole).toMatchObject({ runs: 10, found: [], recycled: 0 });
    const recycled = await contained('check-store/fixtures/core-store.ts', 10, { runs: 4 }, ['no-cross-session-delivery']);
    // After runs 4 and 8; none after run 10, the last.
    expect(recycled).toEqual({ ...whole, recycled: 2 });
    // Two workers, each lane claiming the next run from the other's: both recycled, the same runs.
    const two = await contained('check-store/fixtures/core-store.ts', 10, { runs: 3 }, ['no-cross-session-delivery'], 1, 2);
    expect(two.recycled).toBeGreaterThanOrEqual(2);
    expect(two).toEqual({ ...whole, recycled: two.recycled });
  });

  it('on evidence: a heap bound the worker is past at once hands over after each run, with the same findings', async () => {
    // The store replaying in reverse loses a result in run 1; up to 3 mechanisms of it are looked for, so every run counts.
    const whole = await contained(`${STORES}#reversedStore`, 3, {}, ['no-lost-result'], 3);
    expect(whole).toMatchObject({ runs: 3, recycled: 0 });
    expect(whole.found.length).toBeGreaterThan(0);
    const recycled = await contained(`${STORES}#reversedStore`, 3, { heapBytes: 1 }, ['no-lost-result'], 3);
    // After runs 1 and 2 (none is left after run 3), and after each shrink.
    expect(recycled).toEqual({ ...whole, recycled: 2 + whole.found.length });
  });

  it('on evidence: a store leaving a timer open per instance is recycled once it left more than the default bound', async () => {
    const whole = await contained(`${MISBEHAVING}#leakyStore`, 30, { handles: 1_000_000 }, ['no-cross-session-delivery']);
    expect(whole).toMatchObject({ runs: 30, recycled: 0 });
    const recycled = await contained(`${MISBEHAVING}#leakyStore`, 30, {}, ['no-cross-session-delivery']);
    expect(recycled.recycled).toBeGreaterThan(0);
    expect(recycled).toEqual({ ...whole, recycled: recycled.recycled });
  });
});
