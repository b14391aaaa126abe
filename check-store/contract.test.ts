// Testing the tester: each planted store is caught by the contract property its defect breaks, shrunk, and its trace
// replays to the same verdict; correct stores (a plain list store, resumecheck's own) hold every property; the same
// seed gives the same traces.

import { describe, expect, it } from 'vitest';
import { moduleSource } from '../targets/module/module.target.ts';
import { checkContract, replayContractTrace } from './contract-check.ts';
import type { StorePropertyName } from '../properties/names.ts';
import { serializeTrace } from '../traces/trace.ts';

const PLANTED = 'check-store/fixtures/planted-stores.ts';
const RUNS = 30;
const SEED = '1';

function planted(exportName: string) {
  return moduleSource({ path: PLANTED, exportName });
}

describe(`contract phase, seed ${SEED}, ${RUNS} runs`, () => {
  const cases: ReadonlyArray<{ readonly store: string; readonly property: StorePropertyName; readonly shared?: boolean }> = [
    { store: 'racyIdsStore', property: 'event-ids-unique' },
    { store: 'silentWindowStore', property: 'no-silent-skip' },
    { store: 'replayUnknownStore', property: 'unknown-cursor-yields-nothing' },
    { store: 'reversedStore', property: 'replay-exact' },
    { store: 'hangingStore', property: 'calls-settle' },
    { store: 'unscopedStore', property: 'session-isolation' },
    { store: 'listStore', property: 'session-isolation', shared: true },
  ];
  for (const { store, property, shared = false } of cases) {
    it(`${store}${shared ? ' --shared' : ''} is caught by ${property}, shrunk, and its trace replays`, async () => {
      const source = planted(store);
      // A hanging call costs the call timeout in real time: a short one here.
      const outcome = await checkContract(source, { shared, runs: RUNS, seed: SEED, config: { callTimeoutMs: 20 }, distinctMax: 1 });
      const finding = outcome.findings.find((candidate) => candidate.trace.verdict.property === property);
      expect(finding, `${property} not found; found ${outcome.findings.map((f) => f.trace.verdict.property).join(', ')}`).toBeDefined();
      const trace = finding!.trace;
      expect(trace.shrink!.shrunkLength).toBeLessThanOrEqual(trace.shrink!.originalLength);
      // A hang's shrink too, within its few call timeouts: steps that do not matter go by meaning first.
      expect(trace.shrink!.shrunkLength).toBeLessThanOrEqual(12);
      expect(trace.steps.length).toBe(trace.choices.length + 1);
      const replayed = await replayContractTrace(source, trace);
      expect(replayed.violations.map((violation) => violation.property)).toContain(property);
    });
  }

  it('a correct list store holds every contract property', async () => {
    const outcome = await checkContract(planted('listStore'), { shared: false, runs: RUNS, seed: SEED });
    expect(outcome.findings.map((finding) => finding.trace.verdict)).toEqual([]);
    expect(outcome.runs).toBe(RUNS);
  });

  it('resumecheck/event-store (core-store) holds every contract property, its window exceeded and refused', async () => {
    const outcome = await checkContract(moduleSource({ path: 'check-store/fixtures/core-store.ts', exportName: null }), { shared: false, runs: RUNS * 3, seed: SEED });
    expect(outcome.findings.map((finding) => finding.trace.verdict)).toEqual([]);
  });

  it('any shared store fails session isolation: resumecheck/event-store behind --shared too', async () => {
    const outcome = await checkContract(moduleSource({ path: 'check-store/fixtures/core-store.ts', exportName: null }), { shared: true, runs: RUNS, seed: SEED, distinctMax: 1 });
    expect(outcome.findings.map((finding) => finding.trace.verdict.property)).toContain('session-isolation');
  });

  it(`the same seed gives byte-identical contract traces (seed ${SEED})`, async () => {
    const first = await checkContract(planted('reversedStore'), { shared: false, runs: 20, seed: SEED, distinctMax: 1 });
    const second = await checkContract(planted('reversedStore'), { shared: false, runs: 20, seed: SEED, distinctMax: 1 });
    expect(first.findings.length).toBeGreaterThan(0);
    expect(second.findings.map((finding) => serializeTrace(finding.trace))).toEqual(first.findings.map((finding) => serializeTrace(finding.trace)));
  });
});
