// A hung call costs one timeout: once a store call of a run has outlasted --call-timeout the run's verdict is known,
// so the run ends there, the contract phase ends after it, and its shrink waits a bounded number of timeouts. Counts
// (timeouts waited, candidate runs), not wall-clock time: a store whose calls never settle makes them exact.

import { traceLines } from '../sim/levels/vocabulary.ts';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { moduleSource } from '../targets/module/module.target.ts';
import { IMPORT_TIMEOUT_FLOOR_MS } from './check-event-store.ts';
import { checkContract } from './contract-check.ts';
import { SHRINK_TIMEOUTS_MAX } from '../sim/shrink/shrink.ts';

const NEVER = 'check-store/fixtures/never-settling-stores.ts';

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describe('a hung call costs one timeout, seed 1', () => {
  for (const store of ['neverStore', 'neverLookupStore']) {
    it(`${store}: 30 runs asked, one made; the run waited one timeout, its shrink at most ${SHRINK_TIMEOUTS_MAX}`, async () => {
      const outcome = await checkContract(moduleSource({ path: NEVER, exportName: store }), { shared: false, runs: 30, seed: '1', config: { callTimeoutMs: 20 } });
      expect(outcome.findings.map((finding) => finding.trace.verdict.property)).toEqual(['calls-settle']);
      expect(outcome.runs).toBe(1);
      expect(outcome.hungRun).toBe(1);
      expect(outcome.done).toBe(true);
      const [finding] = outcome.findings;
      // The run that found the hang is not re-run, and the last candidate that hung was recorded as it ran: every
      // timeout waited is the run's one or a candidate's.
      const evaluations = finding!.trace.shrink!.evaluations;
      expect(outcome.timeoutsWaited).toBeGreaterThanOrEqual(1);
      expect(outcome.timeoutsWaited).toBeLessThanOrEqual(1 + SHRINK_TIMEOUTS_MAX);
      expect(outcome.timeoutsWaited).toBeLessThanOrEqual(1 + evaluations);
      expect(finding!.trace.shrink!.shrunkLength).toBeLessThanOrEqual(finding!.trace.shrink!.originalLength);
      // The trace ends at the wait that ran out, and says so.
      expect(traceLines(finding!.trace.steps, 'store').flatMap((step) => step.notes).filter((line) => /nothing settled within the call timeout \(20 ms\): the run ends here/.test(line))).toHaveLength(1);
    });
  }

  it('neverStore through the CLI: the header, one finding in run 1, the phase ended there, end to end skipped, exit 1', async () => {
    const result = await run(['check-store', NEVER, '--export', 'neverStore', '--runs', '30', '--call-timeout', '50ms', '--json']);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out.join('\n')) as { contract: { runs: number; timeoutsWaited: number; hungRun: number | null }; endToEnd: { skipped: string | null } };
    expect(report.contract.runs).toBe(1);
    expect(report.contract.hungRun).toBe(1);
    expect(report.contract.timeoutsWaited).toBeLessThanOrEqual(1 + SHRINK_TIMEOUTS_MAX);
    expect(report.endToEnd.skipped).toMatch(/never settled/);
  });

  it(`a module whose top-level await never settles: the header first, then one line and exit 2 (import bound ${IMPORT_TIMEOUT_FLOOR_MS} ms)`, async () => {
    const result = await run(['check-store', 'check-store/fixtures/never-imports.ts', '--call-timeout', '100ms']);
    expect(result.code).toBe(2);
    expect(result.out[0]).toMatch(/^resumecheck check-store: check-store\/fixtures\/never-imports\.ts \(default export\)/);
    expect(result.err).toEqual([`resumecheck: check-store/fixtures/never-imports.ts: importing the module did not settle within ${IMPORT_TIMEOUT_FLOOR_MS} ms (a top-level await that never settles?)`]);
  });
});
