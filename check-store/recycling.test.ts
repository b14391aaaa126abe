// The CLI recycles its worker thread on evidence (its heap or the handles the store left open grown past a bound, or a
// bound on runs) so memory stays bounded (each run imports the store's module afresh, and Node never frees a module).
// A fresh worker goes on from the next run with what the check kept, so the check's verdict, its findings and its
// trace files are byte for byte those of one worker making every run; without evidence, one worker makes them all.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ContainedOptions, type ContainedOutcome, startContainedCheck } from './contained-check.ts';
import type { StoreCheckResult } from './check-event-store.ts';

// Every folder this file writes lies under one scratch folder, removed when the file's tests end.
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-recycling-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A store replaying in reverse: contract findings in its first runs, store findings and transport defects end to end.
// Seed 7's walk of 10 runs a phase finds them in contract run 1 and end-to-end runs 6 and 7, on both sides of the
// workers' boundaries (contract run 8's shrinks to run 1's shape since the shrinker tries other kinds of action in a
// step's place; seed 2's found them in runs 5 and 25 until the shrinker took run 25's to the shape it took run 5's
// to: one finding then; seed 3's walk changed when the SDK's tools began to observe the cancellation a closed transport
// causes).
const STORE = { path: 'check-store/fixtures/planted-stores.ts', exportName: 'reversedStore' } as const;

async function check(recycle: Pick<ContainedOptions, 'recycleRuns' | 'recycleHeapBytes' | 'recycleHandles'>, runs = 10, seed = '7'): Promise<{ result: StoreCheckResult; files: Record<string, string>; seen: string[]; workers: number }> {
  const out = mkdtempSync(join(scratch, 'out-'));
  const seen: string[] = [];
  const outcome: ContainedOutcome = await startContainedCheck(STORE, { runs, seed, out, ...recycle }, (violation) => seen.push(`${violation.phase} ${violation.property} run ${violation.run}`)).outcome;
  if (outcome.kind !== 'done') throw new Error(`the check did not end: ${JSON.stringify(outcome)}`);
  const files = Object.fromEntries(readdirSync(out).sort().map((name) => [name, readFileSync(join(out, name), 'utf8')]));
  // The trace files' folders differ; all else must not.
  const violations = outcome.result.violations.map((violation) => ({ ...violation, file: violation.file === null ? null : basename(violation.file), replay: null }));
  return { result: { ...outcome.result, violations }, files, seen, workers: outcome.workers };
}

describe('check-store recycles its worker: the same check, byte for byte', () => {
  it('every 8 runs (boundaries inside both phases and one across them) and never give the same findings and trace files', async () => {
    const whole = await check({});
    // Nothing grew past a bound: one worker made all 20 runs.
    expect(whole.workers).toBe(1);
    // The check must find something in both phases on a worker's last run, or this test shows nothing: every 8 runs,
    // contract runs 1-8 are the first worker's; contract runs 9-10, the contract's shrinks and end-to-end runs 1-6 the
    // second's; end-to-end runs 7-10 and its shrinks the third's. Contract run 8 and end-to-end run 6 each find what
    // the next worker shrinks, from the checkpoint it was handed.
    expect(whole.result.holds).toBe(false);
    expect(whole.result.violations.some((violation) => violation.phase === 'contract' && violation.run === 8)).toBe(true);
    expect(whole.result.violations.some((violation) => violation.phase === 'end-to-end' && violation.run === 6)).toBe(true);
    expect(whole.result.transportDefects.length).toBeGreaterThan(0);
    expect(Object.keys(whole.files).length).toBeGreaterThan(2);
    // Three workers, each a fresh thread that loads the checker and the SDK cold.
    const recycled = await check({ recycleRuns: 8 });
    expect(recycled.workers).toBe(3);
    expect(recycled.seen).toEqual(whole.seen);
    expect(recycled.result).toEqual(whole.result);
    expect(recycled.files).toEqual(whole.files);
    // Two checks of 20 runs each, in worker threads; most of the time is shrinking the findings, twice.
  });

  it('on evidence: a heap bound every thread exceeds hands over after each run, with the same findings (seed 2, 3 runs per phase)', async () => {
    const whole = await check({}, 3, '2');
    const recycled = await check({ recycleHeapBytes: 1 }, 3, '2');
    expect(whole.workers).toBe(1);
    expect(whole.result.violations.length).toBeGreaterThan(0);
    // Contract runs 1-3 one per worker; the fourth shrinks the contract's finding and goes on into end-to-end run 1,
    // then 2 and 3 one each, and the seventh shrinks the end-to-end finding.
    expect(recycled.workers).toBe(7);
    expect(recycled.seen).toEqual(whole.seen);
    expect(recycled.result).toEqual(whole.result);
    expect(recycled.files).toEqual(whole.files);
  });

  it('on evidence: a store leaving a timer open per instance is recycled once it left more than the bound (seed 1, 10 runs)', async () => {
    const leaky = (recycleHandles?: number) =>
      startContainedCheck({ path: 'check-store/fixtures/misbehaving-stores.ts', exportName: 'leakyStore' }, { runs: 10, seed: '1', endToEndRuns: 0, ...(recycleHandles === undefined ? {} : { recycleHandles }) }, () => {}).outcome;
    const bounded = await leaky(4);
    const unbounded = await leaky(1_000_000);
    if (bounded.kind !== 'done' || unbounded.kind !== 'done') throw new Error('the check did not end');
    expect(unbounded.workers).toBe(1);
    expect(bounded.workers).toBeGreaterThan(1);
    expect(bounded.result.contract.runs).toBe(10);
    expect(bounded.result.holds).toBe(true);
  });
});
