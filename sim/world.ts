// The simulated world: clients, the sessions and streams they know of, connections, calls and tool
// executions, the server incarnation. One value per run, passed explicitly; only sim/ changes it.

import { MODEL, step } from '../model/index.ts';
import type { PropertyName } from '../properties/names.ts';
import type { ClientFault } from '../properties/client-fault.ts';
import type { Frame, JsonRpcMessage, ServerInstance, TargetRun, ToolName } from '../targets/target.ts';
import type { ProtocolEra } from '../targets/target.ts';
import { type RequestIdHabit, type Revision, type SimConfig, isModernRevision } from './config.ts';
import type { Prng } from './prng.ts';
import type { Provenance } from './tools.ts';
import type { StepRecord } from './levels/records.ts';
import type { EveryViolation } from './every-violation.ts';

/** A session the simulator saw created. */
export interface SimSession {
  readonly index: number;
  readonly client: number;
  /** The incarnation that created it. */
  readonly epoch: number;
  /**
   * The `Mcp-Session-Id` the server gave it; for an {@link SimSession.unnamed} session, the simulator's own name for it
   * (`(unnamed N)`: a space, which no session ID has, so it never equals one).
   */
  readonly id: string;
  /**
   * The server's initialize answer gave no Mcp-Session-Id (2025-11-25: "A server using the Streamable HTTP transport
   * MAY assign a session ID at initialization time"): a stateless server. The client sends no session header; nothing
   * the server holds names it, so a restart does not end it, and there is no session to delete or notify.
   */
  readonly unnamed: boolean;
  /** State in MODEL.session. */
  state: number;
  /** Standalone notifications the server was asked to send to it so far. */
  notifications: number;
  /** The calls the client made in it, in order. */
  readonly calls: SimCall[];
  /** True once the liveness phase sent it its closing notification. */
  notifiedInLiveness: boolean;
  /** Bit k set: the client received standalone notification k of this session (no-duplicate-delivery's record). */
  notificationsReceived: number;
  /**
   * The protocol version the server's initialize result gave it (`result.protocolVersion`), once it arrived; null
   * before, for a result without one, and for a 2026-07-28 call's stateless context.
   */
  negotiated: string | null;
}

/**
 * How a client's wait on a stream stands. `refused` (an error status other than 404 to the client's own request)
 * is not an end: the client still waits and tries again; only a result, a reset or a 404 settles a call.
 */
export type ViewOutcome = 'pending' | 'result' | 'reset' | 'refused' | 'session-gone';

/** True when the client no longer waits on the view: it got the result, a reset, or learnt its session is gone. */
export function isSettled(outcome: ViewOutcome): boolean {
  return outcome === 'result' || outcome === 'reset' || outcome === 'session-gone';
}

/** One received event with an ID: a cursor the client may present later. */
export interface Cursor {
  readonly eventId: string;
  /** The view it was received on. */
  readonly view: number;
  /** The provenance position of the last message received on that view up to this event (0 for priming). */
  readonly k: number;
}

/** A logical stream as a client knows it: a call's stream, or one standalone GET stream. */
export interface StreamView {
  readonly index: number;
  readonly client: number;
  readonly session: SimSession;
  /** The call whose stream this is; null for a standalone stream. */
  readonly call: SimCall | null;
  /** Ground truth from the simulator's tools, in MODEL.stream. */
  stream: number;
  /** Every event with an ID received on this view, in order. */
  readonly received: Cursor[];
  /** Highest provenance position received on this view (0 before any). */
  kLast: number;
  /** The connection attached to it, or -1. */
  connection: number;
  outcome: ViewOutcome;
  /** The latest cursor received before the result, once the result arrived: a cursor "before the result". */
  beforeResult: Cursor | null;
  /** The liveness round that last resumed it (0 for none), so each round resumes a view once. */
  healed: number;
  /** Bit k set: the client received position k of the call's first execution, on any connection (no-duplicate-delivery). */
  deliveredMask: number;
  /** The cursor of the call's result (its stream's terminal event), once received with an ID. */
  terminalCursor: Cursor | null;
  /** True once the server wrote the call's result on a connection of the client: received, or lost on the way. */
  resultWritten: boolean;
  /** True once an event with a `retry:` field arrived on a connection of it (retry-before-close judges a close by it). */
  retried: boolean;
  /**
   * The first connection of it the server ended on its own with the call unanswered there (no response, no reset),
   * the session live and no retry field on the stream before, or -1: the server closed the connection with the stream
   * not over, or ended the stream without its response. retry-before-close judges it when a resume of the stream
   * carries the call's answer (the stream was not over).
   */
  unretriedEnd: number;
}

