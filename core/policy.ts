// What a cursor before the terminal event of a completed stream gets. The reference core replays only what it never
// sent and signals the rest (replay-unsent); the others are kept as the alternatives the simulator compares
// (docs/decision-table.md has each one's shortest counterexample).

/** The answer of a completed-stream policy for a cursor strictly before the stream's terminal event. */
export type CompletedStreamAnswer = 'replay-tail' | 'fresh-silent' | 'fresh-with-reset' | 'replay-unsent';

/** A pluggable rule for cursors into completed streams. */
export interface CompletedStreamPolicy {
  readonly name: string;
  /** One sentence on what it does and why, printed by the decision table. */
  readonly rationale: string;
  answer(input: { readonly cursorSeq: number; readonly seqTerminal: number; readonly seqSent: number }): CompletedStreamAnswer;
}

/**
 * The reference policy until issue 7: replay what follows the cursor, the result included, then end the response.
 * Right when the client behind the cursor missed the result; a duplicate when it had it and a stale cursor was
 * presented (seed 000's first symptom), which the server cannot tell apart by the cursor alone.
 */
export const replayTail: CompletedStreamPolicy = {
  name: 'replay-tail',
  rationale: 'the client behind the cursor missed the result; replay the tail once and end the response',
  answer: () => 'replay-tail',
};

/** Seed 000 read literally: any cursor into a completed stream starts a fresh stream. Loses the result. */
export const freshLiteral: CompletedStreamPolicy = {
  name: 'fresh-literal',
  rationale: "seed 000's rule taken literally: a completed stream is never replayed, so a missed result is lost silently",
  answer: () => 'fresh-silent',
};

/** Never replay a completed stream, but tell the client it lost the result so it can ask again. */
export const freshWithReset: CompletedStreamPolicy = {
  name: 'fresh-with-reset',
  rationale: 'never replay a completed stream; signal the lost result with a reset so the client can act',
  answer: () => 'fresh-with-reset',
};

/**
 * The reference policy: uses what the server can observe, which events it ever wrote on a connection. Events after
 * the cursor that were never written cannot have reached the client: they are replayed (a result missed through a
 * cut is delivered). Events the server wrote may have arrived (a stale cursor) or been lost on the way (a lost tail),
 * and nothing the server sees tells which: they are not replayed but signalled with a reset, so the client is neither
 * given a message twice nor skipped past one silently.
 */
export const replayUnsent: CompletedStreamPolicy = {
  name: 'replay-unsent',
  rationale: 'replay only events never written on a connection; signal the possibly delivered ones with a reset, never replay them',
  answer: () => 'replay-unsent',
};

/** The policies by name, for configuration from the command line. */
export const completedStreamPolicies: ReadonlyMap<string, CompletedStreamPolicy> = new Map(
  [replayUnsent, replayTail, freshLiteral, freshWithReset].map((policy) => [policy.name, policy]),
);
