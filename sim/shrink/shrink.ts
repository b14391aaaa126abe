// Shrinking a counterexample: a few of fast-check's candidates over the choice sequence (its boldest: chunks removed),
// then a pass that deletes steps by what they do (halves, quarters, down to single steps, the later steps keeping
// their meaning), then a bounded pass that removes single steps and puts another action in a step's place (of those
// listed before it, the ones on the same first operand and the first of each kind) until nothing more goes, and the
// pass by meaning again.
// The property violated must stay the same, and so must the signature when one is given (sim/signature.ts: how it
// happened), so the minimal trace shows the bug that was found. A finding a client's
// own fault triggered (a request ID reused in flight) is first tried without that step: a counterexample the server
// is charged with replaces it; one the server is charged with never shrinks into one the client triggered.

import fc from 'fast-check';
import type { PropertyName } from '../../properties/names.ts';
import type { Target } from '../../targets/target.ts';
import type { SimConfig } from '../config.ts';
import { type ChoiceSource, type RunResult, runSimulation } from '../engine.ts';
import { sequenceChoices } from '../choices.ts';
import { describedChoices } from './script.ts';
import { createActionList } from '../actions.ts';
import { macrotaskTurn, sharedWallMs } from '../clock.ts';
import type { Violation } from '../world.ts';
import { levelOf } from '../levels/level.ts';
import { faultActionsWithout } from '../levels/vocabulary.ts';
import type { TraceStep } from '../levels/records.ts';

/** The outcome of shrinking. */
export interface ShrinkResult {
  readonly choices: readonly number[];
  readonly originalLength: number;
  /** Runs made while shrinking (a candidate tried before is not run again: in process its run would be the same). */
  readonly evaluations: number;
  /**
   * With {@link ShrinkOptions.record}: the recorded run whose choices these are, the one that violated the property
   * (a real-time target may not violate it again when the choices are re-run).
   */
  readonly recorded?: RunResult;
  /** True when a deadline or a stop ended the shrink before its bounds did: shorter sequences may exist. */
  readonly cutShort?: boolean;
}

/**
 * The choices did not violate the property when shrinking re-ran them. For a deterministic target that is a harness
 * bug; for a target over the wire it is network timing, and the finding is *flaky* (sim/search/fuzz.ts says so).
 */
export class NotReproducedError extends Error {
  override readonly name = 'NotReproducedError';
}

/** Bounds of one shrink. */
export interface ShrinkBounds {
  /** Runs fast-check may make (at the most {@link FAST_CHECK_FIRST}). */
  readonly fastCheckEvaluationsMax: number;
  /** Runs the final pass may make. */
  readonly passEvaluationsMax: number;
}

export const DEFAULT_SHRINK_BOUNDS: ShrinkBounds = { fastCheckEvaluationsMax: 4000, passEvaluationsMax: 4000 };

/** What a shrink checks, and what may end it early with the shortest sequence found so far. */
export interface ShrinkOptions {
  readonly properties?: readonly PropertyName[];
  /** A wall-clock deadline (`sharedWallMs`), or null: past it, every candidate counts as passing. */
  readonly deadlineMs?: number | null;
  /** True once the shrink must end now (a signal). */
  readonly stopped?: () => boolean;
  /** Record every run, and return the one of the shrunk choices (for a real-time target: sim/search/fuzz.ts). */
  readonly record?: boolean;
  /**
   * How each candidate is run: the engine's runSimulation unless the caller wraps it, to say what else a candidate
   * must show to count as still failing (check-store: a second run that fails too, sdk-core holding on the same
   * actions); a wrapped run that does not still fail returns no violation.
   */
  readonly run?: Simulate;
  /**
   * The signature the counterexample keeps (sim/signature.ts), when given: a run violating the property by another
   * mechanism is another finding, so it does not count (shrinking never relabels one finding as another).
   */
  readonly signature?: string;
  /**
   * A shorter sequence to start from instead, when it violates the property too (with the signature), charged as the
   * choices given are (to the server, or either way where theirs was triggered by a client's fault: keeps()): the
   * shrunk counterexample of another property violated in the same run, which is often one of this property as well
   * (sim/search/fuzz.ts). Tried with one run; otherwise the shrink starts from the choices given. Not on a real-time
   * target, whose runs of it could decide either way.
   */
  readonly from?: readonly number[];
}

