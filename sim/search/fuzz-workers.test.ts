// --workers: for a given seed and run count, the findings (which runs, which properties, the shrunk traces) are
// the same with 1, 2 or 3 threads (this one and 0, 1 or 2 workers), whichever lane happens to find what first.

import { describe, expect, it } from 'vitest';
import { findTarget } from '../../targets/index.ts';
import { serializeTrace } from '../../traces/trace.ts';
import { resolveConfig } from '../config.ts';
import { type FuzzExecutor, type FuzzOptions, fuzz, fuzzWith, inThreadExecutor } from './fuzz.ts';
import { workerPoolExecutor } from './fuzz-workers.ts';

async function findings(options: Omit<FuzzOptions, 'workers'>, workers: number): Promise<{ runs: number; found: string[] }> {
  const outcome = await fuzz({ ...options, workers });
  return { runs: outcome.runs, found: outcome.findings.map((finding) => `${finding.run} ${finding.shrunk} ${serializeTrace(finding.trace)}`) };
}

describe('findings do not depend on the number of workers (seed 1)', () => {
  const target = findTarget('counter-ids')!;
  const base = { target, config: resolveConfig({ seed: '1' }), runsMax: 1500, timeMs: null } as const;

  it('collecting one finding per property: 1, 2 and 3 workers agree (seed 1, 1500 runs)', async () => {
    const one = await findings({ ...base, stopAtFirst: false }, 1);
    expect(one.found.length).toBeGreaterThanOrEqual(2);
    expect(one.runs).toBe(1500);
    expect(await findings({ ...base, stopAtFirst: false }, 2)).toEqual(one);
    expect(await findings({ ...base, stopAtFirst: false }, 3)).toEqual(one);
  });

  it('several counterexamples per property (--per-property 3): 1 and 2 workers agree, each finding of its own signature', async () => {
    const one = await findings({ ...base, stopAtFirst: false, perProperty: 3 }, 1);
    expect(await findings({ ...base, stopAtFirst: false, perProperty: 3 }, 2)).toEqual(one);
    // More findings than properties: some property failed by more than one mechanism here.
    const keys = one.found.map((line) => {
      const verdict = (JSON.parse(line.slice(line.indexOf('{'))) as { verdict: { property: string; signature: string } }).verdict;
      return `${verdict.property} | ${verdict.signature}`;
    });
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys.map((key) => key.split(' | ')[0])).size).toBeLessThan(keys.length);
  });

  it('stopping at the first violation: the same first run with 1 and 2 workers (seed 1)', async () => {
    const one = await findings({ ...base, stopAtFirst: true }, 1);
    expect(one.found).toHaveLength(1);
    const two = await findings({ ...base, stopAtFirst: true }, 2);
    expect(two.found).toEqual(one.found);
  });
});

describe('an SDK target with 2 threads (seed 1)', () => {
  it('records each discovery in the calling thread while both lanes search, never two SDK runs at once there; the same traces as 1 thread', async () => {
    const target = findTarget('sdk-shared')!;
    const options = {
      target,
      config: resolveConfig({ seed: '1' }),
      // 13 findings in runs 20 to 142, found in both lanes.
      runsMax: 150,
      timeMs: null,
      stopAtFirst: false,
      shrinkBounds: { fastCheckEvaluationsMax: 10, passEvaluationsMax: 10 },
    } as const;
    const collect = async (executor: FuzzExecutor): Promise<{ discovered: string[]; found: string[] }> => {
      // A discovery is the first run of its property to *arrive*, which with 2 lanes depends on which lane is faster:
      // its property is fixed, its run is not (the findings, chosen by run number, are).
      const properties: string[] = [];
      const outcome = await fuzzWith({ ...options, onDiscovery: ({ trace }) => void properties.push(trace.verdict!.property) }, executor);
      return { discovered: properties.sort(), found: outcome.findings.map((finding) => `${finding.run} ${serializeTrace(finding.trace)}`) };
    };
    const one = await collect(inThreadExecutor(target));
    expect(one.found.length).toBeGreaterThan(3);
    expect(one.discovered).toHaveLength(one.found.length);
    // The worker loaded before the search starts, so both lanes search from the first run and the worker's
    // discoveries are recorded here while this thread's lane runs: an SDK run overlapping a recording trips the
    // SDK harness's assertion on its patched globals (and would change the traces).
    const pool = await workerPoolExecutor(target, 2);
    try {
      await pool.ready();
      expect(await collect(pool)).toEqual(one);
    } finally {
      await pool.close();
    }
  });
});
