// Decision coverage (sim/coverage.ts): the rules of the decision core a run reached, as the target reports them, and
// the rules its configuration rules out. One scripted run on one node reaches superseded-stream and aborted-stream.

import { describe, expect, it } from 'vitest';
import { RULES } from '../core/decide.ts';
import { freshLiteralTarget } from '../targets/planted/fresh-literal.target.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import type { Target } from '../targets/target.ts';
import { DEFAULT_CONFIG } from './config.ts';
import { CoverageObserver, coverageReport, emptyCoverage } from './coverage.ts';
import { runSimulation } from './engine.ts';
import { scriptChoices } from './script.ts';

const SCRIPT = [
  'client 1 initializes',
  'client 1 opens a standalone GET stream',
  'the network cuts connection #2',
  'client 1 opens a standalone GET stream',
  'client 1 resumes its superseded standalone stream',
  'client 1 calls work',
  'the network cuts connection #5',
  "the server's tool work of c1 fails mid-stream",
  'client 1 resumes the stream of c1 with its latest cursor',
];

async function coverageOf(target: Target) {
  const counts = emptyCoverage();
  const observer = new CoverageObserver(counts);
  const result = await runSimulation(target, DEFAULT_CONFIG, scriptChoices(SCRIPT), { coverage: observer });
  observer.finish();
  return { result, counts, report: coverageReport(counts) };
}

describe('decision coverage (seed 1)', () => {
  it('one run on one node decides superseded-stream and aborted-stream on the reference, and holds', async () => {
    const { result, counts, report } = await coverageOf(referenceTarget);
    expect(result.violation).toBeNull();
    expect(counts.decisionRuns).toBe(1);
    expect(counts.decisions[RULES.indexOf('superseded-stream')]).toBe(1);
    expect(counts.decisions[RULES.indexOf('aborted-stream')]).toBe(1);
    expect(report.decisions!.missed).not.toContain('superseded-stream');
    expect(report.decisions!.missed).not.toContain('aborted-stream');
    // The reference's policy is replay-unsent: the other policies' rows, the modern rows without a 2026-07-28 client,
    // the 2026-07-28-only endpoint's rows and a stream limit of 10 000 are out of this run's scope.
    expect(report.decisions!.outOfScope.map((entry) => entry.rule)).toEqual([
      'stream-limit',
      'completed-replay-tail',
      'completed-fresh-silent',
      'completed-fresh-reset',
      'modern-execute',
      'modern-notification',
      'modern-only-method-not-allowed',
      'modern-only-legacy-refused',
    ]);
    expect(report.decisions!.total).toBe(RULES.length - 8);
  });

  it("a planted policy's own row is in scope and the reference's is not (fresh-literal)", async () => {
    const { report } = await coverageOf(freshLiteralTarget);
    const outOfScope = report.decisions!.outOfScope.map((entry) => entry.rule);
    expect(outOfScope).toContain('completed-replay-unsent');
    expect(outOfScope).not.toContain('completed-fresh-silent');
  });
});