/** What a shrink keeps: the property, and the signature when one is given. */
interface Goal {
  readonly property: PropertyName;
  readonly signature: string | undefined;
}

/** True when a run's violation is the finding being shrunk (whoever it is charged to). */
function isGoal(violation: Violation | null | undefined, goal: Goal): violation is Violation {
  return violation !== null && violation !== undefined && violation.property === goal.property && (goal.signature === undefined || violation.signature === goal.signature);
}

/** What runs a candidate: runSimulation, or a caller's wrapping of it. */
export type Simulate = typeof runSimulation;

/**
 * `simulate` for a target whose runs may differ for the same choices (Target.flakyRuns): a run's violation counts only
 * when a second run of the choices it consumed violates alike (the same property and signature); otherwise the run is
 * returned with no violation. A failure that does not repeat cannot steer a shrink, nor start one.
 */
export function confirmedRun(simulate: Simulate = runSimulation): Simulate {
  return async (target, config, choices, options) => {
    const waitsBefore = target.timeoutsWaited?.() ?? 0;
    const tried = await simulate(target, config, choices, options);
    if (tried.violation === null) return tried;
    // A run that waited out a call timeout is as settled a verdict as real time affords: another would wait again.
    if ((target.timeoutsWaited?.() ?? 0) > waitsBefore) return tried;
    const { record: _record, ...again } = options ?? {};
    const second = await simulate(target, config, sequenceChoices(tried.choices), again);
    const alike = second.violation !== null && second.violation.property === tried.violation.property && second.violation.signature === tried.violation.signature;
    return alike ? tried : { ...tried, violation: null };
  };
}

/**
 * Waits that ran out a call timeout one shrink may cost (Target.timeoutsWaited): a candidate whose call hangs costs a
 * whole timeout, so a store whose calls never settle would otherwise take minutes to shrink. With a run ending at its
 * first timeout, this bounds the shrink of such a store to about this many timeouts.
 */
export const SHRINK_TIMEOUTS_MAX = 5;

/** How often a long shrink lets the event loop run (signals, messages, a contained worker's heartbeat): in evaluations, and in wall time. */
const YIELD_EVERY_EVALUATIONS = 64;
const YIELD_EVERY_MS = 50;

/** A turn of the event loop every {@link YIELD_EVERY_EVALUATIONS} calls, or sooner once {@link YIELD_EVERY_MS} went by. */
function turnTaker(): () => Promise<void> {
  let calls = 0;
  let yieldedMs = sharedWallMs();
  return async () => {
    calls += 1;
    if (calls % YIELD_EVERY_EVALUATIONS !== 0 && sharedWallMs() - yieldedMs < YIELD_EVERY_MS) return;
    await macrotaskTurn();
    yieldedMs = sharedWallMs();
  };
}

/**
 * fast-check's candidates from the sequence as found, before the pass by meaning shortens it: at the most this many.
 * Its first are its boldest (a prefix dropped, which gives every later choice another meaning), and where its walk
 * lands decides minima no later pass reaches: at 40, the main job's 30 findings shrink to the same lengths in 2.9 K
 * runs against 3.3 K, but 9 of the default matrix's cells end longer (4 shorter).
 */
const FAST_CHECK_FIRST = 100;

/** Largest choice value fast-check may try; choices are reduced modulo the enabled actions anyway. */
const CHOICE_MAX = 4095;

