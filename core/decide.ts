// The decision at the centre: is this cursor a valid continuation point for the stream this request is
// joining, in this session, in this server incarnation? Pure: reads the state, returns a decision.

import { parseEventId } from './event-id.ts';
import { type BufferedEvent, type CoreState, type SessionRecord, type StreamRecord, canOpenStream, streamOf } from './state.ts';

/** What arrives at the server, reduced to what the decision needs. */
export type CoreRequest =
  | {
      readonly kind: 'post';
      readonly sessionId: string | null;
      readonly lastEventId: string | null;
      /** True for `initialize`, which needs no session. */
      readonly initialize: boolean;
      /** Ledger key of the JSON-RPC request id (e.g. JSON of the id); null for notifications. */
      readonly requestKey: string | null;
      /** What identifies the request's content, to tell a re-send from a reused id. */
      readonly fingerprint: string;
      /**
       * True for a 2026-07-28 request (the per-request `_meta` envelope): stateless, whatever `Mcp-Session-Id` or
       * `Last-Event-ID` a proxy attached. Absent: legacy.
       */
      readonly modern?: boolean;
    }
  | { readonly kind: 'get'; readonly sessionId: string | null; readonly lastEventId: string | null; readonly modern?: boolean }
  | { readonly kind: 'delete'; readonly sessionId: string | null; readonly modern?: boolean };

/** The decision table's rows, in the table's order (docs/decision-table.md). Every decision names the row it comes from. */
export const RULES = [
  'initialize',
  'no-session-header',
  'session-not-live',
  'post-ignores-cursor',
  'notification-accepted',
  'duplicate-request-attaches',
  'request-id-reused',
  'request-in-flight',
  'stream-limit',
  'standalone-get',
  'cursor-malformed',
  'cursor-foreign',
  'resume-open',
  'resume-outside-window',
  'completed-nothing-missed',
  'completed-replay-tail',
  'completed-fresh-silent',
  'completed-fresh-reset',
  'completed-replay-unsent',
  'aborted-stream',
  'superseded-stream',
  'delete-session',
  'modern-execute',
  'modern-notification',
  'modern-only-method-not-allowed',
  'modern-only-legacy-refused',
] as const;

/** One row of the decision table. */
export type Rule = (typeof RULES)[number];

/** HTTP statuses the core refuses with. */
export type RejectStatus = 400 | 404 | 405 | 409 | 429;

/** An explicit signal that the client lost events it cannot get back. */
export interface ResetSignal {
  readonly reason: 'gap' | 'aborted' | 'superseded' | 'result-withheld' | 'possibly-delivered';
  /** First and last sequence numbers the client will never receive on this stream. */
  readonly missedFromSeq: number;
  readonly missedToSeq: number;
}

/** The core's answer to one request. */
export type Decision<M> =
  | { readonly kind: 'initialize'; readonly rule: Rule }
  | { readonly kind: 'reject'; readonly rule: Rule; readonly status: RejectStatus; readonly detail: string }
  | { readonly kind: 'execute'; readonly rule: Rule; readonly session: SessionRecord<M> }
  | { readonly kind: 'accept'; readonly rule: Rule; readonly session: SessionRecord<M> }
  | { readonly kind: 'standalone'; readonly rule: Rule; readonly session: SessionRecord<M> }
  | { readonly kind: 'delete'; readonly rule: Rule; readonly session: SessionRecord<M> }
  | {
      readonly kind: 'stream';
      readonly rule: Rule;
      readonly session: SessionRecord<M>;
      readonly stream: StreamRecord<M>;
      /** Events to send first, strictly after the cursor, in emission order, of `stream` only. */
      readonly replay: readonly BufferedEvent<M>[];
      readonly reset: ResetSignal | null;
      /** After the replay: stay attached for live events, or end the response. */
      readonly then: 'live' | 'end';
    };

function reject<M>(rule: Rule, status: RejectStatus, detail: string): Decision<M> {
  return { kind: 'reject', rule, status, detail };
}

