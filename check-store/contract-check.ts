// The contract phase: the store level (sim/levels/store-level.ts) fuzzed by the engine's fuzz (sim/search/fuzz.ts), in
// this thread: each run a seeded walk with the level's swarm weights, judged against every store property; up to a bound
// of distinct violations a property (by signature, sim/signature.ts), each shrunk by the engine's shrinker (a candidate
// counts as failing only when a second run fails too: the store level's runs may differ for the same choices) and
// recorded as a trace of the one format. One that does not reproduce when re-run is reported flaky, with how often.
// A run in which a store call never settled is the search's last: every later run could wait out the timeout too.

import { JUDGED_STORE_PROPERTIES } from '../properties/stores/index.ts';
import type { StorePropertyName } from '../properties/names.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { type TraceStep, runSimulation } from '../sim/engine.ts';
import { type Finding, type FuzzCheckpoint, inThreadExecutor } from '../sim/search/fuzz.ts';
import { type PhaseControl, fuzzPhase } from './phase.ts';
import { type StoreLevelSizes, type StoreRunReport, storeLevelConfig } from '../sim/levels/store-level.ts';
import { type ShrinkBounds, SHRINK_TIMEOUTS_MAX } from '../sim/shrink/shrink.ts';
import type { Violation } from '../sim/world.ts';
import { type StoreSource, parseModuleTargetName } from '../targets/module/module.target.ts';
import { storeLevelTarget } from '../targets/module/store-level.target.ts';
import type { Target } from '../targets/target.ts';
import type { Trace } from '../traces/trace.ts';

/** A store-level trace of a violation. */
export type StoreTrace = Trace & { readonly verdict: Violation };

/** What the contract phase is asked to do. */
export interface ContractCheckOptions extends PhaseControl {
  readonly shared: boolean;
  /** Runs at the most (the phase stops early once every property has its bound of distinct violations). */
  readonly runs: number;
  readonly seed: string;
  /** Sizes and the call timeout (defaults: the store level's), and `durable`. */
  readonly config?: StoreLevelSizes & { readonly durable?: boolean };
  /** Called with each finding as soon as it is recorded (the CLI writes its trace then). */
  readonly onFinding?: (finding: ContractFinding) => void | Promise<void>;
  /** Distinct violations kept per property; default {@link DISTINCT_VIOLATIONS_MAX}. */
  readonly distinctMax?: number;
  /** What an earlier part of the same check did (in another worker thread): go on from there; default none. */
  readonly progress?: ContractProgress | null;
}

/**
 * What the contract phase has done so far: all it keeps, so that another thread can go on from it and reach the same
 * findings (a run is a function of the seed and its number). Structured-cloneable.
 */