/** One logical tool invocation by a client. */
export interface SimCall {
  readonly index: number;
  /** The ID carried in the tool's arguments and in every message it causes. */
  readonly id: string;
  readonly client: number;
  /**
   * Its session; for a 2026-07-28 call, the client's stateless context ({@link statelessSession}: ID '', no session).
   * A legacy call re-issued after a 404 moves to the client's new session.
   */
  session: SimSession;
  /** Its request ID; a 2026-07-28 re-issue gives the same call a new one. */
  requestId: number;
  readonly tool: ToolName;
  /** The request body, for re-sends (a re-issue's, after one). */
  body: JsonRpcMessage;
  view: number;
  /** Executions the server started for it. */
  executions: number;
  /** For a request sent under another call's request id while that one was in flight: that call. Null otherwise. */
  readonly reuses: SimCall | null;
  /** Times a legacy client re-issued it under a new request ID after a reset or a 404 (config reissueAfterReset). */
  reissues: number;
  /** Results of it (any execution's) that arrived at its client, on any connection: more than one is a duplicate. */
  resultsReceived: number;
  /** Its own tools/call request frames the server echoed to its client, which the client has not yet sent again. */
  echoesPending: number;
}

/** One execution of a tool by the server. */
export interface SimExecution {
  readonly index: number;
  /** 1 for the first execution of its call, 2 for the second, ... */
  readonly ordinal: number;
  readonly call: SimCall | null;
  readonly callId: string;
  readonly tool: ToolName;
  readonly sessionIdSeen: string;
  readonly epoch: number;
  /** Steps taken (messages produced) so far. */
  k: number;
  readonly progressSteps: number;
  finished: boolean;
  /** True once the server reported it cancelled (TargetHost.cancelled): it is finished, without a result. */
  cancelled: boolean;
  /** The node running it (0 on a one-node target): a crash of that node ends it. */
  readonly node: number;
  /**
   * True once the 2026-07-28 exchange it answers broke before its result and the server was told (a cut): from then
   * on the server must treat it as cancelled (disconnect-cancels).
   */
  disconnected: boolean;
  /** The connection whose request started it (its exchange), or -1 when it started outside a request's handling. */
  readonly connection: number;
}

/** What a connection was opened for. */
export type ConnectionPurpose =
  | 'initialize'
  | 'initialized'
  | 'call'
  | 'resend'
  | 'reuse'
  | 'resume'
  | 'standalone'
  | 'delete'
  | 'headerless'
  /** A 2026-07-28 GET or DELETE (a client library probing the endpoint). */
  | 'probe';

/** One HTTP exchange. */
export interface SimConnection {
  readonly index: number;
  readonly client: number;
  readonly purpose: ConnectionPurpose;
  /** The action kind (sim/actions.ts's K) of the step that opened it (-2 before the first): a finding's signature names it. */
  readonly openedBy: number;
  /** The incarnation it was sent to. */
  readonly epoch: number;
  /** The session whose ID the request carried (null without the header). */
  readonly session: SimSession | null;
  /** The view its frames feed, or -1 when the client expects no stream of its own there. */
  view: number;
  /** The cursor presented, if the client presented one of its own streams' cursors. */
  readonly cursor: Cursor | null;
  /** The Last-Event-ID header sent, whatever it was. */
  readonly lastEventId: string | null;
  /** State in MODEL.connection. */
  state: number;
  status: number;
  /** The node that answered (0 on a one-node target), as its response said: a crash of that node drops it. */
  node: number;
  /** Provenance position the next message of the connection's own stream must have; null when any may come. */
  kExpected: number | null;
  /** Highest provenance position received on this connection (0 before any). */
  kLast: number;
  resetSeen: boolean;
  /** The reason the last reset on it gave (its `reason` field), or null. */
  resetReason: string | null;
  /** Frames still to be lost before a losing connection breaks (a lost tail); 0 otherwise. */
  framesToLose: number;
  /** Frames the client still receives before the network loses the rest (a lossy call's response: 1); 0 otherwise. */
  framesKept: number;
  /** The Mcp-Session-Id its response carried (null without one, or before the response). */
  sessionIdAnswered: string | null;
  /** True once a frame arrived on it (priming-event judges a stream's first). */
  framed: boolean;
  /**
   * True once a JSON-RPC response (a result or an error, to any request) arrived on it: the stream it carried, whichever
   * it was, was terminated (retry-before-close leaves such a connection's end alone).
   */
  responded: boolean;
}

