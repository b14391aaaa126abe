// The contract phase: seeded random walks of operations against the store, each run judged against every contract
// property. Each distinct violation of a property (up to a bound) is shrunk to a minimal operation sequence and
// recorded as a trace; one that does not reproduce when re-run is reported as flaky, with how often it did.

import { RESUMECHECK_VERSION } from '../traces/trace.ts';
import type { StoreSource } from '../targets/module/module.target.ts';
import { CONTRACT_PROPERTY_NAMES, type ContractPropertyName } from './contract-properties.ts';
import { type ContractRunResult, contractKeyed, contractSequence, contractWalk, runContract } from './contract-run.ts';
import { type ContractConfig, type ContractViolation, DEFAULT_CONTRACT_CONFIG } from './contract-world.ts';
import { type KeyedChoice, shrinkSequence } from './shrink-sequence.ts';
import { CONTRACT_TRACE_FORMAT, CONTRACT_TRACE_FORMAT_VERSION, type ContractTrace } from './store-traces.ts';

/** What the contract phase is asked to do. */
export interface ContractCheckOptions {
  readonly shared: boolean;
  /** Runs at the most (the phase stops early once every property has used its shrink attempts). */
  readonly runs: number;
  readonly seed: string;
  /** Predicate evaluations one shrink may make. */
  readonly shrinkEvaluationsMax?: number;
  /** Settings besides seed and shared; defaults from {@link DEFAULT_CONTRACT_CONFIG}. */
  readonly config?: Partial<Omit<ContractConfig, 'seed' | 'shared'>>;
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
  readonly shrinks: ReadonlyArray<readonly [ContractPropertyName, number]>;
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
  readonly trace: ContractTrace;
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

/** Shrink evaluations unless told otherwise: contract runs take milliseconds. */
export const CONTRACT_SHRINK_EVALUATIONS_MAX = 400;
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

/** The seed of contract run `run` of a check seeded with `seed`. */
export function contractRunSeed(seed: string, run: number): string {
  return `${seed}.c${run}`;
}

/** The contract config of a check: defaults, then the caller's settings. */
export function contractConfigOf(options: Pick<ContractCheckOptions, 'shared' | 'config'>, seed: string): ContractConfig {
  return { ...DEFAULT_CONTRACT_CONFIG, ...options.config, seed, shared: options.shared };
}

/**
 * Re-runs a choice sequence with recording on and packs it as a trace of `property`'s violation. When the recorded
 * run no longer shows it (a flaky store), the trace keeps the verdict first seen, and `reproduced` is false.
 */
export async function recordContractTrace(
  source: StoreSource,
  config: ContractConfig,
  choices: readonly number[],
  property: ContractPropertyName,
  shrink: { originalLength: number; evaluations: number } | null,
  seen: ContractViolation | null = null,
): Promise<{ trace: ContractTrace; reproduced: boolean; timeoutsWaited: number }> {
  const recorded = await runContract(source, config, contractSequence(choices), { record: true });
  return { ...contractTraceOf(source, config, recorded, property, shrink, seen), timeoutsWaited: recorded.timeoutsWaited };
}

/** Packs a recorded run as a trace of `property`'s violation (see {@link recordContractTrace}). */
function contractTraceOf(
  source: StoreSource,
  config: ContractConfig,
  recorded: ContractRunResult,
  property: ContractPropertyName,
  shrink: { originalLength: number; evaluations: number } | null,
  seen: ContractViolation | null,
): { trace: ContractTrace; reproduced: boolean } {
  const verdict = recorded.violations.find((violation) => violation.property === property) ?? seen;
  if (verdict === null) throw new Error(`assertion: no verdict of ${property} to record`);
  const trace: ContractTrace = {
    format: CONTRACT_TRACE_FORMAT,
    formatVersion: CONTRACT_TRACE_FORMAT_VERSION,
    resumecheckVersion: RESUMECHECK_VERSION,
    store: source.ref,
    config,
    choices: recorded.choices,
    steps: recorded.steps ?? [],
    verdict,
    shrink: shrink === null ? null : { originalLength: shrink.originalLength, shrunkLength: recorded.choices.length, evaluations: shrink.evaluations },
  };
  return { trace, reproduced: recorded.violations.some((violation) => violation.property === property) };
}

/** The shape of a violation for telling distinct ones apart: its property and the kinds of its operations. */
function shapeOf(property: ContractPropertyName, steps: readonly KeyedChoice[]): string {
  return `${property}|${steps.map((step) => (step.key ?? '').split(':')[0]).join(',')}`;
}

/** The explanation with the run's particulars (IDs, labels, numbers) taken out: a cheap guess at "the same defect". */
function gistOf(violation: ContractViolation): string {
  return `${violation.property}|${violation.explanation.replace(/"(?:[^"\\]|\\.)*"/g, 'S').replace(/\b[A-Z]\d*\.(?:post\d+|standalone)(?:#\d+)?/g, 'L').replace(/\b(?:session|replay) #?[A-Z0-9]+\b/g, 'N').replace(/\d+/g, 'n')}`;
}

/** Runs the contract phase. */
export async function checkContract(source: StoreSource, options: ContractCheckOptions): Promise<ContractCheckOutcome> {
  const earlier = options.progress ?? null;
  const order: ContractFinding[] = [...(earlier?.findings ?? [])];
  const found = new Map<ContractPropertyName, ContractFinding[]>();
  for (const finding of order) {
    const property = finding.trace.verdict.property;
    found.set(property, [...(found.get(property) ?? []), finding]);
  }
  const shrinks = new Map<ContractPropertyName, number>(earlier?.shrinks ?? []);
  const shapes = new Set<string>(earlier?.shapes ?? []);
  const gists = new Set<string>(earlier?.gists ?? []);
  const teardown: string[] = [...(earlier?.teardown ?? [])];
  const distinctMax = options.distinctMax ?? DISTINCT_VIOLATIONS_MAX;
  // Shrinks per property at the most (a violation whose shrunk shape was seen already used one up).
  const shrinksMax = 2 * distinctMax;
  let runs = earlier?.runs ?? 0;
  const first = runs + 1;
  const last = Math.min(options.runs, first - 1 + (options.runsNow ?? options.runs));
  const exhausted = (): boolean => CONTRACT_PROPERTY_NAMES.every((property) => (shrinks.get(property) ?? 0) >= shrinksMax || (found.get(property)?.length ?? 0) >= distinctMax);
  let timeoutsWaited = earlier?.timeoutsWaited ?? 0;
  let hungRun = earlier?.hungRun ?? null;
  const rerun = async (config: ContractConfig, steps: readonly KeyedChoice[], record = false): Promise<ContractRunResult> => {
    const result = await runContract(source, config, contractKeyed(steps), { record });
    timeoutsWaited += result.timeoutsWaited;
    return result;
  };
  for (let run = first; earlier?.done !== true && hungRun === null && run <= last && !exhausted() && options.stopped?.() !== true && (run === first || options.pause?.() !== true); run += 1) {
    runs = run;
    const config = contractConfigOf(options, contractRunSeed(options.seed, run));
    const result = await runContract(source, config, contractWalk(config.seed, config.stepsMax));
    timeoutsWaited += result.timeoutsWaited;
    for (const problem of result.teardown) if (teardown.length < TEARDOWN_PROBLEMS_MAX) teardown.push(`run ${run} (seed ${config.seed}): ${problem}`);
    for (const property of CONTRACT_PROPERTY_NAMES) {
      const violation = result.violations.find((candidate) => candidate.property === property);
      if (violation === undefined) continue;
      const list = found.get(property) ?? [];
      if (list.length >= distinctMax || (shrinks.get(property) ?? 0) >= shrinksMax) continue;
      const gist = gistOf(violation);
      if (gists.has(gist)) continue;
      gists.add(gist);
      shrinks.set(property, (shrinks.get(property) ?? 0) + 1);
      // A call that outlasted the whole call timeout is as settled a verdict as the checker can afford: the run that
      // found it is not re-run, nor is a candidate that hung confirmed by a second run, and the last candidate that
      // hung is recorded as it runs (each re-run would cost another timeout).
      const hang = property === 'calls-settle' && result.timeoutsWaited > 0;
      const timeoutsBefore = timeoutsWaited;
      let lastRecorded: ContractRunResult | null = null;
      const fails = async (candidate: readonly KeyedChoice[]): Promise<readonly KeyedChoice[] | null> => {
        const first = await rerun(config, candidate, hang);
        if (!first.violations.some((item) => item.property === property)) return null;
        if (hang && first.timeoutsWaited > 0) {
          lastRecorded = first;
          return first.taken;
        }
        // A candidate counts as failing only if it fails again on a second run: a flaky store cannot steer the shrink.
        const second = await rerun(config, candidate);
        return second.violations.some((item) => item.property === property) ? first.taken : null;
      };
      const shrink = await shrinkSequence(result.taken, fails, options.shrinkEvaluationsMax ?? CONTRACT_SHRINK_EVALUATIONS_MAX, {
        initialFails: hang,
        // Candidates of a store whose calls hang each cost a timeout: the shrink's real time is bounded by their number.
        spent: () => timeoutsWaited - timeoutsBefore >= SHRINK_TIMEOUTS_MAX,
      });
      let finding: ContractFinding;
      if (shrink === null) {
        let reproduced = 0;
        for (let attempt = 0; attempt < FLAKY_RERUNS; attempt += 1) {
          if ((await rerun(config, result.taken)).violations.some((item) => item.property === property)) reproduced += 1;
        }
        const recorded = await recordContractTrace(source, config, result.choices, property, null, violation);
        timeoutsWaited += recorded.timeoutsWaited;
        finding = { run, trace: recorded.trace, flaky: { reproduced, reruns: FLAKY_RERUNS + 1 }, shrinkCut: null };
      } else {
        const shape = shapeOf(property, shrink.steps);
        if (shapes.has(shape)) continue;
        shapes.add(shape);
        const known: ContractRunResult | null = lastRecorded;
        let recorded: { trace: ContractTrace; reproduced: boolean };
        if (known !== null && (known as ContractRunResult).taken === shrink.steps) {
          recorded = contractTraceOf(source, config, known, property, shrink, violation);
        } else {
          const made = await recordContractTrace(source, config, shrink.steps.map((step) => step.choice), property, shrink, violation);
          timeoutsWaited += made.timeoutsWaited;
          recorded = made;
        }
        // Shrunk, two findings that read alike (IDs and labels aside) are one defect.
        const shrunkGist = gistOf(recorded.trace.verdict);
        if (gist !== shrunkGist && gists.has(shrunkGist)) continue;
        gists.add(shrunkGist);
        const shrinkCut = shrink.cut ? `shrinking stopped after ${SHRINK_TIMEOUTS_MAX} call timeouts` : null;
        finding = { run, trace: recorded.trace, flaky: recorded.reproduced ? null : { reproduced: 0, reruns: 1 }, shrinkCut };
      }
      list.push(finding);
      found.set(property, list);
      order.push(finding);
      await options.onFinding?.(finding);
    }
    // Every later run could wait a timeout again, and the verdict is known: the phase ends with this run.
    if (result.timeoutsWaited > 0 && (found.get('calls-settle')?.length ?? 0) > 0) hungRun = run;
  }
  const done = earlier?.done === true || hungRun !== null || runs >= options.runs || exhausted() || options.stopped?.() === true;
  const progress: ContractProgress = { runs, done, findings: order, shrinks: [...shrinks], shapes: [...shapes], gists: [...gists], teardown, timeoutsWaited, hungRun };
  return { runs, findings: CONTRACT_PROPERTY_NAMES.flatMap((property) => found.get(property) ?? []), teardown, progress, timeoutsWaited, hungRun };
}

/** Replays a contract trace against the store from `source`: the violations the same choices give now. */
export async function replayContractTrace(source: StoreSource, trace: ContractTrace): Promise<{ violations: ContractTrace['verdict'][]; steps: ContractTrace['steps'] }> {
  const result = await runContract(source, trace.config, contractSequence(trace.choices), { record: true });
  return { violations: [...result.violations], steps: result.steps ?? [] };
}
