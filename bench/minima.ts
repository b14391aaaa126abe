// The known minimum counterexample length of each planted target, per property: the shortest fault-phase choice
// sequence that violates the property checked alone, with equal worlds merged, as
//
//   npx tsx cli/run.ts explore --target T --property P --depth N   (--protocol mixed for the dual-era targets)
//
// finds it (`explore(target, minimaConfig(target), { depthMax, reduce: true, only: P })`). bench/minima.test.ts proves
// every entry: an exact minimum is found at its depth, as its witness, and nothing shorter; a lower bound is cleared at
// the depth below it (the few proofs that run more than 10 000 sequences are bounded there, and say so).
//
// Re-derived at issue 17 (2026-12-01: the kinds resumeSuperseded, abortTool, resendEchoed and reissueLegacy appended,
// the property no-request-frame-delivered, the target echoes-request-frames); `runs` is the reduced search's count.
// Until then the table recorded, per property, the shortest violation *with every property checked* (the property a
// run violates first, bench/explore-property.ts), derived by bench/derive-minima.ts, and called it "the minimum";
// where another property fires first at the same step, that is longer than what `explore --property` proves, and the
// table said so wrongly: resume-if-known × result-to-its-request "at least 6" (explore finds 5: the foreign-cursor
// resume that no-cross-session-delivery reports first), no-epoch-check × no-lost-result 6 (4, behind status-codes),
// no-epoch-check × no-cross-epoch-replay, replay-includes-cursor × in-order-per-stream and terminal-cursor-replays ×
// no-duplicate-delivery "at least 6" (4 each, behind status-codes or no-redelivery), fresh-literal × no-lost-result
// "at least 6" (3, behind no-silent-gap). What the bench compares a shrunk counterexample with is still the property's
// minimum here, which a shrink that keeps another property's earlier violation cannot reach: its `shrunk/min` above 1
// for those entries is that, not a weaker shrinker. A length counts fault-phase steps (choices); the liveness phase
// that follows them is the simulator's, not a choice. Re-derive when the engine, the actions, the properties or a
// target change: the test fails on a stale entry.

import type { PropertyName } from '../properties/names.ts';
import type { ProtocolChoice, SimConfig } from '../sim/config.ts';

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
  /**
   * The protocol its minima were derived under, on top of MINIMA_CONFIG (a dual-era target's bugs need both eras:
   * `mixed`, whose revisions at seed '1' are client 1 2026-07-28, client 2 2025-03-26); absent: none configured.
   */
  readonly protocol?: ProtocolChoice;
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

/** The config a target's minima were derived under: MINIMA_CONFIG, with the target's protocol when it states one. */
export function minimaConfig(target: string): SimConfig {
  const protocol = MINIMA[target]?.protocol;
  return protocol === undefined ? MINIMA_CONFIG : { ...MINIMA_CONFIG, protocol };
}

