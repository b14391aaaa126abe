// The simulator's engine: drives one run of a target from a choice source through the one loop every level runs
// in (the fault phase, the liveness phase, the final checks); the level (sim/levels/) models what may happen and
// adapts the system checked: the server level (sim/levels/server-level.ts) unless the target runs at its own.
// A run is a pure function of (target, config, choices).

import type { Target } from '../targets/target.ts';
import { type ActionList, enumerateActions } from './actions.ts';
import type { SimConfig } from './config.ts';
import type { Violation, World } from './world.ts';
import type { CoverageObserver } from './coverage.ts';
import type { PropertyName } from '../properties/names.ts';
import { levelOf, type LevelRun, type LevelRunOptions, type LevelWorld } from './levels/level.ts';
import type { TraceStep } from './levels/records.ts';
import { type ServerRun, openServerRun, serverLevel, stepSync } from './levels/server-level.ts';

/** The world a choice source is shown: the server level's, or another level's (which describes its own actions). */
export type ChoiceWorld = World | LevelWorld;

/** Where each step's choice comes from. `null` stops the fault phase. */
export interface ChoiceSource {
  /** Picks one of `list.count` enabled actions (an index), or null to stop. */
  choose(world: ChoiceWorld, list: ActionList): number | null;
}

/** One step of a recorded run: its action and observations as records (sim/levels/records.ts). */
export type { TraceStep } from './levels/records.ts';

/** The outcome of one run. */
export interface RunResult {
  readonly violation: Violation | null;
  /** The choices the fault phase used, each reduced to an index into that step's enabled actions. */
  readonly choices: readonly number[];
  /** Steps taken in the fault phase. */
  readonly steps: number;
  /** Steps the liveness phase took. */
  readonly healSteps: number;
  /** Present when the run was recorded. */
  readonly trace: readonly TraceStep[] | null;
  /**
   * With RunOptions.everyViolation, at the server and store levels: what the run made again would give, each time without the
   * property the one before violated, until one ends with none (sim/every-violation.ts). Absent otherwise.
   */
  readonly later?: readonly RunResult[];
}

/** Liveness-phase rounds at the most; each round lets every execution finish and every client resume once. */
const HEAL_ROUNDS_MAX = 6;

/** How a run is made, beyond what it is a function of. */
export interface RunOptions {
  /** Keep readable steps (slower). */
  readonly record?: boolean;
  /** Check only these properties; the others are not reported. Default: all. */
  readonly properties?: readonly PropertyName[];
  /** A list to reuse across runs, saving its allocation. */
  readonly actions?: ActionList;
  /** Counts the states, transitions and action kinds this run reaches (a fuzz's coverage, at the server level); off by default. */
  readonly coverage?: CoverageObserver;
  /** Called with the world once the run is over (the policy table reads what each call came to); not at other levels. */
  readonly inspect?: (world: World) => void;
  /** Go on past each violation and report every one, as {@link RunResult.later} (the server and store levels'). */
  readonly everyViolation?: boolean;
}

/** The level options of a run's options. */
function levelRunOptions(options: RunOptions): LevelRunOptions {
  return {
    record: options.record === true,
    properties: options.properties ?? null,
    actions: options.actions ?? null,
    coverage: options.coverage ?? null,
    ...(options.everyViolation === true ? { everyViolation: true } : {}),
  };
}

/** Runs one simulation of a synchronous or asynchronous target, at the server level or at the target's own level. */
export async function runSimulation(target: Target, config: SimConfig, source: ChoiceSource, options: RunOptions = {}): Promise<RunResult> {
  const level = levelOf(target);
  const run = await (level ?? serverLevel(target)).open(config, levelRunOptions(options));
  try {
    const result = await runLoop(run, source);
    // The server level's world only: another level's world is not a World.
    if (level === undefined) options.inspect?.((run as ServerRun).world);
    return result;
  } finally {
    await run.close();
  }
}

/** Where a run stands: which phase, and what it has done so far. */
interface Progress {
  phase: 'faults' | 'liveness' | 'done';
  readonly choices: number[];
  /** Fault-phase steps, fixed when that phase ends. */
  steps: number;
  healSteps: number;
  /** Whether the current liveness round did anything. */
  acted: boolean;
}

/**
 * The next step of a run, as an index into the action list (filled for it), or null when the run is over: first
 * the fault phase's steps, from the choice source, then the liveness phase's, round by round until a round does
 * nothing, then the final checks. Shared by the synchronous and asynchronous loops, which differ only in awaiting.
 */
