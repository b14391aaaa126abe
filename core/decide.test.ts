// Unit tests of the decision table (core/decide.ts), one `describe` per Rule, each with a case that a naive
// implementation of the row would get wrong, and unit tests of the event-ID format (core/event-id.ts).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type CompletedStreamPolicy,
  type CoreRequest,
  type CoreState,
  type Decision,
  EVENT_ID_LENGTH_MAX,
  type Rule,
  type SessionRecord,
  type StreamRecord,
  abortStream,
  appendEvent,
  canOpenStream,
  createCoreState,
  decideRequest,
  endSession,
  formatEventId,
  freshLiteral,
  freshWithReset,
  isValidEpochToken,
  openSession,
  openStream,
  parseEventId,
  recordSent,
  replayTail,
  replayUnsent,
  setStreamAttached,
} from './index.ts';

/** A message that says where it was emitted, so a wrongly routed replay is visible in the assertion. */
interface Tagged {
  readonly epoch: string;
  readonly sessionId: string;
  readonly streamIndex: number;
  readonly seq: number;
}

type State = CoreState<Tagged>;
type Session = SessionRecord<Tagged>;
type Stream = StreamRecord<Tagged>;

function emit(state: State, session: Session, stream: Stream, count: number, options?: { terminalLast?: boolean }): string[] {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const message: Tagged = {
      epoch: state.config.epoch,
      sessionId: session.id,
      streamIndex: stream.index,
      seq: stream.seqLast + 1,
    };
    const terminal = options?.terminalLast === true && i === count - 1;
    ids.push(appendEvent(state, stream, message, { terminal }).id);
  }
  return ids;
}

function requestStream(state: State, session: Session, requestKey: string, fingerprint = `fp-${requestKey}`): Stream {
  return openStream(state, session, { origin: 'request', requestKey, fingerprint });
}

function get(sessionId: string | null, lastEventId: string | null): CoreRequest {
  return { kind: 'get', sessionId, lastEventId };
}

function post(
  sessionId: string | null,
  fields: { requestKey: string | null; fingerprint?: string; lastEventId?: string | null; initialize?: boolean },
): CoreRequest {
  return {
    kind: 'post',
    sessionId,
    lastEventId: fields.lastEventId ?? null,
    initialize: fields.initialize ?? false,
    requestKey: fields.requestKey,
    fingerprint: fields.fingerprint ?? `fp-${String(fields.requestKey)}`,
  };
}

function expectStream<M>(decision: Decision<M>): Extract<Decision<M>, { kind: 'stream' }> {
  if (decision.kind !== 'stream') {
    throw new Error(`expected a stream decision, got ${decision.kind} (${decision.rule}): ${JSON.stringify(decision)}`);
  }
  return decision;
}

function expectReject<M>(decision: Decision<M>): Extract<Decision<M>, { kind: 'reject' }> {
  if (decision.kind !== 'reject') {
    throw new Error(`expected a rejection, got ${decision.kind} (${decision.rule})`);
  }
  return decision;
}

/** One session with one request stream that completed with `events` events, the last one its result. */
function completedStream(policy: CompletedStreamPolicy, events: number) {
  const state = createCoreState<Tagged>({ epoch: 'e1', completedStreamPolicy: policy });
  const session = openSession(state, 's');
  const stream = requestStream(state, session, 'r');
  const ids = emit(state, session, stream, events, { terminalLast: true });
  return { state, session, stream, ids };
}

function replayedSeqs(decision: Decision<Tagged>): number[] {
  return expectStream(decision).replay.map((event) => event.message.seq);
}

/** Two live sessions in one epoch, each with one request stream of `eventsEach` events. */
function twoSessions(options?: { windowEventsMax?: number; eventsEach?: number }) {
  const state = createCoreState<Tagged>({ epoch: 'e1', windowEventsMax: options?.windowEventsMax ?? 16 });
  const alice = openSession(state, 'alice');
  const bob = openSession(state, 'bob');
  const aliceStream = requestStream(state, alice, 'a-1');
  const bobStream = requestStream(state, bob, 'b-1');
  const eventsEach = options?.eventsEach ?? 4;
  const aliceIds = emit(state, alice, aliceStream, eventsEach);
  const bobIds = emit(state, bob, bobStream, eventsEach);
  return { state, alice, bob, aliceStream, bobStream, aliceIds, bobIds };
}

