// The contract phase: the store level (sim/levels/store-level.ts) run by the engine, one seeded walk a run with the
// level's swarm weights, each run judged against every store property. Each distinct violation of a property (up to
// a bound) is shrunk by the engine's shrinker (a candidate counts as failing only when a second run fails too) and
// recorded as a trace of the one format; one that does not reproduce when re-run is reported as flaky, with how often.

import { JUDGED_STORE_PROPERTIES } from '../properties/stores/index.ts';
import type { StorePropertyName } from '../properties/names.ts';
import { createActionList } from '../sim/actions.ts';
import { planWalk, sequenceChoices, walkChoices } from '../sim/choices.ts';
import type { ActionList } from '../sim/actions.ts';
import type { SimConfig } from '../sim/config.ts';
import { type RunResult, type TraceStep, runSimulation } from '../sim/engine.ts';
import { packTrace, recordTrace } from '../sim/search/fuzz.ts';
import { type StoreLevelSizes, type StoreRunReport, storeLevelConfig } from '../sim/levels/store-level.ts';
import { NotReproducedError, type ShrinkBounds, type Simulate, shrinkChoices } from '../sim/shrink/shrink.ts';
import type { Violation } from '../sim/world.ts';
import { type StoreSource, parseModuleTargetName } from '../targets/module/module.target.ts';
import { storeLevelTarget } from '../targets/module/store-level.target.ts';
import type { Target } from '../targets/target.ts';
import type { Trace } from '../traces/trace.ts';
import { levelOf } from '../sim/levels/level.ts';

/** A store-level trace of a violation. */
export type StoreTrace = Trace & { readonly verdict: Violation };

/** What the contract phase is asked to do. */
export interface ContractCheckOptions {
  readonly shared: boolean;
  /** Runs at the most (the phase stops early once every property has used its shrink attempts). */
  readonly runs: number;
  readonly seed: string;
  /** Sizes and the call timeout (defaults: the store level's), and `durable`. */
  readonly config?: StoreLevelSizes & { readonly durable?: boolean };
  /** Called with each finding as soon as it is recorded (the CLI writes its trace then). */
  readonly onFinding?: (finding: ContractFinding) => void | Promise<void>;
  /** Asked between runs: true stops the phase (an interrupted check keeps what it found). */
  readonly stopped?: () => boolean;
  /** Distinct violations kept per property; default {@link DISTINCT_VIOLATIONS_MAX}. */
  readonly distinctMax?: number;
  /** What an earlier part of the same check did (in another worker thread): go on from its next run; default none. */
  readonly progress?: ContractProgress | null;
  /** Runs this call makes at the most before it returns its progress (the CLI recycles its worker then); default all. */
  readonly runsNow?: number;
  /**
   * Asked between runs, after the first of this call: true returns the progress so far, not done, for a fresh
   * thread to go on from (the CLI's worker, when it sees its memory or its open handles grow).
   */
  readonly pause?: () => boolean;
}

/**
 * What the contract phase has done so far: all it keeps across runs, so that another thread can go on from the next
 * run and reach the same findings (a run is a function of the seed and its number). Structured-cloneable.
 */
export interface ContractProgress {
  /** The number of the last run made (0: none yet). */
  readonly runs: number;
  /** True when the phase has ended (every run made, every property's bound reached, or stopped). */
  readonly done: boolean;
  /** The distinct violations found, in the order found. */
  readonly findings: readonly ContractFinding[];
  /** Shrinks made per property. */
  readonly shrinks: ReadonlyArray<readonly [StorePropertyName, number]>;
  /** Shrunk shapes and explanation gists seen (see shapeOf, gistOf). */
  readonly shapes: readonly string[];
  readonly gists: readonly string[];
  readonly teardown: readonly string[];
  /** Waits for the store that ran out the call timeout, in runs and shrinks alike. */
  readonly timeoutsWaited: number;
  /** The run after which the phase ended because a store call never settled in it; null when none did. */
  readonly hungRun: number | null;
}

/** A contract violation found, shrunk and recorded. */
export interface ContractFinding {
  /** 1-based number of the run that found it. */
  readonly run: number;
  readonly trace: StoreTrace;
  /** Null when it reproduced; else how often re-running the run's choices showed it again. */
  readonly flaky: { readonly reproduced: number; readonly reruns: number } | null;
  /** Null when the shrink ran to its end; else why it stopped early (its candidates hung: a bound on real time). */
  readonly shrinkCut: string | null;
}

/** The outcome of the contract phase. */
export interface ContractCheckOutcome {
  readonly runs: number;
  /** The distinct violations found, in property order, then in the order found. */
  readonly findings: readonly ContractFinding[];
  /** Teardown problems (an onRunEnd hook or close() that threw or hung), the first few, one line each. */
  readonly teardown: readonly string[];
  /** All the phase keeps, to go on from in another call ({@link ContractCheckOptions.progress}). */
  readonly progress: ContractProgress;
  /** Waits for the store that ran out the call timeout (each costs `callTimeoutMs` of real time). */
  readonly timeoutsWaited: number;
  /** The run after which the phase ended because a store call never settled; null when it did not end so. */
  readonly hungRun: number | null;
}

