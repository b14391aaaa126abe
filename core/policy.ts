// What a cursor before the terminal event of a completed stream gets. The reference core replays the missed
// tail; seed 000's literal rule ("completed -> fresh") is kept as the alternative the simulator compares.

/** The answer of a completed-stream policy for a cursor strictly before the stream's terminal event. */
export type CompletedStreamAnswer = 'replay-tail' | 'fresh-silent' | 'fresh-with-reset';

/** A pluggable rule for cursors into completed streams. */
export interface CompletedStreamPolicy {
  readonly name: string;
  /** One sentence on what it does and why, printed by the decision table. */
  readonly rationale: string;
  answer(input: { readonly cursorSeq: number; readonly seqTerminal: number }): CompletedStreamAnswer;
}

/**
 * The reference policy: replay what follows the cursor, the result included, then end the response.
 * The client presenting that cursor has not seen the result; withholding it loses the result (seed 000's
 * literal rule), while a stale cursor reaching a new request is stopped earlier (a POST never gets a replay).
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

/** The policies by name, for configuration from the command line. */
export const completedStreamPolicies: ReadonlyMap<string, CompletedStreamPolicy> = new Map(
  [replayTail, freshLiteral, freshWithReset].map((policy) => [policy.name, policy]),
);
