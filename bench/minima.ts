// The known minimum counterexample length of each planted target, per property, derived offline by exhaustive
// search (shortest first) and recorded here, so the bench can check that shrinking reaches them.
//
// Derived at commit dadb5bc (2026-11-29; c4371b7, six commits earlier, gave the same, run for run) by
//
//   npx tsx bench/derive-minima.ts --runs-max 1000000 --json minima.json
//
// which runs, per target: `explore(target, MINIMA_CONFIG, { depthMax: 9, runsMax: 1_000_000 })` for the overall
// minimum, then an exhaustive search restricted to each property of the target's `breaks` and each property
// the seeds '1'..'20' find first (bench/README.md says why it is not `explore(..., { only })`, which was run
// too). They disagreed once, on no-epoch-check's no-lost-result: `explore({ only })` checks that property alone, so
// it returns the 4-step status-codes minimum, whose lost result is judged only when status-codes is not checked;
// in a run with every property status-codes fires first, and the bench's minimum (the property a run violates
// first) is exploreProperty's 6. It took about 100 s on 2 shared cores. A length counts fault-phase steps
// (choices); the liveness phase that follows them is the simulator's, not a choice. Re-derive when the engine,
// the actions, the properties or a target change: the bench replays every witness and warns when one no longer
// gives its property in exactly its length.

import type { PropertyName } from '../properties/names.ts';
import type { SimConfig } from '../sim/config.ts';

/** The shortest violation of one property by one target, or the range known for it. */
export interface KnownMinimum {
  readonly property: PropertyName;
  /** The exact minimum (fault-phase steps), proven by exhaustive search; null when only a range is known. */
  readonly length: number | null;
  /** Every shorter sequence was searched: none violates the property. */
  readonly lowerBound: number;
  /** The shortest violating sequence known; null when none is known. */
  readonly upperBound: number | null;
  /** A violating choice sequence of length `upperBound` (replayed at bench time to catch stale minima). */
  readonly witness: readonly number[] | null;
  /** Runs the exhaustive search made, and the depth it searched completely. */
  readonly runs: number;
  readonly depthCleared: number;
}

/** What is known for one planted target. */
export interface TargetMinima {
  /** The property of the target's shortest violation of anything (what `explore()` returns first). */
  readonly overallProperty: PropertyName;
  readonly overallRuns: number;
  readonly minima: readonly KnownMinimum[];
}

/**
 * The config the minima were derived under: DEFAULT_CONFIG as it was then, written out so a later change of the
 * defaults cannot silently change what the minima mean (the bench says when the two differ).
 */
export const MINIMA_CONFIG: SimConfig = {
  seed: '1',
  clients: 2,
  stepsMax: 40,
  callsPerSessionMax: 3,
  restartsMax: 2,
  workProgressSteps: 2,
  windowEventsMax: 2,
  requestIdHabits: ['restart', 'monotonic'],
};