/**
 * Bounds of one shrink (each candidate one or two runs of the store, milliseconds each): with steps deleted by meaning
 * in runs early (the shrinker does, after 5 of fast-check's candidates), a few dozen candidates reach what a few
 * hundred would.
 */
export const CONTRACT_SHRINK_BOUNDS: ShrinkBounds = { fastCheckEvaluationsMax: 20, passEvaluationsMax: 20 };
/** Distinct violations reported per property at the most. */
export const DISTINCT_VIOLATIONS_MAX = 3;
/**
 * Call timeouts one shrink may wait for: a candidate whose call hangs costs a whole timeout, so a store whose calls
 * never settle would otherwise take minutes to shrink. With a run ending at its first timeout, this bounds a check of
 * such a store to about this many timeouts and one more.
 */
export const SHRINK_TIMEOUTS_MAX = 5;
/** Re-runs of a finding that did not reproduce, to say how flaky it is. */
const FLAKY_RERUNS = 5;
/** Teardown problems kept. */
const TEARDOWN_PROBLEMS_MAX = 5;
/** The properties the contract phase judges, in report order. */
const JUDGED: readonly StorePropertyName[] = JUDGED_STORE_PROPERTIES.map((property) => property.name);

/** The seed of contract run `run` of a check seeded with `seed`. */
export function contractRunSeed(seed: string, run: number): string {
  return `${seed}.c${run}`;
}

/** The shape of a violation for telling distinct ones apart: its property and the kinds of its operations. */
function shapeOf(property: StorePropertyName, kinds: readonly number[]): string {
  return `${property}|${kinds.join(',')}`;
}

/** The explanation with the run's particulars (IDs, labels, numbers) taken out: a cheap guess at "the same defect". */
function gistOf(violation: Violation): string {
  return `${violation.property}|${violation.explanation.replace(/"(?:[^"\\]|\\.)*"/g, 'S').replace(/\b[A-Z]\d*\.(?:post\d+|standalone)(?:#\d+)?/g, 'L').replace(/\b(?:session|replay) #?[A-Z0-9]+\b/g, 'N').replace(/\d+/g, 'n')}`;
}