// Typed as a Record over Rule so that adding or renaming a row of the table fails to compile here.
const RULES: Record<Rule, true> = {
  initialize: true,
  'no-session-header': true,
  'session-not-live': true,
  'post-ignores-cursor': true,
  'notification-accepted': true,
  'duplicate-request-attaches': true,
  'request-id-reused': true,
  'request-in-flight': true,
  'stream-limit': true,
  'standalone-get': true,
  'cursor-malformed': true,
  'cursor-foreign': true,
  'resume-open': true,
  'resume-outside-window': true,
  'completed-nothing-missed': true,
  'completed-replay-tail': true,
  'completed-fresh-silent': true,
  'completed-fresh-reset': true,
  'completed-replay-unsent': true,
  'aborted-stream': true,
  'superseded-stream': true,
  'delete-session': true,
  'modern-execute': true,
  'modern-notification': true,
  'modern-only-method-not-allowed': true,
  'modern-only-legacy-refused': true,
};

describe('decideRequest: one row of the decision table per Rule', () => {
  it('initialize: an initialize POST starts a session whatever session header and cursor it carries', () => {
    const { state, alice, aliceIds } = twoSessions();
    endSession(alice, 'expired');
    // A dead session's header and a cursor on an initialize must neither 404 nor resume anything.
    const decision = decideRequest(state, post('alice', { requestKey: '1', initialize: true, lastEventId: aliceIds[0] }));
    expect(decision).toEqual({ kind: 'initialize', rule: 'initialize' });
    const noHeader = decideRequest(state, post(null, { requestKey: '1', initialize: true }));
    expect(noHeader.rule).toBe('initialize');
  });

  it('no-session-header: a request without Mcp-Session-Id gets 400, even with a valid cursor that names a live session', () => {
    const { state, aliceIds } = twoSessions();
    // A naive server could find the session from the cursor alone; the cursor is never a session handle.
    for (const sessionId of [null, '']) {
      const decision = expectReject(decideRequest(state, get(sessionId, aliceIds[1] ?? null)));
      expect(decision.rule).toBe('no-session-header');
      expect(decision.status).toBe(400);
      expect(expectReject(decideRequest(state, post(sessionId, { requestKey: '9' }))).status).toBe(400);
      expect(expectReject(decideRequest(state, { kind: 'delete', sessionId })).status).toBe(400);
    }
  });

  it('session-not-live: an ended session gets 404 and its own cursor is never consulted (seed 004)', () => {
    const { state, alice, aliceIds } = twoSessions();
    endSession(alice, 'expired');
    for (const request of [
      get('alice', aliceIds[0] ?? null),
      get('alice', null),
      post('alice', { requestKey: 'new' }),
      post('alice', { requestKey: 'a-1' }),
      { kind: 'delete', sessionId: 'alice' } as const,
    ]) {
      const decision = expectReject(decideRequest(state, request));
      expect(decision.rule).toBe('session-not-live');
      expect(decision.status).toBe(404);
    }
    expect(expectReject(decideRequest(state, get('alice', null))).detail).toBe('session expired');
  });

  it('session-not-live: an unknown session ID gets 404 even when the cursor it carries is valid for a live session', () => {
    const { state, bobIds } = twoSessions();
    // Seed 004's restart: a client of a dead incarnation presents its old session ID and a cursor that happens
    // to be resolvable here. Replaying by cursor alone would leak bob's events to it.
    const decision = expectReject(decideRequest(state, get('carol', bobIds[0] ?? null)));
    expect(decision.rule).toBe('session-not-live');
    expect(decision.status).toBe(404);
    expect(decision.detail).toBe('session not found');
  });

  it('session-not-live: an ID reused by a later epoch is a new session there, and the old epoch answers 404 after it ended', () => {
    const before = createCoreState<Tagged>({ epoch: 'before' });
    const old = openSession(before, 's');
    const oldStream = requestStream(before, old, 'r');
    const oldIds = emit(before, old, oldStream, 3);
    endSession(old, 'deleted');
    expect(expectReject(decideRequest(before, get('s', oldIds[0] ?? null))).status).toBe(404);
    const after = createCoreState<Tagged>({ epoch: 'after' });
    // Not known in the new epoch at all until it is opened again.
    expect(expectReject(decideRequest(after, get('s', oldIds[0] ?? null))).rule).toBe('session-not-live');
  });

  it('post-ignores-cursor: a new request with a valid cursor of an open stream is executed, nothing replayed', () => {
    const { state, alice, aliceIds } = twoSessions();
    // A proxy attached the cursor of alice's live stream to a new POST: a naive server would replay events 2..4
    // of that stream into the new request's response (seed 000).
    const decision = decideRequest(state, post('alice', { requestKey: 'a-2', lastEventId: aliceIds[0] }));
    expect(decision).toEqual({ kind: 'execute', rule: 'post-ignores-cursor', session: alice });
    expect('replay' in decision).toBe(false);
    // Also with a cursor into a completed stream: still a plain execution.
    const done = requestStream(state, alice, 'a-3');
    const doneIds = emit(state, alice, done, 2, { terminalLast: true });
    const again = decideRequest(state, post('alice', { requestKey: 'a-4', lastEventId: doneIds[0] }));
    expect(again.kind).toBe('execute');
    expect(again.rule).toBe('post-ignores-cursor');
  });

  it('notification-accepted: a notification POST is accepted, never a replay, even with a valid cursor attached', () => {
    const { state, alice, aliceIds } = twoSessions();
    const decision = decideRequest(state, post('alice', { requestKey: null, lastEventId: aliceIds[0] }));
    expect(decision).toEqual({ kind: 'accept', rule: 'notification-accepted', session: alice });
    // A notification takes no stream: accepted even when the session has no stream left.
    const full = createCoreState<Tagged>({ epoch: 'e', streamsPerSessionMax: 1 });
    const session = openSession(full, 's');
    requestStream(full, session, 'only');
    expect(decideRequest(full, post('s', { requestKey: null })).rule).toBe('notification-accepted');
  });

  it('duplicate-request-attaches: the same request sent again joins the original stream from its start, never executes again', () => {
    const { state, alice, aliceStream } = twoSessions();
    // A naive server executes every POST: a retrying proxy then runs a non-idempotent tool twice.
    const decision = expectStream(decideRequest(state, post('alice', { requestKey: 'a-1', fingerprint: 'fp-a-1' })));
    expect(decision.rule).toBe('duplicate-request-attaches');
    expect(decision.session).toBe(alice);
    expect(decision.stream).toBe(aliceStream);
    expect(replayedSeqs(decision)).toEqual([1, 2, 3, 4]);
    expect(decision.replay.every((event) => event.message.sessionId === 'alice' && event.message.streamIndex === 1)).toBe(true);
    expect(decision.reset).toBeNull();
    expect(decision.then).toBe('live');
    // Re-sent after the result: the whole stream, result included, then the end.
    emit(state, alice, aliceStream, 1, { terminalLast: true });
    const afterResult = expectStream(decideRequest(state, post('alice', { requestKey: 'a-1', fingerprint: 'fp-a-1' })));
    expect(afterResult.rule).toBe('duplicate-request-attaches');
    expect(replayedSeqs(afterResult)).toEqual([1, 2, 3, 4, 5]);
    expect(afterResult.then).toBe('end');
  });

  it('duplicate-request-attaches: a re-send is answered even when the session has no stream left (the ledger comes before the limit)', () => {
    const state = createCoreState<Tagged>({ epoch: 'e', streamsPerSessionMax: 1 });
    const session = openSession(state, 's');
    const stream = requestStream(state, session, 'k');
    emit(state, session, stream, 2);
    const decision = decideRequest(state, post('s', { requestKey: 'k', fingerprint: 'fp-k' }));
    expect(decision.rule).toBe('duplicate-request-attaches');
    expect(decideRequest(state, post('s', { requestKey: 'other' })).rule).toBe('stream-limit');
  });

  it('duplicate-request-attaches: a re-send of a request whose stream was aborted gets the abort signalled, not a silent empty stream', () => {
    const state = createCoreState<Tagged>({ epoch: 'e' });
    const session = openSession(state, 's');
    const stream = requestStream(state, session, 'k');
    emit(state, session, stream, 2);
    abortStream(stream);
    const decision = expectStream(decideRequest(state, post('s', { requestKey: 'k', fingerprint: 'fp-k' })));
    expect(decision.rule).toBe('aborted-stream');
    expect(decision.replay).toEqual([]);
    expect(decision.reset).toEqual({ reason: 'aborted', missedFromSeq: 1, missedToSeq: 2 });
    expect(decision.then).toBe('end');
  });

  it('request-id-reused: a request id reused for different content gets 409, not the old result, and is not executed', () => {
    const { state, aliceStream, alice } = twoSessions();
    emit(state, alice, aliceStream, 1, { terminalLast: true });
    // A client that re-initialised and restarted its id counter: attaching it to the old stream would hand it
    // another call's result; executing it would break the ledger.
    const decision = expectReject(decideRequest(state, post('alice', { requestKey: 'a-1', fingerprint: 'something-else' })));
    expect(decision.rule).toBe('request-id-reused');
    expect(decision.status).toBe(409);
    // The same id in another session is that session's business: bob's ledger has no 'a-1'.
    expect(decideRequest(state, post('bob', { requestKey: 'a-1', fingerprint: 'something-else' })).rule).toBe('post-ignores-cursor');
  });

  it('stream-limit: a new request past streamsPerSessionMax gets 429, counted per session', () => {
    const state = createCoreState<Tagged>({ epoch: 'e', streamsPerSessionMax: 2 });
    const full = openSession(state, 'full');
    const other = openSession(state, 'other');
    requestStream(state, full, 'r1');
    openStream(state, full, { origin: 'standalone' });
    const decision = expectReject(decideRequest(state, post('full', { requestKey: 'r2' })));
    expect(decision.rule).toBe('stream-limit');
    expect(decision.status).toBe(429);
    expect(decideRequest(state, post('other', { requestKey: 'r2' })).rule).toBe('post-ignores-cursor');
    expect(canOpenStream(state, other)).toBe(true);
  });

  it('stream-limit: a standalone GET past streamsPerSessionMax gets 429 instead of a decision that cannot be carried out', () => {
    const state = createCoreState<Tagged>({ epoch: 'e', streamsPerSessionMax: 1 });
    const session = openSession(state, 's');
    requestStream(state, session, 'r1');
    const decision = expectReject(decideRequest(state, get('s', null)));
    expect(decision.rule).toBe('stream-limit');
    expect(decision.status).toBe(429);
    expect(canOpenStream(state, session)).toBe(false);
  });

  it('standalone-get: a GET without a cursor (or with an empty one) opens the standalone stream, no replay', () => {
    const { state, alice } = twoSessions();
    for (const lastEventId of [null, '']) {
      expect(decideRequest(state, get('alice', lastEventId))).toEqual({ kind: 'standalone', rule: 'standalone-get', session: alice });
    }
  });

  it('cursor-malformed: a GET whose cursor is not an event ID of this core gets 400', () => {
    const { state } = twoSessions();
    for (const lastEventId of ['garbage', 'e1.1.1', 'e1.1.1.1.1', 'e1.01.1.1', 'e1.1.1.0', 'e1.1.1.1234567890123456', 'e 1.1.1.1', 'x'.repeat(300)]) {
      const decision = expectReject(decideRequest(state, get('alice', lastEventId)));
      expect(decision.rule, lastEventId).toBe('cursor-malformed');
      expect(decision.status).toBe(400);
    }
  });

  it('cursor-foreign: a cursor of another session whose stream and seq also exist in the presenting session gets 409, no replay', () => {
    const { state, aliceIds, bobIds, bobStream } = twoSessions();
    // bob presents alice's cursor 'e1.1.1.2'. bob also has a stream 1 with an event 2, so a server that looks
    // cursors up by stream+seq within the presenting session would replay bob's own events 3..4 as a "resume";
    // one that looks them up globally would replay alice's (seed 004).
    expect(bobStream.index).toBe(1);
    expect(bobStream.seqLast).toBeGreaterThanOrEqual(2);
    const decision = expectReject(decideRequest(state, get('bob', aliceIds[1] ?? null)));
    expect(decision.rule).toBe('cursor-foreign');
    expect(decision.status).toBe(409);
    expect(decision.detail).toBe('Last-Event-ID belongs to another session');
    // The owner may still use it.
    expect(decideRequest(state, get('alice', aliceIds[1] ?? null)).rule).toBe('resume-open');
    expect(decideRequest(state, get('alice', bobIds[1] ?? null)).rule).toBe('cursor-foreign');
  });

  it('cursor-foreign: a cursor of an earlier epoch gets 409 even when the same session ID was reissued with the same indexes', () => {
    // Two incarnations, the same session ID opened first in each, the same request stream, the same number of
    // events: the cursors differ only in their epoch. Ignoring the epoch would replay the new incarnation's events.
    const before = createCoreState<Tagged>({ epoch: 'before' });
    const after = createCoreState<Tagged>({ epoch: 'after' });
    const oldSession = openSession(before, 's');
    const oldIds = emit(before, oldSession, requestStream(before, oldSession, 'r'), 4);
    const session = openSession(after, 's');
    const stream = requestStream(after, session, 'r');
    const newIds = emit(after, session, stream, 4);
    expect(oldIds[1]?.replace('before', 'after')).toBe(newIds[1]);
    const decision = expectReject(decideRequest(after, get('s', oldIds[1] ?? null)));
    expect(decision.rule).toBe('cursor-foreign');
    expect(decision.status).toBe(409);
    expect(decision.detail).toBe('Last-Event-ID was issued by another server incarnation');
  });

  it('cursor-foreign: a cursor never issued (future seq, unknown stream, seq beyond the safe range) gets 409', () => {
    const { state, aliceStream } = twoSessions();
    const forged = [
      formatEventId({ epoch: 'e1', sessionIndex: 1, streamIndex: 1, seq: aliceStream.seqLast + 1 }),
      formatEventId({ epoch: 'e1', sessionIndex: 1, streamIndex: 2, seq: 1 }),
      formatEventId({ epoch: 'e1', sessionIndex: 1, streamIndex: 1, seq: 999_999_999_999_999 }),
      formatEventId({ epoch: 'e1', sessionIndex: 3, streamIndex: 1, seq: 1 }),
    ];
    for (const lastEventId of forged) {
      const decision = expectReject(decideRequest(state, get('alice', lastEventId)));
      expect(decision.rule, lastEventId).toBe('cursor-foreign');
      expect(decision.status).toBe(409);
    }
  });

  it('resume-open: replays strictly after the cursor, that stream only, then live', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1' });
    const session = openSession(state, 's');
    const first = requestStream(state, session, 'r1');
    const second = requestStream(state, session, 'r2');
    // Interleave the two streams so a per-session (rather than per-stream) buffer would mix them.
    const firstIds: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      firstIds.push(...emit(state, session, first, 1));
      emit(state, session, second, 1);
    }
    const decision = expectStream(decideRequest(state, get('s', firstIds[1] ?? null)));
    expect(decision.rule).toBe('resume-open');
    expect(decision.stream).toBe(first);
    expect(decision.replay.map((event) => event.id)).toEqual(firstIds.slice(2));
    expect(decision.replay.every((event) => event.message.streamIndex === first.index)).toBe(true);
    expect(decision.reset).toBeNull();
    expect(decision.then).toBe('live');
    // At the head: nothing to replay, still live.
    const atHead = expectStream(decideRequest(state, get('s', firstIds[3] ?? null)));
    expect(atHead.rule).toBe('resume-open');
    expect(atHead.replay).toEqual([]);
    expect(atHead.then).toBe('live');
  });

  it('resume-open: a cursor already evicted from the window still resumes when its successor is retained', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1', windowEventsMax: 2 });
    const session = openSession(state, 's');
    const stream = requestStream(state, session, 'r');
    const ids = emit(state, session, stream, 5);
    // Retained: 4, 5. Cursor 3 is gone but nothing after it is: "is the cursor in my buffer?" would refuse it.
    expect(stream.retained.map((event) => event.seq)).toEqual([4, 5]);
    const decision = expectStream(decideRequest(state, get('s', ids[2] ?? null)));
    expect(decision.rule).toBe('resume-open');
    expect(replayedSeqs(decision)).toEqual([4, 5]);
    expect(decision.reset).toBeNull();
  });

  it('resume-outside-window: when the event after the cursor was evicted, nothing is replayed and the gap is signalled', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1', windowEventsMax: 2 });
    const session = openSession(state, 's');
    const stream = requestStream(state, session, 'r');
    const ids = emit(state, session, stream, 5);
    // Cursor 2: event 3 is gone. Replaying the retained 4, 5 would skip 3 silently (no-silent-gap).
    const decision = expectStream(decideRequest(state, get('s', ids[1] ?? null)));
    expect(decision.rule).toBe('resume-outside-window');
    expect(decision.replay).toEqual([]);
    expect(decision.reset).toEqual({ reason: 'gap', missedFromSeq: 3, missedToSeq: 5 });
    expect(decision.then).toBe('live');
  });

  it('resume-outside-window: a cursor before the result of a completed stream outside the window is signalled and ends', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1', windowEventsMax: 1 });
    const session = openSession(state, 's');
    const stream = requestStream(state, session, 'r');
    const ids = emit(state, session, stream, 3, { terminalLast: true });
    const decision = expectStream(decideRequest(state, get('s', ids[0] ?? null)));
    expect(decision.rule).toBe('resume-outside-window');
    expect(decision.replay).toEqual([]);
    expect(decision.reset).toEqual({ reason: 'gap', missedFromSeq: 2, missedToSeq: 3 });
    expect(decision.then).toBe('end');
  });

  it('completed-nothing-missed: a cursor at the result of a completed stream gets an empty stream that ends, not a live one', () => {
    // Under every policy: the client has the result; staying live would hang it, replaying would duplicate it.
    for (const policy of [replayTail, freshLiteral, freshWithReset]) {
      const { state, ids } = completedStream(policy, 3);
      const decision = expectStream(decideRequest(state, get('s', ids[2] ?? null)));
      expect(decision.rule, policy.name).toBe('completed-nothing-missed');
      expect(decision.replay).toEqual([]);
      expect(decision.reset).toBeNull();
      expect(decision.then).toBe('end');
    }
  });

  it('completed-replay-tail: a cursor before the result replays the missed tail with the result once, then ends (not seed 000 literally)', () => {
    const { state, stream, ids } = completedStream(replayTail, 4);
    // Everything was written on a connection: replay-tail replays it regardless.
    recordSent(stream, 4);
    // Seed 000's literal rule answers a fresh empty stream here and the client never gets its result.
    const decision = expectStream(decideRequest(state, get('s', ids[1] ?? null)));
    expect(decision.rule).toBe('completed-replay-tail');
    expect(replayedSeqs(decision)).toEqual([3, 4]);
    expect(decision.replay.at(-1)?.seq).toBe(stream.seqTerminal);
    expect(decision.reset).toBeNull();
    expect(decision.then).toBe('end');
  });

  it('completed-replay-unsent: the reference policy replays what was never written and signals what was', () => {
    const { state, stream, ids } = completedStream(replayUnsent, 4);
    expect(createCoreState({ epoch: 'default' }).config.completedStreamPolicy).toBe(replayUnsent);
    // Events 1..2 were written on a connection (possibly delivered); 3..4 never were (the client was cut before).
    recordSent(stream, 2);
    const decision = expectStream(decideRequest(state, get('s', ids[0] ?? null)));
    expect(decision.rule).toBe('completed-replay-unsent');
    expect(replayedSeqs(decision)).toEqual([3, 4]);
    expect(decision.reset).toEqual({ reason: 'possibly-delivered', missedFromSeq: 2, missedToSeq: 2 });
    expect(decision.then).toBe('end');
    // Seed 000's incident: the result itself was written; a cursor before it gets no second copy, only the signal.
    recordSent(stream, 4);
    const incident = expectStream(decideRequest(state, get('s', ids[1] ?? null)));
    expect(incident.replay).toEqual([]);
    expect(incident.reset).toEqual({ reason: 'possibly-delivered', missedFromSeq: 3, missedToSeq: 4 });
    // Nothing written after the cursor: nothing withheld, no reset.
    const stream2 = completedStream(replayUnsent, 3);
    recordSent(stream2.stream, 1);
    const clean = expectStream(decideRequest(stream2.state, get('s', stream2.ids[0] ?? null)));
    expect(replayedSeqs(clean)).toEqual([2, 3]);
    expect(clean.reset).toBeNull();
  });

  it('request-in-flight: a request ID whose stream is open and carried by a connection is refused, same content or not', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1' });
    const session = openSession(state, 's');
    const stream = requestStream(state, session, '7');
    emit(state, session, stream, 2);
    setStreamAttached(stream, true);
    const same = expectReject(decideRequest(state, post('s', { requestKey: '7' })));
    expect(same.rule).toBe('request-in-flight');
    expect(same.status).toBe(409);
    const other = expectReject(decideRequest(state, post('s', { requestKey: '7', fingerprint: 'other' })));
    expect(other.rule).toBe('request-id-reused');
    // Once no connection carries it, a re-send joins it (duplicate-request-attaches), with what was written signalled.
    setStreamAttached(stream, false);
    recordSent(stream, 2);
    const joined = expectStream(decideRequest(state, post('s', { requestKey: '7' })));
    expect(joined.rule).toBe('duplicate-request-attaches');
    expect(joined.replay).toEqual([]);
    expect(joined.reset).toEqual({ reason: 'possibly-delivered', missedFromSeq: 1, missedToSeq: 2 });
  });

  it('completed-fresh-silent: the fresh-literal policy answers an empty ended stream and loses the result silently', () => {
    const { state, ids } = completedStream(freshLiteral, 4);
    const decision = expectStream(decideRequest(state, get('s', ids[1] ?? null)));
    expect(decision.rule).toBe('completed-fresh-silent');
    expect(decision.replay).toEqual([]);
    // This is the documented defect of the literal rule: no reset, so nothing tells the client.
    expect(decision.reset).toBeNull();
    expect(decision.then).toBe('end');
  });

  it('completed-fresh-reset: the fresh-with-reset policy replays nothing and signals the withheld result', () => {
    const { state, ids } = completedStream(freshWithReset, 4);
    const decision = expectStream(decideRequest(state, get('s', ids[0] ?? null)));
    expect(decision.rule).toBe('completed-fresh-reset');
    expect(decision.replay).toEqual([]);
    expect(decision.reset).toEqual({ reason: 'result-withheld', missedFromSeq: 2, missedToSeq: 4 });
    expect(decision.then).toBe('end');
  });

  it('aborted-stream: a cursor into an aborted stream gets no replay (the events are still buffered) and an abort signal', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1' });
    const session = openSession(state, 's');
    const stream = requestStream(state, session, 'r');
    const ids = emit(state, session, stream, 4);
    abortStream(stream);
    // The events 2..4 are physically present; presence is not authorisation (seed 004).
    expect(stream.retained).toHaveLength(4);
    const decision = expectStream(decideRequest(state, get('s', ids[0] ?? null)));
    expect(decision.rule).toBe('aborted-stream');
    expect(decision.replay).toEqual([]);
    expect(decision.reset).toEqual({ reason: 'aborted', missedFromSeq: 2, missedToSeq: 4 });
    expect(decision.then).toBe('end');
    // At the last event: nothing missed, but the stream still ends with the abort signalled (an empty range).
    const atEnd = expectStream(decideRequest(state, get('s', ids[3] ?? null)));
    expect(atEnd.rule).toBe('aborted-stream');
    expect(atEnd.reset).toEqual({ reason: 'aborted', missedFromSeq: 5, missedToSeq: 4 });
    expect(atEnd.then).toBe('end');
  });

  it('superseded-stream: a cursor into a standalone stream replaced by a second standalone GET gets no replay and a signal', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1' });
    const session = openSession(state, 's');
    const first = openStream(state, session, { origin: 'standalone' });
    const firstIds = emit(state, session, first, 3);
    const second = openStream(state, session, { origin: 'standalone' });
    const secondIds = emit(state, session, second, 3);
    expect(first.status).toBe('superseded');
    const decision = expectStream(decideRequest(state, get('s', firstIds[0] ?? null)));
    expect(decision.rule).toBe('superseded-stream');
    expect(decision.stream).toBe(first);
    // Not the new standalone stream's events either: they were never addressed to this connection's stream.
    expect(decision.replay).toEqual([]);
    expect(decision.reset).toEqual({ reason: 'superseded', missedFromSeq: 2, missedToSeq: 3 });
    expect(decision.then).toBe('end');
    const current = expectStream(decideRequest(state, get('s', secondIds[0] ?? null)));
    expect(current.rule).toBe('resume-open');
    expect(replayedSeqs(current)).toEqual([2, 3]);
  });

  it('delete-session: DELETE of a live session is granted for that session only; afterwards it is 404', () => {
    const { state, alice, bob } = twoSessions();
    expect(decideRequest(state, { kind: 'delete', sessionId: 'alice' })).toEqual({ kind: 'delete', rule: 'delete-session', session: alice });
    endSession(alice, 'deleted');
    expect(expectReject(decideRequest(state, { kind: 'delete', sessionId: 'alice' })).status).toBe(404);
    expect(decideRequest(state, { kind: 'delete', sessionId: 'bob' })).toEqual({ kind: 'delete', rule: 'delete-session', session: bob });
  });

  it('modern-execute: a 2026-07-28 request executes fresh in no session, whatever Mcp-Session-Id and Last-Event-ID a proxy attached', () => {
    const { state, alice, aliceIds } = twoSessions();
    for (const sessionId of [null, alice.id, 'no-such-session']) {
      const decision = decideRequest(state, { ...post(sessionId, { requestKey: '1', lastEventId: aliceIds[1] ?? null }), modern: true });
      expect(decision.kind).toBe('execute');
      expect(decision.rule).toBe('modern-execute');
      // The stateless record: no session, never in the session map.
      expect(decision.kind === 'execute' ? decision.session : null).toBe(state.stateless);
    }
    expect(state.sessions.has('')).toBe(false);
  });

  it('modern-execute: a 2026-07-28 request ID matching one still in flight is its own exchange, executed (the server cannot tell requestors apart)', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1' });
    requestStream(state, state.stateless, '7');
    expect(decideRequest(state, { ...post(null, { requestKey: '7' }), modern: true }).rule).toBe('modern-execute');
    // Its stream opens beside the first (a legacy ledger would throw).
    expect(() => requestStream(state, state.stateless, '7')).not.toThrow();
  });

  it('modern-notification: a 2026-07-28 notification is accepted with no session', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1' });
    const decision = decideRequest(state, { ...post('stale', { requestKey: null }), modern: true });
    expect(decision).toEqual({ kind: 'accept', rule: 'modern-notification', session: state.stateless });
  });

  it('modern-only-method-not-allowed: a 2026-07-28-only endpoint answers GET and DELETE with 405, with or without a session', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1', modernOnly: true });
    for (const request of [get(null, null), get('s', 'e1.1.1.1'), { kind: 'delete', sessionId: null } as const, { kind: 'delete', sessionId: 's', modern: true } as const]) {
      const decision = expectReject(decideRequest(state, request));
      expect(decision.status).toBe(405);
      expect(decision.rule).toBe('modern-only-method-not-allowed');
    }
    // A dual-era endpoint answers a 2026-07-28 GET as its legacy path does: 400 without a session.
    const dual = createCoreState<Tagged>({ epoch: 'e1' });
    expect(expectReject(decideRequest(dual, { kind: 'get', sessionId: null, lastEventId: null, modern: true })).status).toBe(400);
  });

  it('modern-only-legacy-refused: a 2026-07-28-only endpoint refuses a legacy request (an initialize among them) with 400', () => {
    const state = createCoreState<Tagged>({ epoch: 'e1', modernOnly: true });
    const decision = expectReject(decideRequest(state, post(null, { requestKey: '1', initialize: true })));
    expect(decision.status).toBe(400);
    expect(decision.rule).toBe('modern-only-legacy-refused');
    expect(decideRequest(state, { ...post(null, { requestKey: '1' }), modern: true }).rule).toBe('modern-execute');
  });

  it('every Rule of the table has a test above whose title starts with the rule name', () => {
    // A new row added to decide.ts without a test breaks the type of RULES; a row whose test is removed fails here.
    const source = readFileSync(fileURLToPath(import.meta.url), 'utf8');
    const missing = Object.keys(RULES).filter((rule) => !source.includes(`it('${rule}: `));
    expect(missing).toEqual([]);
  });
});