/** Per planted target: the property of its overall minimum, and the minimum of each property derived. */
export const MINIMA: Readonly<Record<string, TargetMinima>> = {
  // resume-if-known: Seed 000's "resume if the ID is known".
  'resume-if-known': {
    overallProperty: 'no-cross-session-delivery',
    overallRuns: 572,
    minima: [
      // no-cross-session-delivery (exact: 4 steps, every shorter sequence run (572 runs, depth 3 cleared)): client 1
      // initializes and calls read (its connection gets the priming cursor); client 2 initializes; a proxy sends client
      // 2's GET with client 1's cursor: the server resumes client 1's stream into client 2's connection, and c1's result
      // (advanced in the liveness phase) reaches session 2.
      { property: 'no-cross-session-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 12, 15], runs: 572, depthCleared: 3 },
      // no-cross-stream-replay (exact: 5 steps, every shorter sequence run (9169 runs, depth 4 cleared)): client 1
      // initializes, calls read; the network cuts the call's connection; the server advances c1 (its result is stored,
      // not delivered); client 1 calls read again and a proxy attaches the stale Last-Event-ID: the new POST's stream
      // replays c1's result.
      { property: 'no-cross-stream-replay', length: 5, lowerBound: 5, upperBound: 5, witness: [0, 0, 13, 15, 1], runs: 9169, depthCleared: 4 },
      // result-to-its-request (at least 6): no sequence of up to 5 steps violates it (1,000,000 runs, depth 5 cleared)
      // and no seed found it first: only a lower bound.
      { property: 'result-to-its-request', length: null, lowerBound: 6, upperBound: null, witness: null, runs: 1000000, depthCleared: 5 },
    ],
  },
  // counter-ids: Seed 004: per-process counter IDs, reset by a restart; a dead session presenting a cursor gets a fresh one.
  'counter-ids': {
    overallProperty: 'status-codes',
    overallRuns: 46,
    minima: [
      // status-codes (exact: 3 steps, every shorter sequence run (46 runs, depth 2 cleared)): client 1 initializes and
      // calls read; the server expires the session (the call's connection ends); in the liveness phase the server
      // advances c1 and client 1 resumes with evt-1: it gets 200 (a session minted for it) instead of 404.
      { property: 'status-codes', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 11], runs: 46, depthCleared: 2 },
      // no-cross-session-delivery (exact: 4 steps, every shorter sequence run (541 runs, depth 3 cleared)): as resume-
      // if-known's: client 2 presents client 1's cursor evt-1 and receives c1's result (advanced in the liveness phase).
      { property: 'no-cross-session-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 12, 15], runs: 541, depthCleared: 3 },
      // no-silent-gap (exact: 3 steps, every shorter sequence run (53 runs, depth 2 cleared)): client 1 initializes,
      // calls work; the network cuts the connection; the liveness phase advances c1 three times (the window of 2 evicts
      // progress #1) and resumes with evt-1: progress #2 arrives with no reset.
      { property: 'no-silent-gap', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 2, 13], runs: 53, depthCleared: 2 },
    ],
  },
  // no-terminal-check: A completed stream treated as open.
  'no-terminal-check': {
    overallProperty: 'no-hang',
    overallRuns: 48,
    minima: [
      // no-hang (exact: 3 steps, every shorter sequence run (48 runs, depth 2 cleared)): client 1 initializes, calls
      // read; the network cuts the connection; in the liveness phase the server advances c1 (result stored) and client 1
      // resumes: the result is replayed and the connection stays open.
      { property: 'no-hang', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 13], runs: 48, depthCleared: 2 },
    ],
  },
  // no-epoch-check: IDs without an epoch, a store that outlives restarts, session IDs from a counter reset by a restart.
  'no-epoch-check': {
    overallProperty: 'status-codes',
    overallRuns: 650,
    minima: [
      // status-codes (exact: 4 steps, every shorter sequence run (650 runs, depth 3 cleared)): client 1 initializes (s1)
      // and calls read; the server restarts; client 2 initializes and is given s1 again; in the liveness phase client 1
      // resumes with its pre-restart cursor in the lost session s1 and gets 200, not 404.
      { property: 'status-codes', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 16, 14], runs: 650, depthCleared: 3 },
      // no-cross-epoch-replay (at least 6): nothing up to 5 steps (1,000,000 runs, depth 5 cleared); no seed found it
      // first (status-codes, no-lost-result and no-hang fire first): only a lower bound.
      { property: 'no-cross-epoch-replay', length: null, lowerBound: 6, upperBound: null, witness: null, runs: 1000000, depthCleared: 5 },
      // result-to-its-request (at least 6): nothing up to 5 steps (1,000,000 runs, depth 5 cleared); no seed found it
      // first: only a lower bound.
      { property: 'result-to-its-request', length: null, lowerBound: 6, upperBound: null, witness: null, runs: 1000000, depthCleared: 5 },
      // no-lost-result (exact: 6 steps, every shorter sequence run (138450 runs, depth 5 cleared)): client 1 initializes
      // (s1), calls read (request 2), deletes its session; the server restarts; client 1 initializes again and gets s1
      // again, calls read with request 2 again (its ids restart): the revived ledger answers 409 to that and to every
      // re-send in the liveness phase, so c2 never gets a result nor a reset.
      { property: 'no-lost-result', length: 6, lowerBound: 6, upperBound: 6, witness: [0, 0, 9, 3, 0, 0], runs: 138450, depthCleared: 5 },
      // no-hang (exact: 6 steps, every shorter sequence run (179270 runs, depth 5 cleared)): client 1 initializes (s1)
      // and calls read (cursor e.1.1.1); the server restarts; client 1 calls read and gets 404; it initializes again and
      // is given s1 again; it resumes with its pre-restart cursor e.1.1.1: the live s1 makes the 200 a valid status, and
      // the connection stays open carrying no stream of the client's.
      { property: 'no-hang', length: 6, lowerBound: 6, upperBound: 6, witness: [0, 0, 16, 0, 0, 6], runs: 179270, depthCleared: 5 },
    ],
  },
  // silent-window-skip: A cursor outside the window gets the retained tail, the gap skipped silently.
  'silent-window-skip': {
    overallProperty: 'no-silent-gap',
    overallRuns: 84,
    minima: [
      // no-silent-gap (exact: 3 steps, every shorter sequence run (84 runs, depth 2 cleared)): client 1 initializes,
      // calls work; the network cuts the connection; the liveness phase advances c1 three times (the window of 2 evicts
      // progress #1) and resumes with the priming cursor: progress #2 arrives with no reset.
      { property: 'no-silent-gap', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 2, 13], runs: 84, depthCleared: 2 },
    ],
  },
  // replay-request-frames: Seed 000's variant: the tools/call request frame is buffered and a replay dispatches it again.
  'replay-request-frames': {
    overallProperty: 'exactly-once-execution',
    overallRuns: 66,
    minima: [
      // exactly-once-execution (exact: 3 steps, every shorter sequence run (66 runs, depth 2 cleared)): client 1
      // initializes, calls append; the network cuts the connection; in the liveness phase the server advances c1
      // (result) and client 1 resumes with the priming cursor: the replay re-dispatches the buffered request and append
      // runs a second time.
      { property: 'exactly-once-execution', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 1, 13], runs: 66, depthCleared: 2 },
    ],
  },
  // cross-stream-replay: A resume replays the retained events of all the session's streams.
  'cross-stream-replay': {
    overallProperty: 'no-cross-stream-replay',
    overallRuns: 348,
    minima: [
      // no-cross-stream-replay (exact: 4 steps, every shorter sequence run (348 runs, depth 3 cleared)): client 1
      // initializes, calls read (c1), calls read (c2); the network cuts c1's connection; in the liveness phase both
      // results are produced and client 1 resumes c1: the replay carries c2's events too.
      { property: 'no-cross-stream-replay', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 0, 13], runs: 348, depthCleared: 3 },
    ],
  },
  // no-owner-check: The cursor alone picks the stream; its session is never compared with the presenting one.
  'no-owner-check': {
    overallProperty: 'no-cross-session-delivery',
    overallRuns: 572,
    minima: [
      // no-cross-session-delivery (exact: 4 steps, every shorter sequence run (572 runs, depth 3 cleared)): client 1
      // initializes and calls read; client 2 initializes; a proxy sends client 2's GET with client 1's cursor: c1's
      // result (advanced in the liveness phase) reaches session 2.
      { property: 'no-cross-session-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 12, 15], runs: 572, depthCleared: 3 },
    ],
  },
  // replay-includes-cursor: An off-by-one: the replay starts at the cursor's own event.
  'replay-includes-cursor': {
    overallProperty: 'no-redelivery',
    overallRuns: 1617,
    minima: [
      // no-redelivery (exact: 4 steps, every shorter sequence run (1617 runs, depth 3 cleared)): client 1 initializes,
      // opens a standalone GET; the server notifies it (notification #1 arrives with its ID); the network cuts the
      // connection; in the liveness phase client 1 resumes its standalone stream with that ID: notification #1 arrives
      // again. (A call's progress needs an explicit resume, 5 steps: in the liveness phase the call's later events evict
      // the cursor's own from the window of 2 before the resume.)
      { property: 'no-redelivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 4, 10, 13], runs: 1617, depthCleared: 3 },
      // in-order-per-stream (at least 6): nothing up to 5 steps (1,000,000 runs, depth 5 cleared): the same redelivery
      // is judged by no-redelivery first (monitor order), so the seeds never report it.
      { property: 'in-order-per-stream', length: null, lowerBound: 6, upperBound: null, witness: null, runs: 1000000, depthCleared: 5 },
    ],
  },
  // fresh-literal: Seed 000 read literally: a cursor into a completed stream starts a fresh, empty one.
  'fresh-literal': {
    overallProperty: 'no-silent-gap',
    overallRuns: 48,
    minima: [
      // no-silent-gap (exact: 3 steps, every shorter sequence run (48 runs, depth 2 cleared)): client 1 initializes,
      // calls read; the network cuts the connection; in the liveness phase the server advances c1 (result) and client 1
      // resumes with the priming cursor: the connection ends with neither the result nor a reset.
      { property: 'no-silent-gap', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 13], runs: 48, depthCleared: 2 },
      // no-lost-result (at least 6): nothing up to 5 steps (1,000,000 runs, depth 5 cleared): no-silent-gap fires first
      // on the same loss (monitor order), so the seeds never report it.
      { property: 'no-lost-result', length: null, lowerBound: 6, upperBound: null, witness: null, runs: 1000000, depthCleared: 5 },
    ],
  },
  // no-ledger: No request ledger: a re-sent POST runs the tool again.
  'no-ledger': {
    overallProperty: 'exactly-once-execution',
    overallRuns: 912,
    minima: [
      // exactly-once-execution (exact: 4 steps, every shorter sequence run (912 runs, depth 3 cleared)): client 1
      // initializes, calls append; the network cuts the connection; a proxy re-sends the POST with the same request id:
      // append runs a second time. (The cut is needed: a re-send is offered only for a call whose stream has no
      // connection.)
      { property: 'exactly-once-execution', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 1, 13, 10], runs: 912, depthCleared: 3 },
    ],
  },
};
