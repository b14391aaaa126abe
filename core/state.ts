// The decision core's world: sessions, their streams with bounded replay buffers, and the request ledger.
// Plain values passed explicitly; the functions here are the only ones that change them.

import { eventIdPrefix, isValidEpochToken } from './event-id.ts';
import { type CompletedStreamPolicy, replayUnsent } from './policy.ts';

/** Lifecycle of a logical SSE event sequence. */
export type StreamStatus = 'open' | 'completed' | 'aborted' | 'superseded';
/** Lifecycle of an `Mcp-Session-Id` on the server. */
export type SessionStatus = 'live' | 'expired' | 'deleted';
/** What opened a stream: a POSTed request, or the standalone GET. */
export type StreamOrigin = 'request' | 'standalone';

/** One event kept for replay. */
export interface BufferedEvent<M> {
  readonly id: string;
  readonly seq: number;
  readonly message: M;
}

/** One logical stream of a session. */
export interface StreamRecord<M> {
  readonly index: number;
  readonly sessionIndex: number;
  readonly origin: StreamOrigin;
  status: StreamStatus;
  /** Sequence number of the last event issued on this stream; 0 before the first. */
  seqLast: number;
  /** Sequence number of the terminal event (the result) once the stream completed; 0 otherwise. */
  seqTerminal: number;
  /**
   * The highest sequence number the server wrote on a connection (0 when it never wrote one), as the server knows it:
   * a written event may still have been lost on the way (TCP does not tell), so events up to it are *possibly
   * delivered*, those after it certainly not. Servers that cannot see their writes (an SDK event store) leave it 0.
   */
  seqSent: number;
  /** Sequence number of the stream's priming event (an ID with empty data), 0 when it has none. */
  seqPriming: number;
  /** True while a connection carries the stream (a request's own POST response or a resume). */
  attached: boolean;
  /** The retained tail of the stream: contiguous, ascending, ending at `seqLast`. */
  retained: BufferedEvent<M>[];
  /** The ledger key of the request that opened the stream, for request streams. */
  readonly requestKey: string | null;
  /** Every event ID of the stream without its sequence number: `{epoch}.{session}.{stream}.` */
  readonly idPrefix: string;
}

/** What the ledger keeps of one request: enough to recognise a re-send and to answer it. */
export interface LedgerEntry {
  readonly fingerprint: string;
  readonly streamIndex: number;
}

/** One session of the current epoch. Ended sessions stay as tombstones so they keep answering 404. */
export interface SessionRecord<M> {
  readonly id: string;
  readonly index: number;
  status: SessionStatus;
  /** Streams by index - 1. */
  readonly streams: StreamRecord<M>[];
  standaloneIndex: number;
  readonly ledger: Map<string, LedgerEntry>;
  /**
   * The revision its initialize asked for, when it is one without priming events (before 2025-11-25); absent for
   * 2025-11-25 and for servers that do not say.
   */
  revision?: string;
}

/** Bounds and policies of one core. */
export interface CoreConfig {
  /** Token of this server incarnation; embedded in every event ID. */
  readonly epoch: string;
  /** Events retained per stream for replay. */
  readonly windowEventsMax: number;
  /** Streams (and so requests) a session may open; past it new ones are refused with 429. */
  readonly streamsPerSessionMax: number;
  /** What a cursor before the terminal event of a completed stream gets. */
  readonly completedStreamPolicy: CompletedStreamPolicy;
  /** True for a 2026-07-28-only endpoint: GET and DELETE get 405, legacy requests 400. Default false (dual era). */
  readonly modernOnly: boolean;
}

/** The whole state of one server incarnation. */
export interface CoreState<M> {
  readonly config: CoreConfig;
  readonly sessions: Map<string, SessionRecord<M>>;
  /** Sessions by index - 1, so a cursor's session index resolves without a search. */
  readonly sessionsByIndex: SessionRecord<M>[];
  /**
   * The 2026-07-28 requests: no session, so a record of its own (index 0, ID '', never in `sessions`) whose streams
   * are the requests' streams and whose ledger says which request IDs are in flight. Its events carry no ID that
   * could be resumed (the modern era has no resumption): the server writes them without one.
   */
  readonly stateless: SessionRecord<M>;
}

/** A mistake in how the core is called (a bug in the caller, not bad client input). */
export class CoreUsageError extends Error {
  override readonly name = 'CoreUsageError';
}

/** Defaults for real servers; the simulator sets its own, smaller bounds. */
export const CORE_DEFAULTS = {
  windowEventsMax: 256,
  streamsPerSessionMax: 10_000,
} as const;

/** Makes the state of a new server incarnation. */
export function createCoreState<M>(config: Partial<CoreConfig> & { epoch: string }): CoreState<M> {
  if (!isValidEpochToken(config.epoch)) {
    throw new CoreUsageError(`epoch token must match [A-Za-z0-9_-]{1,64}, got ${JSON.stringify(config.epoch)}`);
  }
  const full: CoreConfig = {
    windowEventsMax: config.windowEventsMax ?? CORE_DEFAULTS.windowEventsMax,
    streamsPerSessionMax: config.streamsPerSessionMax ?? CORE_DEFAULTS.streamsPerSessionMax,
    completedStreamPolicy: config.completedStreamPolicy ?? replayUnsent,
    epoch: config.epoch,
    modernOnly: config.modernOnly ?? false,
  };
  if (!(full.windowEventsMax >= 1) || !(full.streamsPerSessionMax >= 1)) {
    throw new CoreUsageError('windowEventsMax and streamsPerSessionMax must be at least 1');
  }
  const stateless: SessionRecord<M> = { id: '', index: 0, status: 'live', streams: [], standaloneIndex: 0, ledger: new Map() };
  return { config: full, sessions: new Map(), sessionsByIndex: [], stateless };
}