/** Shrinks `choices`, which make `target` violate `property` under `config`, to a minimal sequence that still does. */
export async function shrinkChoices(
  target: Target,
  config: SimConfig,
  choices: readonly number[],
  property: PropertyName,
  bounds: ShrinkBounds = DEFAULT_SHRINK_BOUNDS,
  shrinkOptions: ShrinkOptions = {},
): Promise<ShrinkResult> {
  let evaluations = 0;
  const takeTurn = turnTaker();
  // A target whose runs may differ for the same choices: a candidate fails only when it fails twice alike.
  const simulate = shrinkOptions.run ?? (target.flakyRuns === true ? confirmedRun() : runSimulation);
  const goal: Goal = { property, signature: shrinkOptions.signature };
  const actions = createActionList();
  const options = {
    ...(shrinkOptions.properties === undefined ? {} : { properties: shrinkOptions.properties }),
    ...(shrinkOptions.record === true ? { record: true } : {}),
  };
  /** With `record`: the latest violating run of each choice sequence kept, by its choices (bounded by the evaluations). */
  const violating = new Map<string, RunResult>();
  const keep = (result: RunResult): void => {
    if (shrinkOptions.record === true && isGoal(result.violation, goal)) violating.set(result.choices.join(','), result);
  };
  const deadlineMs = shrinkOptions.deadlineMs ?? null;
  let ended = false;
  // Ending early keeps the shortest violating sequence found so far: every one kept was checked.
  const over = (): boolean => {
    if (!ended) ended = (deadlineMs !== null && sharedWallMs() >= deadlineMs) || shrinkOptions.stopped?.() === true;
    return ended;
  };
  // Whether a triggered finding is still acceptable: true while no counterexample the server is charged with is known.
  const charge = { triggeredAccepted: true };
  let switched: readonly number[] | null = null;
  // A run in process is a function of its choices: a candidate tried before (fast-check and the passes below propose
  // many a sequence twice) is answered from what its run did, and judged again, as `charge` may have moved since.
  // A real-time target's runs are not: each candidate runs. A caller's own run (check-store's "fails twice, and not
  // on sdk-core") is cached too: its verdict on a candidate was made by as many runs as it takes, and whatever it
  // keeps of a run is kept by the choices the run consumed, so asking it again could only repeat or contradict it. A
  // store doing I/O is thereby judged once a candidate, as a candidate met once always was.
  const tried = target.realTime === true ? null : new Map<string, { readonly violation: Violation | null; readonly choices: readonly number[] }>();
  // The consumed prefix of a failing run is what matters: a run stops at its first violation.
  const violates = async (sequence: readonly number[], fresh = false): Promise<readonly number[] | null> => {
    const key = tried === null ? '' : sequence.join(',');
    let result: { readonly violation: Violation | null; readonly choices: readonly number[] } | undefined = fresh ? undefined : tried?.get(key);
    if (result === undefined) {
      evaluations += 1;
      // A synchronous target never yields by itself; a signal's handler runs only when something does.
      await takeTurn();
      const run = await simulate(target, config, sequenceChoices(sequence), { ...options, actions });
      keep(run);
      result = { violation: run.violation, choices: run.choices };
      tried?.set(key, result);
    }
    const verdict = keeps(result.violation, goal, charge);
    if (verdict === 'charged-now') switched = result.choices;
    return verdict === null ? null : result.choices;
  };
  /**
   * The actions each step of a run of `sequence` offered (their kinds and first operands): one run, made as candidates
   * are (a caller's `run` may make more of the same choices, which it takes from that run's; the list is of its first).
   */
  const listedActions = async (sequence: readonly number[]): Promise<readonly ListedStep[]> => {
    evaluations += 1;
    await takeTurn();
    const listed: ListedStep[] = [];
    const replay = sequenceChoices(sequence);
    const listing: ChoiceSource = {
      choose(world, list) {
        const choice = replay.choose(world, list);
        if (choice !== null) listed.push({ kind: list.kind.slice(0, list.count), a: list.a.slice(0, list.count) });
        return choice;
      },
    };
    await simulate(target, config, listing, { ...options, actions });
    return listed;
  };
  const waitsBefore = target.timeoutsWaited?.() ?? 0;
  const found = await violates(choices);
  // A counterexample whose run waited out a call timeout (a call that never settled) costs a timeout a candidate that
  // keeps it: steps that do not matter go by meaning first (halves, then quarters: few candidates), before fast-check's
  // boldest candidates, most of which would keep the hang and cost a timeout each for little.
  const hung = (target.timeoutsWaited?.() ?? 0) > waitsBefore;
  if (found === null) throw new NotReproducedError(`shrink: the choices given do not violate ${property} when re-run`);
  let best: readonly number[] = found;
  // The start given with `from`, when its run violates the property as the choices given do (charged to the server if
  // they are; keeps() says so, now that their run has set the charge): one run more, and far fewer after it.
  const from = shrinkOptions.from;
  if (from !== undefined && tried !== null && from.length < best.length) best = (await violates(from)) ?? best;
  // The original run decides where the search starts: charged to the server (keeps() said so), it stays so; triggered
  // by a client's fault, the counterexample without that step is tried first.
  switched = null;
  if (charge.triggeredAccepted) {
    const untriggered = await withoutClientFaults(target, config, best, goal, options, charge, () => (evaluations += 1), simulate);
    if (untriggered !== null) best = untriggered;
  }
  /**
   * fast-check's shrinker from `start`, for `cap` candidates at the most; its first candidate is `start` itself, run
   * again for real: a finding that does not reproduce (over the wire, or a target whose runs are not a function of
   * their choices) is told apart there, never answered from the cache.
   */
  const fastCheck = async (start: readonly number[], cap: number): Promise<readonly number[]> => {
    let shortest = start;
    let ran = 0;
    const checked = await fc.check(
      fc.asyncProperty(fc.array(fc.nat({ max: CHOICE_MAX }), { maxLength: start.length }), async (sequence) => {
        // Past the bound every candidate "passes", which ends the shrink where it stands.
        if (ran >= cap || over()) return true;
        ran += 1;
        const consumed = await violates(sequence, ran === 1);
        // The first counterexample the server is charged with replaces a triggered one, whatever its length.
        if (switched !== null) {
          shortest = switched;
          switched = null;
        } else if (consumed !== null && consumed.length <= shortest.length) shortest = consumed;
        return consumed === null;
      }),
      { examples: [[[...start]]], numRuns: 1, seed: 0 },
    );
    // On a real-time target the start may not violate again when fast-check re-runs it: the shrink goes on from it.
    // In process it must: not again is a finding that only timing or randomness of the target's own decided. (A shrink
    // that was over before fast-check's first run ran nothing.)
    if (!checked.failed && ran > 0 && target.realTime !== true) throw new NotReproducedError(`shrink: the choices given violated ${property} once, and not when fast-check re-ran them`);
    return shortest;
  };
  // fast-check's first candidates from the sequence as found are its boldest: whole parts of it dropped by index,
  // which gives the later choices other meanings, a jump to another (often much shorter) counterexample that deleting
  // steps by meaning cannot make. Then runs of steps that do not matter go, by meaning (halves, quarters, down to single
  // steps), and what is left is short: the pass below tries each step without it and with another action in its place.
  const meaning = {
    count: () => (evaluations += 1),
    over,
    charge,
    keep,
    simulate,
    recordedOf: (sequence: readonly number[]) => violating.get(sequence.join(',')),
    fixpoints: tried === null ? null : new Set<string>(),
  };
  if (hung && !over()) best = await deleteByMeaning(target, config, best, goal, options, bounds.passEvaluationsMax, meaning);
  if (!over()) best = await fastCheck(best, Math.min(FAST_CHECK_FIRST, bounds.fastCheckEvaluationsMax));
  if (!over()) best = await deleteByMeaning(target, config, best, goal, options, bounds.passEvaluationsMax, meaning);
  let current: readonly number[] = best;
  let passRuns = 0;
  let improved = true;
  const passing = (): boolean => passRuns < bounds.passEvaluationsMax && !over();
  while (improved && passing()) {
    improved = false;
    for (let index = current.length - 1; index >= 0 && passing(); index -= 1) {
      passRuns += 1;
      const without = [...current.slice(0, index), ...current.slice(index + 1)];
      const consumed = await violates(without);
      if (consumed !== null) {
        current = consumed;
        switched = null;
        improved = true;
      }
    }
    // Another action in a step's place, of those listed before it: the ones on the same first operand (the same
    // client's, the same connection's: a plain call of the tool a proxied call made), and the first of each kind,
    // lowest first. The rest (the other client's, another connection's) seldom make a shorter counterexample possible,
    // and a step offers many actions of a few kinds (on sdk2-shared five steps into a run, 48 of 16 kinds). What each
    // step offered is listed by a run of the choices. Only the first of each other kind: 3.2 K runs on the main job
    // against 3.3 K, the same lengths, but the mixed matrix's reissued-call-runs-again notes a step longer.
    let listed = await listedActions(current);
    for (let index = 0; index < current.length && passing(); index += 1) {
      for (const lower of replacements(listed[index], current[index]!)) {
        if (!passing()) break;
        passRuns += 1;
        const candidate = [...current];
        candidate[index] = lower;
        const consumed = await violates(candidate);
        const charged = switched !== null;
        switched = null;
        if (consumed !== null && (charged || consumed.length <= current.length)) {
          current = consumed;
          improved = true;
          listed = await listedActions(current);
          break;
        }
      }
    }
  }
  if (!over()) current = await deleteByMeaning(target, config, current, goal, options, bounds.passEvaluationsMax, meaning);
  const recorded = violating.get(current.join(','));
  if (shrinkOptions.record === true && recorded === undefined) throw new Error('assertion: the shrunk choices were kept without a violating run of them');
  return { choices: current, originalLength: choices.length, evaluations, ...(recorded === undefined ? {} : { recorded }), ...(ended ? { cutShort: true } : {}) };
}