/** A client of the simulated server. */
export interface SimClient {
  readonly index: number;
  /** State in MODEL.client. */
  state: number;
  session: SimSession | null;
  requestIdNext: number;
  readonly habit: RequestIdHabit;
  /** The latest cursor it received, on any stream. */
  cursorLatest: Cursor | null;
  /** The latest cursor it received in an earlier incarnation. */
  cursorPreRestart: Cursor | null;
  /**
   * Its latest cursor when a node crashed (several nodes): it becomes `cursorPreRestart` once the client is in a new
   * session, since the session itself may outlive the crash (its cursors are then no one's but its own).
   */
  cursorBeforeCrash: Cursor | null;
  /** Its current standalone view, or -1. */
  standaloneView: number;
  /** Its most recent completed call view with a cursor before the result, or -1. */
  completedView: number;
  /** Its views in its current session, in creation order. */
  readonly views: number[];
  /** Messages it received that no view or session bit records (no-duplicate-delivery), made on first need. */
  deliveredKeys: Set<string> | null;
  /** The protocol revision it speaks (sim/revisions.ts): 2026-07-28 makes it stateless (MODEL.client `stateless`). */
  readonly revision: Revision;
  /** Its 2026-07-28 calls, in order (a legacy client's are in its sessions). */
  readonly modernCalls: SimCall[];
}

/** True when the client speaks the modern (2026-07-28) revision. */
export function isModernClient(client: SimClient): boolean {
  return isModernRevision(client.revision);
}

/**
 * The context a 2026-07-28 call runs in: no session. A session-shaped value (ID '', the empty ID modern executions
 * report) so the call's stream view has the shape every other has; it is never in `world.sessions`.
 */
export function statelessSession(client: number, epoch: number): SimSession {
  return { index: -1, client, epoch, id: '', unnamed: false, state: MODEL.session.state.live, notifications: 0, calls: [], notifiedInLiveness: false, notificationsReceived: 0, negotiated: null };
}

/** How an unnamed session's ID begins: a space, which no Mcp-Session-Id has, so it never equals a server's. */
const UNNAMED_ID_PREFIX = '(unnamed ';

/** The simulator's name for the `ordinal`-th session (1-based) of a run, when the server named it by no session ID. */
export function unnamedSessionId(ordinal: number): string {
  return `${UNNAMED_ID_PREFIX}${ordinal})`;
}

/**
 * The Mcp-Session-Id header a request of session `id` carries: none for an unnamed session (SimSession.unnamed), whose
 * ID is the simulator's own; the ID otherwise. A request names its session by `id`, which the wire's markers carry.
 */
export function sessionHeaderOf(id: string | null): string | null {
  return id === null || id.startsWith(UNNAMED_ID_PREFIX) ? null : id;
}

/** Where an event ID was first delivered: the session and the stream it belongs to. */
export interface EventOwner {
  readonly session: SimSession | null;
  /** The call ID of a call's stream, or `standalone` for the session's standalone stream. */
  readonly stream: string;
}

/** A property violation: a bug in the target, as data. */
export interface Violation {
  readonly property: PropertyName;
  /** The step (0-based) during which it was observed; equal to the step count for the liveness phase. */
  readonly step: number;
  /** One or two sentences: what was expected, what happened. */
  readonly explanation: string;
  /**
   * How it happened, told apart from the property's other mechanisms: the violating step's action kind, the answer
   * that broke the rule, and the property's own word for the mechanism where it has one (sim/signature.ts). A fuzz
   * keeps a counterexample per signature; shrinking keeps it. Absent from traces written before it existed.
   */
  readonly signature?: string;
  /**
   * Set when the client broke a requestor's rule first (a request ID reused while in flight) and the property is one
   * that such a step can itself break: the finding is reported as triggered by that step and fails nothing.
   */
  readonly triggeredBy?: ClientFault;
}

/** Things the target reported during an operation, handled in order once it returns. */
export type InboxItem =
  | { readonly kind: 'frame'; readonly connection: number; readonly frame: Frame }
  | { readonly kind: 'end'; readonly connection: number };