export interface ContractProgress {
  /** The runs made so far. */
  readonly runs: number;
  /** True when the phase has ended (every run made, every property's bound reached, a call that hung, or stopped). */
  readonly done: boolean;
  /** The findings recorded, in property order, then in the order shrunk. */
  readonly findings: readonly ContractFinding[];
  /** Where the fuzz paused (null: not begun, or over). */
  readonly fuzz: FuzzCheckpoint | null;
  /** Teardown problems (an onRunEnd hook or close() that threw or hung), the first few, one line each. */
  readonly teardown: readonly string[];
  /** Waits for the store that ran out the call timeout (each costs the call timeout of real time), in runs and shrinks alike. */
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

/**
 * Bounds of one shrink (each candidate one or two runs of the store, milliseconds each): with steps deleted by meaning
 * in runs early (the shrinker does, after 5 of fast-check's candidates), a few dozen candidates reach what a few
 * hundred would.
 */
export const CONTRACT_SHRINK_BOUNDS: ShrinkBounds = { fastCheckEvaluationsMax: 20, passEvaluationsMax: 20 };
/** Distinct violations reported per property at the most. */
export const DISTINCT_VIOLATIONS_MAX = 3;
/** Re-runs of a finding that did not reproduce, to say how flaky it is. */
const FLAKY_RERUNS = 5;
/** Teardown problems kept. */
const TEARDOWN_PROBLEMS_MAX = 5;
/** The properties the contract phase judges, in report order. */
const JUDGED: readonly StorePropertyName[] = JUDGED_STORE_PROPERTIES.map((property) => property.name);

/** Runs the contract phase (or the next part of it, from `options.progress`): what it has done so far. */
export async function checkContract(source: StoreSource, options: ContractCheckOptions): Promise<ContractProgress> {
  const earlier = options.progress ?? null;
  const findings: ContractFinding[] = [...(earlier?.findings ?? [])];
  const teardown: string[] = [...(earlier?.teardown ?? [])];
  let timeoutsWaited = earlier?.timeoutsWaited ?? 0;
  let hungRun = earlier?.hungRun ?? null;
  const ended = (runs: number, fuzz: FuzzCheckpoint | null): ContractProgress => ({ runs, done: fuzz === null, findings: inPropertyOrder(findings), fuzz, teardown, timeoutsWaited, hungRun });
  if (earlier?.done === true) return earlier;
  // What the latest run of the store came to; a search run in which a call never settled ends the search.
  let latest: StoreRunReport | null = null;
  const { durable = false, ...sizes } = options.config ?? {};
  const target = storeLevelTarget(source, {
    shared: options.shared,
    durable,
    onRunEnd(report) {
      latest = report;
      timeoutsWaited += report.timeoutsWaited;
      for (const problem of report.teardown) if (teardown.length < TEARDOWN_PROBLEMS_MAX) teardown.push(`a run of seed ${report.seed}: ${problem}`);
    },
  });
  const outcome = await fuzzPhase(
    options,
    earlier?.fuzz ?? null,
    {
      target,
      // Run N's seed is `SEED.c.N` (the fuzz's runSeed of this base).
      config: storeLevelConfig(`${options.seed}.c`, sizes),
      runsMax: options.runs,
      properties: JUDGED,
      perProperty: options.distinctMax ?? DISTINCT_VIOLATIONS_MAX,
      shrinkBounds: CONTRACT_SHRINK_BOUNDS,
      onFinding: async (finding) => {
        const found = await contractFinding(target, finding);
        findings.push(found);
        await options.onFinding?.(found);
      },
    },
    (run) => {
      const hung = latest !== null && latest.timeoutsWaited > 0 && latest.violations.some((violation) => violation.property === 'calls-settle');
      if (hung) hungRun = run;
      return hung;
    },
    inThreadExecutor(target),
  );
  return ended(outcome.runs, outcome.interrupted ? null : outcome.checkpoint);
}

/** Findings in property order, then in the order found. */
function inPropertyOrder(findings: readonly ContractFinding[]): ContractFinding[] {
  return JUDGED.flatMap((property) => findings.filter((finding) => finding.trace.verdict.property === property));
}

/**
 * The fuzz's finding as the contract phase reports it: a flaky one (its run did not fail again) with how often
 * re-running its choices showed it; a shrink cut short by the call timeouts its candidates waited, said so.
 */
async function contractFinding(target: Target, finding: Finding): Promise<ContractFinding> {
  const trace = finding.trace as StoreTrace;
  const shrinkCut = finding.shrunk && finding.shrink.cutShort === true ? `shrinking stopped after ${SHRINK_TIMEOUTS_MAX} call timeouts` : null;
  if (finding.flaky !== true) return { run: finding.run, trace, flaky: null, shrinkCut };
  const property = trace.verdict.property;
  let reproduced = 0;
  for (let attempt = 0; attempt < FLAKY_RERUNS; attempt += 1) {
    if ((await runSimulation(target, trace.config, sequenceChoices(trace.choices), { properties: [property] })).violation?.property === property) reproduced += 1;
  }
  return { run: finding.run, trace, flaky: { reproduced, reruns: FLAKY_RERUNS + 1 }, shrinkCut };
}

/** Replays a store-level trace against the store from `source`: every violation the same choices give now, and the steps. */
export async function replayContractTrace(source: StoreSource, trace: Trace): Promise<{ violations: readonly Violation[]; steps: readonly TraceStep[] }> {
  const { shared, durable } = parseModuleTargetName(trace.target) ?? { shared: false, durable: false };
  const latest: { violations: readonly Violation[] } = { violations: [] };
  const target = storeLevelTarget(source, { shared, durable, onRunEnd: (report) => (latest.violations = report.violations) });
  const result = await runSimulation(target, trace.config, sequenceChoices(trace.choices), { record: true });
  return { violations: latest.violations, steps: result.trace ?? [] };
}
