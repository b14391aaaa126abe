// A fuzz that pauses and goes on from its checkpoint (FuzzOptions.pause and resume, as check-store's worker hands its
// work over to a fresh thread): the same runs, steps and findings, byte for byte, wherever it paused; and a search
// ended on a run (lastRun) shrinks what that run and the ones before it found.

import { describe, expect, it } from 'vitest';
import { crossStreamReplayTarget } from '../../targets/planted/cross-stream-replay.target.ts';
import { resolveConfig } from '../config.ts';
import { type FuzzCheckpoint, type FuzzOptions, type FuzzOutcome, fuzz } from './fuzz.ts';

// Run 130 violates two properties: the second's shrink starts from the first's shrunk choices, in a later call.
const OPTIONS: FuzzOptions = { target: crossStreamReplayTarget, config: resolveConfig({ seed: '1' }), runsMax: 140, timeMs: null, stopAtFirst: false, perProperty: 2 };

/** The fuzz made in calls that each pause once `pauseAfter` of its runs and shrinks are made (asked after each). */
async function inCalls(pauseAfter: number): Promise<{ outcome: FuzzOutcome; calls: number; checkpoints: FuzzCheckpoint[] }> {
  const checkpoints: FuzzCheckpoint[] = [];
  let resume: FuzzCheckpoint | null = null;
  for (let calls = 1; ; calls += 1) {
    let asked = 0;
    // Through a structured clone, as a checkpoint crosses to a fresh thread.
    const outcome: FuzzOutcome = await fuzz({ ...OPTIONS, resume: resume === null ? null : structuredClone(resume), pause: () => (asked += 1) >= pauseAfter });
    if (outcome.checkpoint === null) return { outcome, calls, checkpoints };
    checkpoints.push(outcome.checkpoint);
    resume = outcome.checkpoint;
  }
}

/** What a fuzz found, as a reader compares it: runs, steps, and each finding's run, trace and shrink. */
function summary(outcome: FuzzOutcome): unknown {
  return { runs: outcome.runs, steps: outcome.steps, findings: outcome.findings.map((finding) => ({ run: finding.run, shrunk: finding.shrunk, trace: finding.trace })) };
}

describe('a fuzz that pauses and goes on from its checkpoint', () => {
  it('gives the findings of one call, byte for byte, pausing after every run and shrink, or every 7', async () => {
    const whole = await fuzz(OPTIONS);
    expect(whole.checkpoint).toBeNull();
    expect(whole.findings.length).toBeGreaterThan(3);
    expect(whole.findings.filter((finding) => finding.run === 130)).toHaveLength(2);
    for (const pauseAfter of [1, 7]) {
      const { outcome, calls, checkpoints } = await inCalls(pauseAfter);
      expect(JSON.stringify(summary(outcome))).toBe(JSON.stringify(summary(whole)));
      // It paused in the search and among the shrinks, every call making progress.
      expect(checkpoints.some((checkpoint) => !checkpoint.searched)).toBe(true);
      expect(checkpoints.some((checkpoint) => checkpoint.searched)).toBe(true);
      expect(calls).toBeGreaterThan(pauseAfter === 1 ? whole.runs + whole.findings.length - 1 : 10);
    }
  });

  it('a search ended on a run (lastRun) counts that run and no later one, and shrinks what it found', async () => {
    const whole = await fuzz(OPTIONS);
    const first = whole.findings.map((finding) => finding.run).sort((left, right) => left - right)[0]!;
    let runs = 0;
    const ended = await fuzz({ ...OPTIONS, lastRun: () => (runs += 1) >= first });
    expect(ended.runs).toBe(first);
    expect(ended.findings.length).toBeGreaterThan(0);
    expect(ended.findings.every((finding) => finding.run <= first && finding.shrunk)).toBe(true);
  });
});