/** Runs the contract phase. */
export async function checkContract(source: StoreSource, options: ContractCheckOptions): Promise<ContractCheckOutcome> {
  const earlier = options.progress ?? null;
  const order: ContractFinding[] = [...(earlier?.findings ?? [])];
  const found = new Map<StorePropertyName, ContractFinding[]>();
  for (const finding of order) {
    const property = finding.trace.verdict.property as StorePropertyName;
    found.set(property, [...(found.get(property) ?? []), finding]);
  }
  const shrinks = new Map<StorePropertyName, number>(earlier?.shrinks ?? []);
  const shapes = new Set<string>(earlier?.shapes ?? []);
  const gists = new Set<string>(earlier?.gists ?? []);
  const teardown: string[] = [...(earlier?.teardown ?? [])];
  const distinctMax = options.distinctMax ?? DISTINCT_VIOLATIONS_MAX;
  // Shrinks per property at the most (a violation whose shrunk shape was seen already used one up).
  const shrinksMax = 2 * distinctMax;
  let runs = earlier?.runs ?? 0;
  const first = runs + 1;
  const last = Math.min(options.runs, first - 1 + (options.runsNow ?? options.runs));
  const exhausted = (): boolean => JUDGED.every((property) => (shrinks.get(property) ?? 0) >= shrinksMax || (found.get(property)?.length ?? 0) >= distinctMax);
  let timeoutsWaited = earlier?.timeoutsWaited ?? 0;
  let hungRun = earlier?.hungRun ?? null;
  // What the latest run of the store came to (every violation, its timeouts, its steps' kinds).
  const latest: { report: StoreRunReport | null } = { report: null };
  const { durable = false, ...sizes } = options.config ?? {};
  const target = storeLevelTarget(source, {
    shared: options.shared,
    durable,
    onRunEnd: (report) => {
      latest.report = report;
      timeoutsWaited += report.timeoutsWaited;
    },
  });
  const walk = levelOf(target)!;
  const actions = createActionList();
  for (let run = first; earlier?.done !== true && hungRun === null && run <= last && !exhausted() && options.stopped?.() !== true && (run === first || options.pause?.() !== true); run += 1) {
    runs = run;
    const config = storeLevelConfig(contractRunSeed(options.seed, run), sizes);
    const walked = await runSimulation(target, config, walkChoices(planWalk(config.seed, config.stepsMax, walk.faultKinds, walk.walk)), { actions });
    const report = latest.report!;
    for (const problem of report.teardown) if (teardown.length < TEARDOWN_PROBLEMS_MAX) teardown.push(`run ${run} (seed ${config.seed}): ${problem}`);
    for (const property of JUDGED) {
      const violation = report.violations.find((candidate) => candidate.property === property);
      if (violation === undefined) continue;
      const list = found.get(property) ?? [];
      if (list.length >= distinctMax || (shrinks.get(property) ?? 0) >= shrinksMax) continue;
      const gist = gistOf(violation);
      if (gists.has(gist)) continue;
      gists.add(gist);
      shrinks.set(property, (shrinks.get(property) ?? 0) + 1);
      // A call that outlasted the whole call timeout is as settled a verdict as the checker can afford: a candidate
      // that hung is not confirmed by a second run, and the last one is recorded as it ran (each re-run would cost
      // another timeout); the shrink's real time is bounded by the timeouts its candidates cost.
      const hang = property === 'calls-settle' && report.timeoutsWaited > 0;
      const timeoutsBefore = timeoutsWaited;
      const kinds = new Map<string, readonly number[]>();
      const stillFailing: Simulate = async (candidateTarget, candidateConfig, choices, runOptions) => {
        const tried = await runSimulation(candidateTarget, candidateConfig, choices, runOptions);
        if (tried.violation?.property !== property) return tried;
        const tryReport = latest.report!;
        if (!(hang && tryReport.timeoutsWaited > 0)) {
          // A candidate counts as failing only if it fails again on a second run: a flaky store cannot steer the shrink.
          const again = await runSimulation(candidateTarget, candidateConfig, sequenceChoices(tried.choices), { properties: [property], actions });
          if (again.violation?.property !== property) return { ...tried, violation: null };
        }
        kinds.set(tried.choices.join(','), tryReport.kinds);
        return tried;
      };
      let finding: ContractFinding;
      try {
        const shrink = await shrinkChoices(target, config, walked.choices, property, CONTRACT_SHRINK_BOUNDS, {
          properties: [property],
          run: stillFailing,
          stopped: () => timeoutsWaited - timeoutsBefore >= SHRINK_TIMEOUTS_MAX,
          ...(hang ? { record: true } : {}),
        });
        const shape = shapeOf(property, kinds.get(shrink.choices.join(',')) ?? []);
        if (shapes.has(shape)) continue;
        shapes.add(shape);
        const trace = shrink.recorded === undefined ? await recordTrace(target, config, shrink.choices, shrink, [property]) : packTrace(target, config, shrink.recorded, shrink, [property]);
        const reproduced = trace.verdict?.property === property;
        const verdict = reproduced ? trace.verdict! : violation;
        // Shrunk, two findings that read alike (IDs and labels aside) are one defect.
        const shrunkGist = gistOf(verdict);
        if (gist !== shrunkGist && gists.has(shrunkGist)) continue;
        gists.add(shrunkGist);
        const shrinkCut = shrink.cutShort === true ? `shrinking stopped after ${SHRINK_TIMEOUTS_MAX} call timeouts` : null;
        finding = { run, trace: { ...trace, verdict }, flaky: reproduced ? null : { reproduced: 0, reruns: 1 }, shrinkCut };
      } catch (error) {
        if (!(error instanceof NotReproducedError)) throw error;
        finding = { run, ...(await flakyFinding(target, config, walked, property, violation, actions)), shrinkCut: null };
      }
      list.push(finding);
      found.set(property, list);
      order.push(finding);
      await options.onFinding?.(finding);
    }
    // Every later run could wait a timeout again, and the verdict is known: the phase ends with this run.
    if (report.timeoutsWaited > 0 && (found.get('calls-settle')?.length ?? 0) > 0) hungRun = run;
  }
  const done = earlier?.done === true || hungRun !== null || runs >= options.runs || exhausted() || options.stopped?.() === true;
  const progress: ContractProgress = { runs, done, findings: order, shrinks: [...shrinks], shapes: [...shapes], gists: [...gists], teardown, timeoutsWaited, hungRun };
  return { runs, findings: JUDGED.flatMap((property) => found.get(property) ?? []), teardown, progress, timeoutsWaited, hungRun };
}

/** A violation whose run did not fail again: how often re-running its choices showed it, and the trace of the run. */
async function flakyFinding(
  target: Target,
  config: SimConfig,
  walked: RunResult,
  property: StorePropertyName,
  seen: Violation,
  actions: ActionList,
): Promise<Pick<ContractFinding, 'trace' | 'flaky'>> {
  let reproduced = 0;
  for (let attempt = 0; attempt < FLAKY_RERUNS; attempt += 1) {
    if ((await runSimulation(target, config, sequenceChoices(walked.choices), { properties: [property], actions })).violation?.property === property) reproduced += 1;
  }
  const trace = await recordTrace(target, config, walked.choices, null, [property]);
  return { trace: { ...trace, verdict: trace.verdict?.property === property ? trace.verdict : seen }, flaky: { reproduced, reruns: FLAKY_RERUNS + 1 } };
}

/** Replays a store-level trace against the store from `source`: every violation the same choices give now, and the steps. */
export async function replayContractTrace(source: StoreSource, trace: Trace): Promise<{ violations: readonly Violation[]; steps: readonly TraceStep[] }> {
  const { shared, durable } = parseModuleTargetName(trace.target) ?? { shared: false, durable: false };
  const latest: { violations: readonly Violation[] } = { violations: [] };
  const target = storeLevelTarget(source, { shared, durable, onRunEnd: (report) => (latest.violations = report.violations) });
  const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), { record: true });
  return { violations: latest.violations, steps: result.trace ?? [] };
}