/** Decides what one request gets. Total over all inputs: bad client input yields a rejection, never a throw. */
export function decideRequest<M>(state: CoreState<M>, request: CoreRequest): Decision<M> {
  if (request.kind === 'post' && request.modern === true) return decideModern(state, request);
  if (state.config.modernOnly) {
    // A 2026-07-28-only endpoint: no GET stream, no session to delete (405, as the revision says it SHOULD), and
    // no legacy request (no initialize, no session) to serve.
    if (request.kind !== 'post') return reject('modern-only-method-not-allowed', 405, `${request.kind.toUpperCase()} is not served: this endpoint speaks 2026-07-28 only`);
    return reject('modern-only-legacy-refused', 400, 'this endpoint speaks 2026-07-28 only: send the _meta envelope, no initialize');
  }
  // A dual-era endpoint answers a 2026-07-28 GET or DELETE as its legacy path does (400 without a session).
  if (request.kind === 'post' && request.initialize) return { kind: 'initialize', rule: 'initialize' };
  if (request.sessionId === null || request.sessionId === '') {
    return reject('no-session-header', 400, 'Mcp-Session-Id header is required');
  }
  const session = state.sessions.get(request.sessionId);
  // A session of an earlier incarnation is unknown here: its cursor is never consulted (seed 004).
  if (session === undefined || session.status !== 'live') {
    return reject('session-not-live', 404, session === undefined ? 'session not found' : `session ${session.status}`);
  }
  switch (request.kind) {
    case 'delete':
      return { kind: 'delete', rule: 'delete-session', session };
    case 'post':
      return decidePost(state, session, request);
    case 'get':
      if (request.lastEventId === null || request.lastEventId === '') {
        // A standalone stream is a stream too: past the limit, openStream could not carry the decision out.
        if (!canOpenStream(state, session)) {
          return reject('stream-limit', 429, `session has opened ${session.streams.length} streams, the most it may`);
        }
        return { kind: 'standalone', rule: 'standalone-get', session };
      }
      return decideResume(state, session, request.lastEventId);
  }
}

/**
 * A 2026-07-28 request: executed fresh, in no session, with no replay; `Mcp-Session-Id` and `Last-Event-ID` are
 * ignored (a proxy may have attached them). Each exchange is its own: its result goes on its own response, so nothing
 * is keyed by the request ID. That an ID not match one still in flight is the requestor's duty, and without a session
 * the server cannot tell requestors apart: refusing a matching ID would refuse a second client that merely numbers
 * from 1 too (swift-sdk #254/#267 refuse with 409 only as a stopgap "deferred to the stateless core").
 */
function decideModern<M>(state: CoreState<M>, request: Extract<CoreRequest, { kind: 'post' }>): Decision<M> {
  const stateless = state.stateless;
  if (request.requestKey === null) return { kind: 'accept', rule: 'modern-notification', session: stateless };
  if (!canOpenStream(state, stateless)) return reject('stream-limit', 429, `${stateless.streams.length} stateless requests, the most this server takes`);
  return { kind: 'execute', rule: 'modern-execute', session: stateless };
}

function decidePost<M>(
  state: CoreState<M>,
  session: SessionRecord<M>,
  request: Extract<CoreRequest, { kind: 'post' }>,
): Decision<M> {
  // A new request never receives a replay, whatever Last-Event-ID a proxy attached to it.
  if (request.requestKey === null) return { kind: 'accept', rule: 'notification-accepted', session };
  const entry = session.ledger.get(request.requestKey);
  if (entry === undefined) {
    if (session.streams.length >= state.config.streamsPerSessionMax) {
      return reject('stream-limit', 429, `session has opened ${session.streams.length} streams, the most it may`);
    }
    return { kind: 'execute', rule: 'post-ignores-cursor', session };
  }
  if (entry.fingerprint !== request.fingerprint) {
    return reject('request-id-reused', 409, `request id ${request.requestKey} was already used for another request`);
  }
  const stream = streamOf(session, entry.streamIndex);
  if (stream === undefined) throw new Error(`ledger names stream ${entry.streamIndex} that does not exist`);
  // Still in flight and still carried by a connection: the first request keeps its connection and its result
  // (a second one would make two live connections for one stream).
  if (stream.status === 'open' && stream.attached) {
    return reject('request-in-flight', 409, `request id ${request.requestKey} is still in flight on a connection`);
  }
  // The same request sent again (a retrying proxy): never executed twice; the re-send joins the original
  // stream from its start, so the response it carries is the original's (what was written before is signalled).
  return joinStream(session, stream, 0, 'duplicate-request-attaches', { withhold: true });
}

function decideResume<M>(state: CoreState<M>, session: SessionRecord<M>, lastEventId: string): Decision<M> {
  const parsed = parseEventId(lastEventId);
  if (!parsed.ok) return reject('cursor-malformed', 400, `Last-Event-ID is not an event ID (${parsed.malformation})`);
  const cursor = parsed.parts;
  // Ownership: the cursor must have been issued by this incarnation, to this session, on a stream it has,
  // at a position already reached. Anything else is another tenant's cursor or a forgery.
  if (cursor.epoch !== state.config.epoch) {
    return reject('cursor-foreign', 409, 'Last-Event-ID was issued by another server incarnation');
  }
  if (cursor.sessionIndex !== session.index) {
    return reject('cursor-foreign', 409, 'Last-Event-ID belongs to another session');
  }
  const stream = streamOf(session, cursor.streamIndex);
  if (stream === undefined || cursor.seq > stream.seqLast) {
    return reject('cursor-foreign', 409, 'Last-Event-ID was never issued in this session');
  }
  switch (stream.status) {
    case 'open':
      return joinStream(session, stream, cursor.seq, 'resume-open', { withhold: true });
    case 'aborted':
      return freshWithSignal(session, stream, { reason: 'aborted', cursorSeq: cursor.seq }, 'aborted-stream');
    case 'superseded':
      return freshWithSignal(session, stream, { reason: 'superseded', cursorSeq: cursor.seq }, 'superseded-stream');
    case 'completed':
      return decideCompleted(state, session, stream, cursor.seq);
  }
}

