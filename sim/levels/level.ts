// A level: what the engine needs from a model of what may happen plus an adapter to the system checked. The engine
// (sim/engine.ts) runs every level through one loop (fault phase from a choice source, liveness phase, final checks);
// the server level (sim/levels/server-level.ts) is its first implementation, the client level
// (sim/levels/client-level.ts) its second, the store level (sim/levels/store-level.ts, an EventStore driven directly
// under its contract) its third.

import type { ActionList } from '../actions.ts';
import type { CoverageObserver } from '../coverage.ts';
import type { EveryViolation } from '../every-violation.ts';
import type { SimConfig } from '../config.ts';
import type { TraceStep } from './records.ts';
import type { Violation, World } from '../world.ts';
import type { PropertyName } from '../../properties/names.ts';
import type { Target } from '../../targets/target.ts';

/** The part of a level's world the engine's loop reads and writes. */
export interface LevelWorld {
  violation: Violation | null;
  /** Fault-phase steps taken. */
  step: number;
  /** The liveness phase's round, from 1. */
  healRound: number;
  readonly config: SimConfig;
  /** Describes an enabled action as traces print it (scripts and the shrinker match on it). */
  describeAction(kind: number, a: number, b: number): string;
}

/** One run of a level: the engine's loop calls these, in this order, and nothing else. */
export interface LevelRun {
  /** The server level's world describes its actions through sim/actions.ts; another level's world describes its own. */
  readonly world: World | LevelWorld;
  readonly list: ActionList;
  readonly trace: TraceStep[] | null;
  /** Fills `list` with the actions enabled now (fault phase). */
  enumerate(): void;
  /** Records the step about to be taken, when the run is recorded. */
  begin(choice: number, phase: TraceStep['phase']): void;
  /**
   * Takes one action and lets the system react until it is quiet. An action that starts work without waiting for it
   * returns nothing, and the engine goes on without yielding (the store level's calls overlap so).
   */
  step(kind: number, a: number, b: number): Promise<void> | void;
  /** The fault phase is over. */
  startHeal(): void;
  /** Fills `list` with the liveness phase's next action and returns its index, or null when this round has nothing to do. */
  nextHeal(): number | null;
  /** The final checks, once the world settled. */
  finish(): void;
  /** Where the violations of a run that goes on past them are filed (LevelRunOptions.everyViolation); absent: none. */
  readonly every?: EveryViolation | null;
  /** Releases what the run holds (restores patched globals). Called in `finally`. */
  close(): Promise<void>;
}

/** How a run is opened, beyond what it is a function of. */
export interface LevelRunOptions {
  /** Keep the steps as records (slower). */
  readonly record: boolean;
  /** Check only these properties; null: all. */
  readonly properties: readonly PropertyName[] | null;
  /** A list to reuse across runs, saving its allocation; null: a new one. */
  readonly actions: ActionList | null;
  /** Counts the states, transitions and action kinds the run reaches (a fuzz's coverage): the server level's only. */
  readonly coverage: CoverageObserver | null;
  /**
   * Go on past each violation, filing it (sim/every-violation.ts), so one run gives what a simulation without each
   * property violated would: the server level's and the store level's (whose judge runs once the world has settled);
   * the client level ignores it, and its run ends at its violation.
   */
  readonly everyViolation?: boolean;
}

/** What the engine opens every run through: a level (below), or the server level (sim/levels/server-level.ts). */
export interface RunLevel {
  open(config: SimConfig, options: LevelRunOptions): Promise<LevelRun>;
}

/** The levels besides the server level's, as traces record them (a trace without a level is of the server level). */
export type LevelName = 'client' | 'store';

/** Every level name a trace may record. */
export const LEVEL_NAMES: readonly LevelName[] = ['client', 'store'];

/**
 * How a level's random walks weigh its actions, beyond the fault kinds (sim/choices.ts's planWalk): each kind's base
 * weight (indexed by kind number), and whether a step first picks a kind among the enabled ones and then one of its
 * actions (so a kind with many actions is not picked more often for it), rather than an action in proportion to its
 * kind's weight.
 */
export interface WalkShape {
  readonly baseWeights?: readonly number[];
  readonly byKind?: boolean;
}

/** A level a target runs at, instead of the server level. */
export interface Level extends RunLevel {
  /** The level's name, recorded in its traces. */
  readonly name: LevelName;
  /** The action kinds (by number) that are faults: swarm walks switch a random subset of them off. */
  readonly faultKinds: readonly number[];
  /** How random walks weigh the level's actions; absent: every kind weight 1, an action in proportion to its kind's. */
  readonly walk?: WalkShape;
}

/**
 * A target that runs at a level other than the server's (a client target: the real SDK client against the reference
 * server; a store module driven under its contract): the engine runs the level's model and adapter through its one
 * loop, and `open` is unused. Targets do not name levels; a level names the target it runs, here, above both.
 */
export interface LevelTarget extends Target {
  readonly level: Level;
}

/** The level `target` runs at, or undefined for the server level. */
export function levelOf(target: Target): Level | undefined {
  return (target as Partial<LevelTarget>).level;
}