/** The whole world of one run. */
export interface World {
  readonly config: SimConfig;
  readonly run: TargetRun;
  server: ServerInstance;
  /** State in MODEL.server. */
  serverState: number;
  epoch: number;
  restarts: number;
  /** The node that is down (several nodes, one down at a time), or -1. */
  nodeDown: number;
  nodeCrashes: number;
  /**
   * JSON-RPC responses (results or errors) to the clients' tool calls that reached them, on a call's stream or as its
   * JSON answer: coverage counts them, so that a fuzz in which no call was ever answered says it judged none.
   */
  callAnswers: number;
  readonly clients: SimClient[];
  readonly sessions: SimSession[];
  readonly views: StreamView[];
  readonly calls: SimCall[];
  readonly callsById: Map<string, SimCall>;
  readonly executions: SimExecution[];
  /** Indices of the executions not finished yet. */
  readonly running: number[];
  readonly connections: SimConnection[];
  /** Indices of the connections whose response body is open (attached), so a step need not scan them all. */
  readonly attached: number[];
  /** Connections a lost tail broke during the current operation: the server is told of each cut once it returns. */
  readonly pendingCuts: number[];
  /** The connection the server is being asked to close (serverClose), or -1: its end, if any, is that close. */
  closing: number;
  /** The connection whose request the target is handling now, or -1: an execution started meanwhile is its. */
  handling: number;
  /** Each event ID delivered in this incarnation, with the stream it was first delivered on. */
  readonly eventOwners: Map<string, EventOwner>;
  readonly inbox: InboxItem[];
  /** Append executions per call ID: the file the `append` tool writes to. */
  readonly appends: Map<string, number>;
  /** Randomness offered to the target (session IDs), seeded from the config. */
  readonly serverRandom: Prng;
  step: number;
  /** The action kind (sim/actions.ts's K) of the step under way; -2 before the first, -1 once the run settles (its final checks). */
  acting: number;
  /** The liveness phase's current round; 0 during the fault phase. */
  healRound: number;
  violation: Violation | null;
  /** The properties checked in this run; null for all. */
  checked: ReadonlySet<PropertyName> | null;
  /** The current step's observations (sim/levels/records.ts), when recording. */
  notes: StepRecord[] | null;
  /** The eras the target serves (TargetInfo.eras; absent there: legacy only). */
  readonly eras: readonly ProtocolEra[];
  /**
   * A violation of a property of severity `note` (permitted by the revision, reported without failing anything),
   * kept aside until the run ends: it becomes the run's violation only when no other property was violated.
   */
  noted: Violation | null;
  /**
   * The first violation of a property that is kept aside ({@link Property.keptAside}: a warning a server breaks at
   * every stream, which would otherwise end every run and hide what else it does): it becomes the run's violation only
   * when no other property was violated.
   */
  aside: Violation | null;
  /** The run's first client step that broke a requestor's rule (properties/client-fault.ts), or null. */
  clientFault: ClientFault | null;
  /**
   * The first violation that step triggered (sim/levels/server-level.ts's report): kept aside like a note, it becomes
   * the run's verdict only when nothing the server is charged with was violated.
   */
  triggered: Violation | null;
  /**
   * Set when the run goes on past its violations (sim/every-violation.ts): each is filed there instead of ending the
   * run or being kept in the fields above. Null: the first violation ends the run.
   */
  every: EveryViolation | null;
}

/** A fresh world for a run; the target instance is booted by the runner. */
export function createWorld(
  config: SimConfig,
  run: TargetRun,
  serverRandom: Prng,
  protocol: { readonly revisions?: readonly Revision[]; readonly eras?: readonly ProtocolEra[] } = {},
): World {
  const clients: SimClient[] = [];
  for (let index = 0; index < config.clients; index += 1) {
    const revision = protocol.revisions?.[index] ?? '2025-11-25';
    clients.push({
      index,
      state: isModernRevision(revision) ? step(MODEL.client, MODEL.client.initial, MODEL.client.event.speakModern) : MODEL.client.initial,
      session: null,
      requestIdNext: 1,
      habit: config.requestIdHabits[index % config.requestIdHabits.length]!,
      cursorLatest: null,
      cursorPreRestart: null,
      cursorBeforeCrash: null,
      standaloneView: -1,
      completedView: -1,
      views: [],
      deliveredKeys: null,
      revision,
      modernCalls: [],
    });
  }
  return {
    config,
    run,
    server: undefined as unknown as ServerInstance,
    serverState: MODEL.server.initial,
    epoch: 1,
    restarts: 0,
    nodeDown: -1,
    nodeCrashes: 0,
    callAnswers: 0,
    clients,
    sessions: [],
    views: [],
    calls: [],
    callsById: new Map(),
    executions: [],
    running: [],
    connections: [],
    attached: [],
    pendingCuts: [],
    closing: -1,
    handling: -1,
    eventOwners: new Map(),
    inbox: [],
    appends: new Map(),
    serverRandom,
    step: 0,
    acting: -2,
    healRound: 0,
    violation: null,
    checked: null,
    notes: null,
    eras: protocol.eras ?? ['legacy'],
    noted: null,
    aside: null,
    clientFault: null,
    triggered: null,
    every: null,
  };
}

/** The provenance a frame's message carries, with the facts a monitor needs about where it arrived. */
export interface Arrival {
  readonly connection: SimConnection;
  readonly provenance: Provenance;
  readonly message: JsonRpcMessage;
  readonly eventId: string | null;
}