/** Per planted target: the property of its overall minimum, and the minimum of each property derived. */
export const MINIMA: Readonly<Record<string, TargetMinima>> = {
  // resume-if-known: Seed 000: resumes from any known event ID, for any session, into any request (a new POST included).
  'resume-if-known': {
    overallProperty: 'no-cross-session-delivery',
    overallRuns: 691,
    minima: [
      // no-cross-session-delivery (exact: 4 steps): client 1
      // initializes; client 1 calls read; client 2 initializes; client 2 resumes with client 1's cursor (a proxy mixes
      // sessions up); then, in the liveness phase: the server advances c1 (read, execution 1).
      { property: 'no-cross-session-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 12, 15], runs: 422, depthCleared: 3 },
      // no-cross-stream-replay (exact: 5 steps): client 1
      // initializes; client 1 calls read; the network cuts connection #2 (client 1); the server advances c1 (read,
      // execution 1); client 1 calls read; a proxy attaches the stale Last-Event-ID e1.1.1.1.
      { property: 'no-cross-stream-replay', length: 5, lowerBound: 5, upperBound: 5, witness: [0, 0, 13, 15, 1], runs: 5837, depthCleared: 4 },
      // result-to-its-request (exact: 5 steps): client 1 initializes; client 1 calls read; client 2 initializes; client 2
      // calls read; client 1 resumes with client 2's cursor (a proxy mixes sessions up); then, in the liveness phase: the
      // server advances c1 and c2; c2's result arrives as the answer to request 2, which client 1 sent for c1. (With
      // every property checked, no-cross-session-delivery fires first at step 5.)
      { property: 'result-to-its-request', length: 5, lowerBound: 5, upperBound: 5, witness: [0, 0, 12, 12, 6], runs: 5423, depthCleared: 4 },
      // no-duplicate-delivery (exact: 4 steps): client 1
      // initializes; client 1 calls read; the server advances c1 (read, execution 1); client 1 resumes the stream of
      // c1 with a cursor before the result.
      { property: 'no-duplicate-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 15, 6], runs: 463, depthCleared: 3 },
      // no-lost-result (exact: 4 steps): client 1 initializes; client 1 calls read; the network cuts connection #2; the
      // server's tool read of c1 fails mid-stream (its stream is aborted); then, in the liveness phase: client 1's
      // resumes get the aborted stream resumed as if it were not, ended with neither a result nor a reset.
      { property: 'no-lost-result', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 13, 18], runs: 456, depthCleared: 3 },
    ],
  },
  // counter-ids: Seed 004: per-process counter IDs reset on restart, a buffer keyed by the number alone, and a fresh session minted for a dead one.
  'counter-ids': {
    overallProperty: 'status-codes',
    overallRuns: 46,
    minima: [
      // status-codes (exact: 3 steps): client 1 initializes;
      // client 1 calls read; the server expires client 1's session; then, in the liveness phase: the server advances
      // c1 (read, execution 1); client 1 resumes the stream of c1 with its latest cursor.
      { property: 'status-codes', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 11], runs: 46, depthCleared: 2 },
      // no-cross-session-delivery (exact: 4 steps): client 1
      // initializes; client 1 calls read; client 2 initializes; client 2 resumes with client 1's cursor (a proxy mixes
      // sessions up); then, in the liveness phase: the server advances c1 (read, execution 1).
      { property: 'no-cross-session-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 12, 15], runs: 715, depthCleared: 3 },
      // no-silent-gap (exact: 3 steps): client 1 initializes;
      // client 1 calls work; the network cuts connection #2 (client 1); then, in the liveness phase: the server
      // advances c1 (work, execution 1); the server advances c1 (work, execution 1); the server advances c1 (work,
      // execution 1); client 1 resumes the stream of c1 with its latest cursor.
      { property: 'no-silent-gap', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 2, 13], runs: 96, depthCleared: 2 },
      // no-duplicate-delivery (exact: 4 steps): client 1
      // initializes; client 1 calls read; the server advances c1 (read, execution 1); client 1 resumes the stream of
      // c1 with a cursor before the result.
      { property: 'no-duplicate-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 15, 6], runs: 778, depthCleared: 3 },
    ],
  },
  // no-terminal-check: Never looks at a stream's terminal state: a resume into a completed stream is kept open as if more could come.
  'no-terminal-check': {
    overallProperty: 'no-hang',
    overallRuns: 48,
    minima: [
      // no-hang (exact: 3 steps): client 1 initializes; client
      // 1 calls read; the network cuts connection #2 (client 1); then, in the liveness phase: the server advances c1
      // (read, execution 1); client 1 resumes the stream of c1 with its latest cursor.
      { property: 'no-hang', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 13], runs: 39, depthCleared: 2 },
    ],
  },
  // no-epoch-check: IDs without an epoch, a store that outlives restarts, session IDs from a counter reset by a restart.
  'no-epoch-check': {
    overallProperty: 'status-codes',
    overallRuns: 777,
    minima: [
      // status-codes (exact: 4 steps): client 1 initializes;
      // client 1 calls read; the server restarts (epoch 2); client 2 initializes; then, in the liveness phase: client
      // 1 resumes the stream of c1 with its latest cursor.
      { property: 'status-codes', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 16, 14], runs: 804, depthCleared: 3 },
      // no-cross-epoch-replay (exact: 4 steps): client 1 initializes; the server restarts (epoch 2); client 2
      // initializes; client 1 calls read; then, in the liveness phase: the server advances c1, whose result (epoch 2,
      // session s1 again: the counter restarted) reaches session s1 of epoch 1. (status-codes fires first.)
      { property: 'no-cross-epoch-replay', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 9, 7, 0], runs: 3288, depthCleared: 3 },
      // result-to-its-request (at least 6): no sequence of up to 5 steps violates it, checked alone.
      { property: 'result-to-its-request', length: null, lowerBound: 6, upperBound: null, witness: null, runs: 148904, depthCleared: 5 },
      // no-lost-result (exact: 4 steps): client 1 initializes; client 1 calls read; the server restarts (epoch 2); client
      // 2 initializes (and gets session s1 again); then, in the liveness phase: client 1 resumes c1 with its latest
      // cursor and never gets its result nor a reset. (status-codes fires first; with every property checked the
      // shortest is 6.)
      { property: 'no-lost-result', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 16, 14], runs: 804, depthCleared: 3 },
      // no-hang (exact: 6 steps): client 1 initializes;
      // client 1 calls read; the server restarts (epoch 2); client 1 calls read; client 1 initializes; client 1
      // resumes with a cursor from before the restart.
      { property: 'no-hang', length: 6, lowerBound: 6, upperBound: 6, witness: [0, 0, 16, 0, 0, 6], runs: 440992, depthCleared: 5 },
    ],
  },
  // silent-window-skip: A cursor whose successor was evicted gets the retained tail, the gap skipped silently (no reset).
  'silent-window-skip': {
    overallProperty: 'no-silent-gap',
    overallRuns: 94,
    minima: [
      // no-silent-gap (exact: 3 steps): client 1 initializes;
      // client 1 calls work; the network cuts connection #2 (client 1); then, in the liveness phase: the server
      // advances c1 (work, execution 1); the server advances c1 (work, execution 1); the server advances c1 (work,
      // execution 1); client 1 resumes the stream of c1 with its latest cursor.
      { property: 'no-silent-gap', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 2, 13], runs: 85, depthCleared: 2 },
    ],
  },
  // replay-request-frames: Buffers the tools/call request frame in its stream; a resume replays it and the call runs again.
  'replay-request-frames': {
    overallProperty: 'exactly-once-execution',
    overallRuns: 71,
    minima: [
      // exactly-once-execution (exact: 3 steps): client 1
      // initializes; client 1 calls append; the network cuts connection #2 (client 1); then, in the liveness phase:
      // the server advances c1 (append, execution 1); client 1 resumes the stream of c1 with its latest cursor.
      { property: 'exactly-once-execution', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 1, 13], runs: 72, depthCleared: 2 },
    ],
  },
  // cross-stream-replay: A resume replays the retained events of all the session's streams, not only the cursor's.
  'cross-stream-replay': {
    overallProperty: 'no-cross-stream-replay',
    overallRuns: 384,
    minima: [
      // no-cross-stream-replay (exact: 4 steps): client 1
      // initializes; client 1 calls read; client 1 calls read; the network cuts connection #2 (client 1); then, in the
      // liveness phase: the server advances c1 (read, execution 1); the server advances c2 (read, execution 2); client
      // 1 resumes the stream of c1 with its latest cursor.
      { property: 'no-cross-stream-replay', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 0, 13], runs: 283, depthCleared: 3 },
    ],
  },
  // no-owner-check: Resumes the cursor's stream in whichever session issued it, without checking it is the presenting session.
  'no-owner-check': {
    overallProperty: 'no-cross-session-delivery',
    overallRuns: 691,
    minima: [
      // no-cross-session-delivery (exact: 4 steps): client 1
      // initializes; client 1 calls read; client 2 initializes; client 2 resumes with client 1's cursor (a proxy mixes
      // sessions up); then, in the liveness phase: the server advances c1 (read, execution 1).
      { property: 'no-cross-session-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 12, 15], runs: 422, depthCleared: 3 },
    ],
  },
  // replay-includes-cursor: Replays from the cursor event itself (>= instead of >), delivering it a second time.
  'replay-includes-cursor': {
    overallProperty: 'no-redelivery',
    overallRuns: 761,
    minima: [
      // no-redelivery (exact: 4 steps): client 1 initializes;
      // client 1 calls read; the server advances c1 (read, execution 1); client 1 resumes the stream of c1 with its
      // result's event ID.
      { property: 'no-redelivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 15, 16], runs: 472, depthCleared: 3 },
      // in-order-per-stream (exact: 4 steps): no-redelivery's witness: the result replayed after the cursor at the
      // result itself arrives after position 1 of the same stream. (no-redelivery fires first.)
      { property: 'in-order-per-stream', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 15, 16], runs: 472, depthCleared: 3 },
    ],
  },
  // fresh-literal: Seed 000 read literally: "completed -> fresh stream", so a client that missed the result loses it silently.
  'fresh-literal': {
    overallProperty: 'no-silent-gap',
    overallRuns: 48,
    minima: [
      // no-silent-gap (exact: 3 steps): client 1 initializes;
      // client 1 calls read; the network cuts connection #2 (client 1); then, in the liveness phase: the server
      // advances c1 (read, execution 1); client 1 resumes the stream of c1 with its latest cursor.
      { property: 'no-silent-gap', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 13], runs: 39, depthCleared: 2 },
      // no-lost-result (exact: 3 steps): no-silent-gap's witness: the resume after the cut gets an empty fresh stream,
      // and c1 never gets its result nor a reset. (no-silent-gap fires first.)
      { property: 'no-lost-result', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 13], runs: 39, depthCleared: 2 },
    ],
  },
  // no-ledger: Keeps no request ledger: a retrying proxy's re-sent POST runs the tool again, and a reused request ID runs as a new call.
  'no-ledger': {
    overallProperty: 'one-connection-per-stream',
    overallRuns: 53,
    minima: [
      // exactly-once-execution (exact: 3 steps): client 1
      // initializes; client 1 calls append; a proxy re-sends c1 (append, request 2) of client 1 while it is in flight.
      { property: 'exactly-once-execution', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 1, 18], runs: 77, depthCleared: 2 },
      // one-connection-per-stream (exact: 3 steps): client 1
      // initializes; client 1 calls read; a proxy re-sends c1 (read, request 2) of client 1 while it is in flight.
      { property: 'one-connection-per-stream', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 18], runs: 53, depthCleared: 2 },
      // reused-request-id-refused (exact: 3 steps): client 1
      // initializes; client 1 calls read; client 1 reuses request 2 of c1, still in flight, for a call of append.
      { property: 'reused-request-id-refused', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 19], runs: 54, depthCleared: 2 },
    ],
  },
  // replay-tail: Completed-stream policy replay-tail: a cursor before the result replays it, even when the server already delivered it.
  'replay-tail': {
    overallProperty: 'no-duplicate-delivery',
    overallRuns: 751,
    minima: [
      // no-duplicate-delivery (exact: 4 steps): client 1
      // initializes; client 1 calls read; the server advances c1 (read, execution 1); client 1 resumes the stream of
      // c1 with a cursor before the result.
      { property: 'no-duplicate-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 15, 6], runs: 463, depthCleared: 3 },
    ],
  },
  // fresh-with-reset: Completed-stream policy fresh-with-reset: a cursor before the result gets a reset, even when the result was never sent.
  'fresh-with-reset': {
    overallProperty: 'no-withheld-result',
    overallRuns: 48,
    minima: [
      // no-withheld-result (exact: 3 steps): client 1
      // initializes; client 1 calls read; the network cuts connection #2 (client 1); then, in the liveness phase: the
      // server advances c1 (read, execution 1); client 1 resumes the stream of c1 with its latest cursor.
      { property: 'no-withheld-result', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 13], runs: 39, depthCleared: 2 },
    ],
  },
  // rival-connection-kept: A resume of a stream a connection still carries takes the stream over and leaves the first connection open, silently.
  'rival-connection-kept': {
    overallProperty: 'one-connection-per-stream',
    overallRuns: 52,
    minima: [
      // one-connection-per-stream (exact: 3 steps): client 1
      // initializes; client 1 calls read; client 1 resumes the stream of c1 with its latest cursor while connection #2
      // still carries it.
      { property: 'one-connection-per-stream', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 17], runs: 52, depthCleared: 2 },
    ],
  },
  // no-in-flight-check: A POST reusing the request ID of a call still in flight, with other content, is executed instead of refused.
  'no-in-flight-check': {
    overallProperty: 'reused-request-id-refused',
    overallRuns: 54,
    minima: [
      // reused-request-id-refused (exact: 3 steps): client 1
      // initializes; client 1 calls read; client 1 reuses request 2 of c1, still in flight, for a call of append.
      { property: 'reused-request-id-refused', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 19], runs: 54, depthCleared: 2 },
    ],
  },
  // terminal-cursor-replays: A resume with a completed stream's terminal event ID replays the result again (<= instead of <).
  'terminal-cursor-replays': {
    overallProperty: 'no-redelivery',
    overallRuns: 761,
    minima: [
      // no-redelivery (exact: 4 steps): client 1 initializes;
      // client 1 calls read; the server advances c1 (read, execution 1); client 1 resumes the stream of c1 with its
      // result's event ID.
      { property: 'no-redelivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 15, 16], runs: 472, depthCleared: 3 },
      // no-duplicate-delivery (exact: 4 steps): no-redelivery's witness: the result arrives again on the resume with
      // its own event ID. (no-redelivery fires first.)
      { property: 'no-duplicate-delivery', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 15, 16], runs: 472, depthCleared: 3 },
    ],
  },
  // trusts-delivery: A resume skips the events the server already wrote on a connection, without a reset: a lost tail is skipped silently.
  'trusts-delivery': {
    overallProperty: 'no-silent-gap',
    overallRuns: 862,
    minima: [
      // no-silent-gap (exact: 4 steps): client 1 initializes;
      // client 1 calls read; the network loses the next frame on connection #2 (client 1), then breaks it; the server
      // advances c1 (read, execution 1); then, in the liveness phase: client 1 resumes the stream of c1 with its
      // latest cursor.
      { property: 'no-silent-gap', length: 4, lowerBound: 4, upperBound: 4, witness: [0, 0, 20, 13], runs: 568, depthCleared: 3 },
    ],
  },
  // echoes-request-frames: Buffers the tools/call request frame in its stream; a resume replays it to the client, who re-sends it (seed 000's variant).
  'echoes-request-frames': {
    overallProperty: 'no-request-frame-delivered',
    overallRuns: 48,
    minima: [
      // no-request-frame-delivered (exact: 3 steps): client 1 initializes; client 1 calls read; the network cuts
      // connection #2 (client 1); then, in the liveness phase: the server advances c1 (read, execution 1); client 1
      // resumes the stream of c1 with its latest cursor, and the replay carries its own tools/call request.
      { property: 'no-request-frame-delivered', length: 3, lowerBound: 3, upperBound: 3, witness: [0, 0, 13], runs: 48, depthCleared: 2 },
    ],
  },
  // The dual-era targets (issue 9), derived under `protocol: 'mixed'` (seed '1': client 1 speaks 2026-07-28, client 2
  // 2025-03-26) by explore(target, { ...MINIMA_CONFIG, protocol: 'mixed' }, { depthMax: 7, runsMax: 1_000_000 }),
  // overall and with each property alone (2026-12-01, load about 5 on 2 cores: 80 s in all).
  // modern-cursor-replays: a 2026-07-28 request carrying a legacy Last-Event-ID gets that legacy stream's events replayed.
  'modern-cursor-replays': {
    protocol: 'mixed',
    overallProperty: 'reissued-call-runs-again',
    overallRuns: 50,
    minima: [
      // reissued-call-runs-again (a note; exact: 2 steps): client 1 calls append
      // (2026-07-28); the network cuts connection #0 (client 1); then, in the liveness phase: client 1 re-issues c1
      // (append) under a new request ID; the server advances c1 (append, execution 2). The reference does the same.
      { property: 'reissued-call-runs-again', length: 2, lowerBound: 2, upperBound: 2, witness: [3, 1], runs: 46, depthCleared: 1 },
      // era-isolation (exact: 6 steps): client 2
      // initializes; client 2 calls work; the server advances c1 (work, execution 1); the network cuts connection #2
      // (client 2); the server advances c1 (work, execution 1); client 1 calls read (2026-07-28); a proxy attaches
      // client 2's Mcp-Session-Id and latest Last-Event-ID. (Client 2 speaks 2025-03-26: no priming event, so its first
      // cursor is progress #1's.)
      { property: 'era-isolation', length: 6, lowerBound: 6, upperBound: 6, witness: [0, 2, 9, 12, 14, 21], runs: 429416, depthCleared: 5 },
      // result-to-its-request (at least 6): no sequence of up to 5 steps violates it alone; the fuzz (seed 1, run 253,
      // another seed's revisions) shrinks it to 6 steps: only a lower bound here.
      { property: 'result-to-its-request', length: null, lowerBound: 6, upperBound: null, witness: null, runs: 123804, depthCleared: 5 },
    ],
  },
  // modern-disconnect-runs-on: a 2026-07-28 client's disconnect does not cancel its request: the tool runs on.
  'modern-disconnect-runs-on': {
    protocol: 'mixed',
    overallProperty: 'disconnect-stops-work',
    overallRuns: 36,
    minima: [
      // disconnect-stops-work (exact: 2 steps, 36 runs, depth 1 cleared; disconnect-cancels' SHOULD clause before the
      // split): client 1 calls read (2026-07-28); the network cuts connection #0 (client 1); then, in the liveness
      // phase: the server advances c1 (read, execution 1).
      { property: 'disconnect-stops-work', length: 2, lowerBound: 2, upperBound: 2, witness: [2, 1], runs: 33, depthCleared: 1 },
    ],
  },
  // modern-joins-legacy-session: a 2026-07-28 request with a proxy-attached Mcp-Session-Id of a live legacy session runs in it.
  'modern-joins-legacy-session': {
    protocol: 'mixed',
    overallProperty: 'modern-exchange-stateless',
    overallRuns: 21,
    minima: [
      // modern-exchange-stateless (exact: 2 steps): client 2 initializes; client 1 calls read
      // (2026-07-28); a proxy attaches client 2's Mcp-Session-Id.
      { property: 'modern-exchange-stateless', length: 2, lowerBound: 2, upperBound: 2, witness: [0, 12], runs: 20, depthCleared: 1 },
    ],
  },
};