/**
 * Deleting a choice shifts what every later index means; this pass deletes aligned runs of steps (halves, quarters,
 * down to single steps, from the end) and keeps the later steps' actions as they were described, renumbered as a run
 * without the deleted steps numbers them, which reaches minima the index-based passes cannot.
 */
async function deleteByMeaning(
  target: Target,
  config: SimConfig,
  start: readonly number[],
  goal: Goal,
  options: { readonly properties?: readonly PropertyName[] },
  runsMax: number,
  budget: {
    readonly count: () => void;
    readonly over: () => boolean;
    readonly charge: Charge;
    readonly keep: (result: RunResult) => void;
    readonly simulate: Simulate;
    /** With ShrinkOptions.record, the violating run of these choices kept (no need to record it again). */
    readonly recordedOf: (choices: readonly number[]) => RunResult | undefined;
    /**
     * In process, the sequences (joined by commas) a whole round of this pass left as they were, or null. From one of
     * them the pass would run that round again, to the same answers: a run is a function of its choices. Whether a
     * triggered finding is still accepted does not change that: a round that shortened nothing while one was accepted
     * met no candidate charged to the server (it would have replaced the finding) and none triggered and shorter, so
     * once none is, every candidate of the round is still refused.
     */
    readonly fixpoints: Set<string> | null;
  },
): Promise<readonly number[]> {
  if (budget.fixpoints?.has(start.join(',')) === true) return start;
  let runs = 0;
  const takeTurn = turnTaker();
  const level = levelOf(target)?.name;
  const record = async (choices: readonly number[]): Promise<RunResult> => {
    const recorded = budget.recordedOf(choices) ?? (await budget.simulate(target, config, sequenceChoices(choices), { ...options, record: true }));
    budget.keep(recorded);
    return recorded;
  };
  let current = start;
  const first = await record(current);
  // The record of the start is a run of it made again (the first, when fast-check had no candidate before this pass): in
  // process it must violate again, else only timing or the target's own randomness decided the finding; over the wire
  // the shrink goes on.
  if (!isGoal(first.violation, goal) && target.realTime !== true) throw new NotReproducedError(`shrink: the choices given violated ${goal.property} once, and not when they were run again`);
  let steps: readonly TraceStep[] = first.trace ?? [];
  /** The fault-phase steps of `current` (a deletion's candidates are aligned runs of them). */
  let length = faultSteps(steps);
  let improved = true;
  while (improved && runs < runsMax && !budget.over()) {
    improved = false;
    for (let size = Math.max(1, Math.floor(length / 2)); size >= 1; size = size === 1 ? 0 : Math.max(1, Math.floor(size / 2))) {
      // Aligned runs from the end: later steps usually matter least.
      for (let index = length - size; index >= 0 && runs < runsMax && !budget.over(); index -= size) {
        runs += 1;
        budget.count();
        await takeTurn();
        // Recorded: a candidate that shortens the sequence is the next start, whose steps the next candidates delete.
        const result = await budget.simulate(
          target,
          config,
          describedChoices(faultActionsWithout(steps, level, index, size), [...current.slice(0, index), ...current.slice(index + size)]),
          { ...options, record: true },
        );
        budget.keep(result);
        const verdict = keeps(result.violation, goal, budget.charge);
        if (verdict === null || (verdict !== 'charged-now' && result.choices.length >= current.length)) continue;
        current = result.choices;
        steps = result.trace ?? [];
        length = faultSteps(steps);
        improved = true;
      }
    }
  }
  if (!improved && runs < runsMax && !budget.over()) budget.fixpoints?.add(current.join(','));
  return current;
}

