// Knowing when the in-process SDK has finished reacting: every host callback, stream chunk and event-store call
// counts as activity, and the system is settled once a few macrotask turns pass with none.

import { macrotaskTurn } from '../../sim/clock.ts';
import { sleepMs } from '../module/clock.ts';

/** Consecutive quiet macrotask turns that count as settled. */
export const QUIET_TURNS = 2;
/** The most turns one settle may take before it is declared a livelock (an assertion). */
export const SETTLE_TURNS_MAX = 10_000;

/** Tracks activity and failures of one server incarnation. */
export interface Quiescence {
  /** Records that something happened (a frame, a read, a store call). */
  touch(): void;
  /** Records a failure from a background task (a stream reader); the next settle throws it. */
  fail(error: unknown): void;
  /**
   * Resolves once nothing happened for {@link QUIET_TURNS} turns, or as soon as `until` (checked before each turn)
   * says what the caller waits for has happened; throws a recorded failure or past the bound.
   */
  settle(until?: () => boolean): Promise<void>;
}

/** Turns spun while work is pending before settle sleeps 1 ms between looks. */
const PENDING_SPIN_TURNS = 50;

/**
 * Creates the activity tracker of one incarnation. `pendingWork` counts calls still running in real time (a user's
 * store doing I/O, each bounded by its own timeout): while there are any, settle waits and the wait does not count
 * toward the livelock bound.
 */
export function createQuiescence(pendingWork: () => number = () => 0): Quiescence {
  let activity = 0;
  const failures: unknown[] = [];
  const throwFailure = (): void => {
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
  };
  return {
    touch() {
      activity += 1;
    },
    fail(error) {
      failures.push(error);
    },
    async settle(until) {
      let quiet = 0;
      let spins = 0;
      for (let turn = 0; turn < SETTLE_TURNS_MAX; turn += 1) {
        if (until?.() === true) return;
        if (pendingWork() > 0) {
          await (spins < PENDING_SPIN_TURNS ? macrotaskTurn() : sleepMs(1));
          spins += 1;
          throwFailure();
          quiet = 0;
          turn -= 1;
          continue;
        }
        const before = activity;
        await macrotaskTurn();
        throwFailure();
        quiet = activity === before ? quiet + 1 : 0;
        if (quiet >= QUIET_TURNS) return;
      }
      throw new Error(`assertion: the SDK did not settle within ${SETTLE_TURNS_MAX} macrotask turns (a livelock?)`);
    },
  };
}
