// One simulation that goes on past its violations gives exactly what making the run again without each property
// violated gives (sim/every-violation.ts): the same violations in the same order, each with the same choices, step
// counts and properties checked, and the same coverage for the first simulation. Held on targets that fail most runs
// (the SDK), fail by notes, kept-aside warnings and client-triggered findings, and fail in the liveness phase and the
// final checks.

import { describe, expect, it } from 'vitest';
import type { PropertyName } from '../properties/names.ts';
import { planWalk, walkChoices } from './choices.ts';
import { type ProtocolChoice, resolveConfig } from './config.ts';
import { CoverageObserver, emptyCoverage } from './coverage.ts';
import { type RunResult, runSimulation } from './engine.ts';
import { eachViolation, runSeed, searchedProperties } from './search/fuzz-search.ts';
import { findTarget } from '../targets/index.ts';
import { multiNodeTarget } from '../targets/multi-node/multi-node.target.ts';
import { noHandoffTarget } from '../targets/multi-node/no-handoff.target.ts';
import type { Target } from '../targets/target.ts';

interface Simulated {
  readonly property: string | null;
  readonly explanation: string | null;
  readonly signature: string | null;
  readonly triggered: boolean;
  readonly choices: readonly number[];
  readonly steps: number;
  readonly healSteps: number;
  readonly checked: readonly PropertyName[] | null;
  /** The recorded steps, as JSON, when the runs were recorded. */
  readonly trace?: string;
}

function simulated(result: RunResult, checked: readonly PropertyName[] | null): Simulated {
  const { violation } = result;
  return {
    property: violation?.property ?? null,
    explanation: violation?.explanation ?? null,
    signature: violation?.signature ?? null,
    triggered: violation?.triggeredBy !== undefined,
    choices: [...result.choices],
    steps: result.steps,
    healSteps: result.healSteps,
    checked: checked === null ? null : [...checked],
    ...(result.trace === null ? {} : { trace: JSON.stringify(result.trace) }),
  };
}

/** Every simulation of runs 1 to `runs` of `name`, made again per violation or read off one run, and the coverage. */
async function everyRun(target: Target, runs: number, protocol: ProtocolChoice | undefined, every: boolean, record = false): Promise<{ simulations: Simulated[][]; coverage: string }> {
  const base = resolveConfig({ seed: '1', ...(protocol === undefined ? {} : { protocol }) });
  const counts = emptyCoverage();
  const observer = new CoverageObserver(counts);
  const simulations: Simulated[][] = [];
  for (let run = 1; run <= runs; run += 1) {
    const config = { ...base, seed: runSeed(base.seed, run) };
    const these: Simulated[] = [];
    const simulate = (checked: readonly PropertyName[] | null) =>
      runSimulation(target, config, walkChoices(planWalk(config.seed, config.stepsMax)), {
        ...(checked === null ? { coverage: observer } : { properties: checked }),
        ...(every ? { everyViolation: true } : {}),
        ...(record ? { record: true } : {}),
      });
    await eachViolation(null, searchedProperties(target, null), () => true, simulate, (result, checked) => {
      these.push(simulated(result, checked));
    });
    simulations.push(these);
  }
  observer.finish();
  return { simulations, coverage: JSON.stringify(counts) };
}

describe('every violation of a run from one simulation', () => {
  const cases: readonly { readonly target: Target; readonly runs: number; readonly protocol?: ProtocolChoice }[] = [
    { target: findTarget('sdk-shared')!, runs: 60 },
    { target: findTarget('no-owner-check')!, runs: 300 },
    { target: findTarget('resume-if-known')!, runs: 300 },
    { target: findTarget('reference')!, runs: 300, protocol: 'mixed' },
    { target: findTarget('modern-cursor-replays')!, runs: 300, protocol: 'mixed' },
    { target: multiNodeTarget(noHandoffTarget, { nodes: 2, balancer: 'round-robin', storeLagSteps: 1 }), runs: 300 },
  ];
  for (const { target, runs, protocol } of cases) {
    it(`${target.name}${protocol === undefined ? '' : ` (${protocol})`}: runs 1-${runs} of seed 1 give the same simulations and coverage`, async () => {
      const again = await everyRun(target, runs, protocol, false);
      const once = await everyRun(target, runs, protocol, true);
      expect(once.simulations).toEqual(again.simulations);
      expect(once.coverage).toBe(again.coverage);
      // Worth holding: runs that violate something (the reference's: notes, and its clients' own faults).
      expect(again.simulations.some((run) => run.length >= 2)).toBe(true);
    });
  }

  it('recorded (as a run over the wire is, which is not made again), each simulation keeps the steps it took', async () => {
    for (const [name, runs] of [['sdk-shared', 20], ['no-owner-check', 100]] as const) {
      const again = await everyRun(findTarget(name)!, runs, undefined, false, true);
      const once = await everyRun(findTarget(name)!, runs, undefined, true, true);
      expect(once.simulations.flat().every((each) => each.trace !== undefined)).toBe(true);
      expect(once.simulations).toEqual(again.simulations);
    }
  });

  it('the cases include kept-aside, client-triggered and final-check violations, and violations in the liveness phase', async () => {
    const kinds = new Set<string>();
    for (const name of ['sdk-shared', 'no-owner-check', 'resume-if-known']) {
      const { simulations } = await everyRun(findTarget(name)!, name === 'sdk-shared' ? 60 : 300, undefined, true);
      for (const run of simulations) {
        for (const each of run) {
          if (each.property === null) continue;
          if (each.signature?.startsWith('settled') === true) kinds.add('final checks');
          if (each.healSteps > 0) kinds.add('liveness phase');
          if (each.property === 'priming-event' || each.property === 'retry-before-close') kinds.add('kept aside');
          if (each.triggered) kinds.add('client triggered');
          if (each.checked !== null) kinds.add('made again');
        }
      }
    }
    expect([...kinds].sort()).toEqual(['client triggered', 'final checks', 'kept aside', 'liveness phase', 'made again']);
  });
});