/** True when the stream answers a 2026-07-28 request (it belongs to no session). */
export function isStatelessStream<M>(stream: StreamRecord<M>): boolean {
  return stream.sessionIndex === 0;
}

/** Registers a new live session. Its ID must not have been used in this incarnation. */
export function openSession<M>(state: CoreState<M>, sessionId: string): SessionRecord<M> {
  if (state.sessions.has(sessionId)) throw new CoreUsageError(`session ${sessionId} already exists in this epoch`);
  const session: SessionRecord<M> = {
    id: sessionId,
    index: state.sessionsByIndex.length + 1,
    status: 'live',
    streams: [],
    standaloneIndex: 0,
    ledger: new Map(),
  };
  state.sessions.set(sessionId, session);
  state.sessionsByIndex.push(session);
  return session;
}

/** Ends a session (expiry or DELETE): its buffers are dropped and every later request gets 404. */
export function endSession<M>(session: SessionRecord<M>, how: 'expired' | 'deleted'): void {
  if (session.status !== 'live') return;
  session.status = how;
  for (const stream of session.streams) {
    if (stream.status === 'open') stream.status = 'aborted';
    stream.retained = [];
  }
}

/** True when the session may open another stream. */
export function canOpenStream<M>(state: CoreState<M>, session: SessionRecord<M>): boolean {
  return session.streams.length < state.config.streamsPerSessionMax;
}

/** Opens a stream for a request (recorded in the ledger) or a standalone stream (superseding the previous one). */
export function openStream<M>(
  state: CoreState<M>,
  session: SessionRecord<M>,
  opening: { origin: 'request'; requestKey: string; fingerprint: string } | { origin: 'standalone' },
): StreamRecord<M> {
  if (session.status !== 'live') throw new CoreUsageError(`session ${session.id} is ${session.status}`);
  if (!canOpenStream(state, session)) throw new CoreUsageError(`session ${session.id} has no stream left`);
  const stream: StreamRecord<M> = {
    index: session.streams.length + 1,
    sessionIndex: session.index,
    origin: opening.origin,
    status: 'open',
    seqLast: 0,
    seqTerminal: 0,
    seqSent: 0,
    seqPriming: 0,
    attached: false,
    retained: [],
    requestKey: opening.origin === 'request' ? opening.requestKey : null,
    idPrefix: eventIdPrefix({ epoch: state.config.epoch, sessionIndex: session.index, streamIndex: session.streams.length + 1 }),
  };
  session.streams.push(stream);
  if (opening.origin === 'request') {
    // A 2026-07-28 request ID may be used again once its request is over (only one in flight must not match).
    if (session.index !== 0 && session.ledger.has(opening.requestKey)) {
      throw new CoreUsageError(`request ${opening.requestKey} is already in the ledger of ${session.id}`);
    }
    session.ledger.set(opening.requestKey, { fingerprint: opening.fingerprint, streamIndex: stream.index });
  } else {
    const previous = session.standaloneIndex > 0 ? session.streams[session.standaloneIndex - 1] : undefined;
    if (previous !== undefined && previous.status === 'open') {
      previous.status = 'superseded';
      previous.retained = [];
    }
    session.standaloneIndex = stream.index;
  }
  return stream;
}

/**
 * Issues the next event of an open stream and keeps it for replay, dropping the oldest beyond the window.
 * With `terminal`, the event is the stream's result and the stream completes; with `priming`, it is the stream's
 * priming event (no message a client could miss).
 */
export function appendEvent<M>(
  state: CoreState<M>,
  stream: StreamRecord<M>,
  message: M,
  options?: { terminal?: boolean; priming?: boolean },
): BufferedEvent<M> {
  if (stream.status !== 'open') throw new CoreUsageError(`stream ${stream.index} is ${stream.status}`);
  const seq = stream.seqLast + 1;
  const event: BufferedEvent<M> = {
    id: stream.idPrefix + seq,
    seq,
    message,
  };
  stream.seqLast = seq;
  stream.retained.push(event);
  if (stream.retained.length > state.config.windowEventsMax) stream.retained.shift();
  if (options?.terminal === true) {
    stream.status = 'completed';
    stream.seqTerminal = seq;
  }
  if (options?.priming === true) stream.seqPriming = seq;
  return event;
}

/** The server wrote event `seq` of the stream on a connection: it may have reached the client (or been lost on the way). */
export function recordSent<M>(stream: StreamRecord<M>, seq: number): void {
  if (seq > stream.seqSent) stream.seqSent = seq;
}

/** A connection now carries the stream, or no longer does. */
export function setStreamAttached<M>(stream: StreamRecord<M>, attached: boolean): void {
  stream.attached = attached;
}

/** Ends an open stream without a result (the call was cancelled or failed without an answer). */
export function abortStream<M>(stream: StreamRecord<M>): void {
  if (stream.status === 'open') stream.status = 'aborted';
}

/** Finds a stream of a session by index. */
export function streamOf<M>(session: SessionRecord<M>, streamIndex: number): StreamRecord<M> | undefined {
  return session.streams[streamIndex - 1];
}