function nextStep(context: LevelRun, source: ChoiceSource, progress: Progress): number | null {
  const { world, list } = context;
  const every = context.every ?? null;
  // Where a violation would end the run: each one filed since ends a simulation here; the run goes on while a
  // simulation without them would.
  if (every !== null && every.pending) {
    every.check(progress.choices, stepsTaken(context, progress), progress.healSteps, context.trace);
    if (every.done) return null;
  }
  if (world.violation !== null || progress.phase === 'done') return null;
  if (progress.phase === 'faults') {
    if (world.step < world.config.stepsMax) {
      context.enumerate();
      const choice = list.count === 0 ? null : source.choose(world, list);
      if (choice !== null) {
        progress.choices.push(choice);
        context.begin(choice, 'faults');
        return choice;
      }
    }
    enterLiveness(context, progress);
  }
  while (world.healRound <= HEAL_ROUNDS_MAX) {
    const choice = context.nextHeal();
    if (choice !== null) {
      progress.acted = true;
      progress.healSteps += 1;
      context.begin(choice, 'liveness');
      return choice;
    }
    if (!progress.acted) break;
    world.healRound += 1;
    progress.acted = false;
  }
  progress.phase = 'done';
  context.finish();
  return null;
}

/** Ends the fault phase: the liveness phase begins, at its first round. */
function enterLiveness(context: LevelRun, progress: Progress): void {
  progress.steps = context.world.step;
  progress.phase = 'liveness';
  context.startHeal();
  context.world.healRound = 1;
}

function newProgress(): Progress {
  return { phase: 'faults', choices: [], steps: 0, healSteps: 0, acted: false };
}

/** The fault-phase steps a run ending now reports. */
function stepsTaken(context: LevelRun, progress: Progress): number {
  return progress.phase === 'faults' ? context.world.step : progress.steps;
}

function result(context: LevelRun, progress: Progress): RunResult {
  return { violation: context.world.violation, choices: progress.choices, steps: stepsTaken(context, progress), healSteps: progress.healSteps, trace: context.trace };
}

/** The one run loop, for every level: a step that does not yield (a synchronous target's) is not awaited. */
async function runLoop(context: LevelRun, source: ChoiceSource): Promise<RunResult> {
  const { world, list } = context;
  const progress = newProgress();
  for (let choice = nextStep(context, source, progress); choice !== null; choice = nextStep(context, source, progress)) {
    // A level's step that does not yield returns nothing: not awaiting it keeps what it started running alongside
    // the next step's (the store level's overlapping calls).
    const pending = context.step(list.kind[choice]!, list.a[choice]!, list.b[choice]!);
    if (pending !== undefined) await pending;
    if (progress.phase === 'faults') world.step += 1;
  }
  const every = context.every ?? null;
  if (every === null) return result(context, progress);
  every.finish(progress.choices, stepsTaken(context, progress), progress.healSteps, context.trace);
  const { results } = every;
  return results.length === 1 ? results[0]! : { ...results[0]!, later: results.slice(1) };
}

/** A choice source that stops at once: ends the fault phase of a stepped run. */
const STOP_SOURCE: ChoiceSource = { choose: () => null };

/**
 * A synchronous run driven one step at a time by an exhaustive search, which sets its world back to a snapshot
 * (sim/search/snapshot.ts) instead of replaying a prefix. Steps are taken as the run loop takes them; `finish` runs the
 * liveness phase and the final checks as a run does after its last choice.
 */
export class SteppedRun {
  private constructor(private readonly context: ServerRun) {}

  /** Opens a run of a synchronous target; null when the target is asynchronous. */
  static async open(target: Target, config: SimConfig, options: RunOptions = {}): Promise<SteppedRun | null> {
    const context = await openServerRun(target, config, levelRunOptions(options));
    if (!context.world.run.sync) {
      await context.world.run.close();
      return null;
    }
    return new SteppedRun(context);
  }

  get world(): World {
    return this.context.world;
  }

  /** Fills the run's action list with the actions enabled now (fault phase) and returns it. */
  enabled(): ActionList {
    const { world, list } = this.context;
    list.count = 0;
    if (world.step < world.config.stepsMax) enumerateActions(world, list);
    return list;
  }

  /** Takes enabled action `choice` of the list {@link SteppedRun.enabled} filled, as the run loop does. */
  step(choice: number): void {
    const { world, list } = this.context;
    stepSync(this.context, list.kind[choice]!, list.a[choice]!, list.b[choice]!);
    world.step += 1;
  }

  /**
   * Takes the action `(kind, a, b)`, which must be enabled now, without listing the enabled actions first: the
   * exhaustive search lists a world's actions once and takes each of them from a restore of that world.
   */
  take(kind: number, a: number, b: number): void {
    stepSync(this.context, kind, a, b);
    this.context.world.step += 1;
  }

  /** Ends the fault phase here: the liveness phase, then the final checks. The world is left as they leave it. */
  finish(): Violation | null {
    const { world, list } = this.context;
    const progress = newProgress();
    // Straight to the liveness phase: listing the enabled actions only to be told to stop costs a leaf of the
    // exhaustive search about a twentieth of its time.
    if (world.violation === null) enterLiveness(this.context, progress);
    for (let choice = nextStep(this.context, STOP_SOURCE, progress); choice !== null; choice = nextStep(this.context, STOP_SOURCE, progress)) {
      stepSync(this.context, list.kind[choice]!, list.a[choice]!, list.b[choice]!);
    }
    return world.violation;
  }

  async close(): Promise<void> {
    await this.context.world.run.close();
  }
}