describe('event-id: format and parse', () => {
  it('round trip: parse(format(parts)) gives the parts back, including the largest safe index', () => {
    for (const parts of [
      { epoch: 'e', sessionIndex: 1, streamIndex: 1, seq: 1 },
      { epoch: 'A-b_9', sessionIndex: 12, streamIndex: 345, seq: 6789 },
      { epoch: 'x'.repeat(64), sessionIndex: 999_999_999_999_999, streamIndex: 999_999_999_999_999, seq: 999_999_999_999_999 },
    ]) {
      const text = formatEventId(parts);
      expect(parseEventId(text)).toEqual({ ok: true, parts });
    }
  });

  it('malformed: empty string and non-string input are refused as empty, without throwing', () => {
    for (const input of ['', undefined, null, 42, {}, [], Symbol('x'), 1n]) {
      expect(parseEventId(input)).toEqual({ ok: false, malformation: 'empty' });
    }
  });

  it('malformed: longer than EVENT_ID_LENGTH_MAX is refused before parsing', () => {
    const long = `e.1.1.${'1'.repeat(EVENT_ID_LENGTH_MAX)}`;
    expect(parseEventId(long)).toEqual({ ok: false, malformation: 'too-long' });
    const epochAtLimit = 'e'.repeat(64);
    expect(parseEventId(`${epochAtLimit}.1.1.1`).ok).toBe(true);
  });

  it('malformed: wrong field count is a shape error', () => {
    for (const text of ['e', 'e.1', 'e.1.1', 'e.1.1.1.1', '....', 'e.1.1.1.', '.e.1.1.1']) {
      expect(parseEventId(text), text).toEqual({ ok: false, malformation: 'shape' });
    }
  });

  it('malformed: an epoch with characters outside [A-Za-z0-9_-], or longer than 64, is an epoch error', () => {
    for (const epoch of ['', 'e ', 'é', 'e/1', 'e:1', 'e+1', '💥', 'x'.repeat(65), 'e\n']) {
      expect(parseEventId(`${epoch}.1.1.1`), JSON.stringify(epoch)).toEqual({ ok: false, malformation: 'epoch' });
      expect(isValidEpochToken(epoch)).toBe(false);
    }
  });

  it('malformed: zero, leading zeros, signs, exponents, hex, blanks and numbers over 15 digits are number errors', () => {
    for (const field of ['0', '01', '-1', '+1', '1e3', '0x1', ' 1', '1 ', '1.5', '', '1234567890123456', '9007199254740993', 'NaN', 'Infinity']) {
      for (const text of [`e.${field}.1.1`, `e.1.${field}.1`, `e.1.1.${field}`]) {
        const parsed = parseEventId(text);
        expect(parsed.ok, text).toBe(false);
        // '1.5' adds a field, so it is a shape error; every other one is a number error.
        expect(parsed, text).toEqual({ ok: false, malformation: field === '1.5' ? 'shape' : 'number' });
      }
    }
  });

  it('format: every issued ID parses back to where it was issued', () => {
    const { state, alice, aliceStream, bobIds } = twoSessions();
    const id = emit(state, alice, aliceStream, 1)[0] ?? '';
    expect(parseEventId(id)).toEqual({ ok: true, parts: { epoch: 'e1', sessionIndex: 1, streamIndex: 1, seq: 5 } });
    expect(parseEventId(bobIds[0])).toEqual({ ok: true, parts: { epoch: 'e1', sessionIndex: 2, streamIndex: 1, seq: 1 } });
  });
});