/** How many of a recorded run's steps its choices made (the liveness phase's follow them). */
function faultSteps(steps: readonly TraceStep[]): number {
  return steps.filter((step) => step.phase === 'faults').length;
}

/** Whether a triggered finding may still stand for the property (until one the server is charged with is found). */
interface Charge {
  triggeredAccepted: boolean;
}

/**
 * Whether a run's violation keeps the finding being shrunk: the same property, and charged to the server once such
 * a counterexample is known (`charged-now` the first time one is met: it then replaces a triggered one).
 */
function keeps(violation: Violation | null, goal: Goal, charge: Charge): 'same' | 'charged-now' | null {
  if (!isGoal(violation, goal)) return null;
  if (violation.triggeredBy === undefined) {
    if (!charge.triggeredAccepted) return 'same';
    charge.triggeredAccepted = false;
    return 'charged-now';
  }
  return charge.triggeredAccepted ? 'same' : null;
}

/** Client-fault steps removed from a triggered counterexample at most, one after another. */
const CLIENT_FAULTS_REMOVED_MAX = 8;

/**
 * Looks for the counterexample without the client step that triggered it: removes that step (keeping the later
 * steps' meaning), and again while the run still violates the property triggered by another such step. Returns the
 * choices of a run that violates it charged to the server, or null when removing the step makes it hold.
 */