function decideCompleted<M>(
  state: CoreState<M>,
  session: SessionRecord<M>,
  stream: StreamRecord<M>,
  cursorSeq: number,
): Decision<M> {
  if (cursorSeq >= stream.seqTerminal) {
    return { kind: 'stream', rule: 'completed-nothing-missed', session, stream, replay: [], reset: null, then: 'end' };
  }
  switch (state.config.completedStreamPolicy.answer({ cursorSeq, seqTerminal: stream.seqTerminal, seqSent: stream.seqSent })) {
    case 'replay-tail':
      return joinStream(session, stream, cursorSeq, 'completed-replay-tail', { withhold: false });
    case 'replay-unsent':
      return joinStream(session, stream, cursorSeq, 'completed-replay-unsent', { withhold: true });
    case 'fresh-silent':
      return { kind: 'stream', rule: 'completed-fresh-silent', session, stream, replay: [], reset: null, then: 'end' };
    case 'fresh-with-reset':
      return freshWithSignal(session, stream, { reason: 'result-withheld', cursorSeq }, 'completed-fresh-reset');
  }
}

function freshWithSignal<M>(
  session: SessionRecord<M>,
  stream: StreamRecord<M>,
  signal: { reason: ResetSignal['reason']; cursorSeq: number },
  rule: Rule,
): Decision<M> {
  const reset: ResetSignal = { reason: signal.reason, missedFromSeq: signal.cursorSeq + 1, missedToSeq: stream.seqLast };
  return { kind: 'stream', rule, session, stream, replay: [], reset, then: 'end' };
}

/** True when events `fromSeq..toSeq` of the stream include one that carries a message (not only its priming event). */
function carriesMessages<M>(stream: StreamRecord<M>, fromSeq: number, toSeq: number): boolean {
  const count = toSeq - fromSeq + 1;
  if (count <= 0) return false;
  return count > (stream.seqPriming >= fromSeq && stream.seqPriming <= toSeq ? 1 : 0);
}

/**
 * Joins `stream` after `cursorSeq`: the retained events strictly after it, in order, then live (open) or the end
 * (completed). When the window no longer holds the event after the cursor, nothing is replayed and the gap is
 * signalled: the client must never be skipped past events silently. With `withhold`, events the server already
 * wrote on a connection (up to `seqSent`) are not replayed but signalled: the client may have them (a stale
 * cursor, a proxy) or may have lost them on the way (a lost tail), and only a reset is right in both cases.
 */
function joinStream<M>(
  session: SessionRecord<M>,
  stream: StreamRecord<M>,
  cursorSeq: number,
  rule: Rule,
  options: { withhold: boolean },
): Decision<M> {
  const then = stream.status === 'open' ? 'live' : 'end';
  if (stream.status === 'aborted' || stream.status === 'superseded') {
    return freshWithSignal(session, stream, { reason: stream.status, cursorSeq }, stream.status === 'aborted' ? 'aborted-stream' : 'superseded-stream');
  }
  const withheld = options.withhold && carriesMessages(stream, cursorSeq + 1, stream.seqSent);
  const replayAfterSeq = options.withhold ? Math.max(cursorSeq, stream.seqSent) : cursorSeq;
  const first = stream.retained[0];
  const seqFirstRetained = first === undefined ? stream.seqLast + 1 : first.seq;
  if (replayAfterSeq + 1 < seqFirstRetained) {
    const reset: ResetSignal = { reason: 'gap', missedFromSeq: cursorSeq + 1, missedToSeq: seqFirstRetained - 1 };
    // The retained events after the gap are not replayed either: a reset starts the stream afresh (seed 004).
    return { kind: 'stream', rule: 'resume-outside-window', session, stream, replay: [], reset: widenGap(reset, stream), then };
  }
  const replay = stream.retained.slice(replayAfterSeq + 1 - seqFirstRetained);
  const reset: ResetSignal | null = withheld ? { reason: 'possibly-delivered', missedFromSeq: cursorSeq + 1, missedToSeq: stream.seqSent } : null;
  return { kind: 'stream', rule, session, stream, replay, reset, then };
}

// After a gap the whole retained tail is withheld too, so the reset covers everything up to the last event.
function widenGap<M>(reset: ResetSignal, stream: StreamRecord<M>): ResetSignal {
  return { ...reset, missedToSeq: stream.seqLast };
}