async function withoutClientFaults(
  target: Target,
  config: SimConfig,
  start: readonly number[],
  goal: Goal,
  options: { readonly properties?: readonly PropertyName[] },
  charge: Charge,
  count: () => void,
  simulate: Simulate,
): Promise<readonly number[] | null> {
  let current = start;
  for (let removed = 0; removed < CLIENT_FAULTS_REMOVED_MAX; removed += 1) {
    count();
    const recorded = await simulate(target, config, sequenceChoices(current), { ...options, record: true });
    const fault = isGoal(recorded.violation, goal) ? recorded.violation.triggeredBy : undefined;
    if (fault === undefined) return null;
    const index = fault.step;
    count();
    const result = await simulate(
      target,
      config,
      describedChoices(faultActionsWithout(recorded.trace, levelOf(target)?.name, index, 1), [...current.slice(0, index), ...current.slice(index + 1)]),
      options,
    );
    if (!isGoal(result.violation, goal)) return null;
    if (result.violation.triggeredBy === undefined) {
      charge.triggeredAccepted = false;
      return result.choices;
    }
    current = result.choices;
  }
  return null;
}

/** The actions one step offered, by their place in its list: kind and first operand. */
interface ListedStep {
  readonly kind: Int32Array;
  readonly a: Int32Array;
}

/**
 * The values below `value` whose action is on the same first operand as the step's own (the same client's, the same
 * connection's) or the first of its kind in the step's list, lowest first; every value below it when the step was not
 * listed (the run ended before it).
 */
function replacements(step: ListedStep | undefined, value: number): number[] {
  const values: number[] = [];
  if (step === undefined || value >= step.kind.length) {
    for (let lower = 0; lower < value; lower += 1) values.push(lower);
    return values;
  }
  const seen = new Set<number>();
  for (let lower = 0; lower < value; lower += 1) {
    const kind = step.kind[lower]!;
    const first = !seen.has(kind);
    seen.add(kind);
    if (first || step.a[lower] === step.a[value]) values.push(lower);
  }
  return values;
}
