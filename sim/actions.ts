// The actions of the simulation: which are enabled in a world (asking the model's machines), and how each one
// unfolds as operations on the target. An action is (kind, a, b); its meaning of a and b is given per kind.

import { MODEL, accepts, step } from '../model/index.ts';
import type { HttpRequest, HttpResponse, JsonRpcMessage, ToolName } from '../targets/target.ts';
import { TOOL_NAMES } from '../targets/target.ts';
import { ACTION_KINDS, type ActionKind, MODERN_REVISION, UNSUPPORTED_VERSION, hasPolling, sendsVersionHeader } from './config.ts';
import type { StepRecord } from './levels/records.ts';
import { SERVER_VOCABULARY } from './levels/server-records.ts';
import { INITIALIZED_NOTIFICATION, callRequest, initializeRequest, isResponse, modernCallRequest, negotiatedVersion, standaloneNotification } from './tools.ts';
import {
  type ConnectionPurpose,
  type Cursor,
  type SimCall,
  type SimClient,
  type SimConnection,
  type SimSession,
  type StreamView,
  type World,
  isModernClient,
  isSettled,
  statelessSession,
  unnamedSessionId,
} from './world.ts';

/** Kind numbers, in ACTION_KINDS order. */
export const K = Object.fromEntries(ACTION_KINDS.map((kind, index) => [kind, index])) as Record<ActionKind, number>;

/** The enabled actions of one step, in a canonical order, reused across steps. */
export interface ActionList {
  count: number;
  readonly kind: Int32Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
}

/** Most actions one step can offer; more is a harness bug. */
export const ACTIONS_MAX = 1024;

export function createActionList(): ActionList {
  return { count: 0, kind: new Int32Array(ACTIONS_MAX), a: new Int32Array(ACTIONS_MAX), b: new Int32Array(ACTIONS_MAX) };
}

// Small enough to be inlined: writes past the arrays' end are dropped, and enumerateActions checks the count once.
function push(list: ActionList, kind: number, a: number, b: number): void {
  const at = list.count;
  list.kind[at] = kind;
  list.a[at] = a;
  list.b[at] = b;
  list.count = at + 1;
}

const C = MODEL.client;
const CONN = MODEL.connection;
const S = MODEL.session;
const SRV = MODEL.server;
const STREAM = MODEL.stream;

/** True when a view's client still waits on it and it is not attached. */
function isResumable(world: World, client: SimClient, view: StreamView): boolean {
  if (view.session !== client.session || view.connection >= 0 || view.received.length === 0) return false;
  return view.call === null ? client.standaloneView === view.index && view.outcome === 'pending' : !isSettled(view.outcome);
}

/** Fills `list` with every action enabled in `world` (fault phase). */
export function enumerateActions(world: World, list: ActionList): void {
  list.count = 0;
  const unsupported = world.run.unsupported;
  const canNotify = unsupported === undefined || !unsupported.includes('notify');
  const canExpire = unsupported === undefined || !unsupported.includes('expire');
  const canClose = unsupported === undefined || !unsupported.includes('serverClose');
  const canRestart = unsupported === undefined || !unsupported.includes('restart');
  const clientCanRequest = C.event.request;
  for (const client of world.clients) {
    if (accepts(C, client.state, C.event.initialize)) push(list, K.initialize, client.index, 0);
    if (!accepts(C, client.state, clientCanRequest)) continue;
    const session = client.session!;
    if (session.calls.length < world.config.callsPerSessionMax) {
      for (let tool = 0; tool < TOOL_NAMES.length; tool += 1) {
        push(list, K.call, client.index, tool);
        if (client.cursorLatest !== null) push(list, K.callStale, client.index, tool);
      }
    }
    for (const viewIndex of client.views) {
      const view = world.views[viewIndex]!;
      if (!isResumable(world, client, view)) continue;
      push(list, K.resumeLatest, viewIndex, 0);
      if (view.received.length >= 2) push(list, K.resumeEarlier, viewIndex, 0);
    }
    if (client.completedView >= 0) {
      const view = world.views[client.completedView]!;
      if (view.session === client.session && view.connection < 0) push(list, K.resumeCompleted, view.index, 0);
    }
    for (const other of world.clients) {
      if (other !== client && other.cursorLatest !== null) push(list, K.resumeForeign, client.index, other.index);
    }
    if (client.cursorPreRestart !== null) push(list, K.resumePreRestart, client.index, 0);
    if (client.cursorLatest !== null) push(list, K.resumeForged, client.index, 0);
    push(list, K.resumeMalformed, client.index, 0);
    const standalone = client.standaloneView >= 0 ? world.views[client.standaloneView]! : null;
    if (standalone === null || standalone.connection < 0) push(list, K.openStandalone, client.index, 0);
    for (const call of session.calls) {
      if (world.views[call.view]!.connection < 0) push(list, K.resend, call.index, 0);
    }
    // An unnamed session (a stateless server's) is no session to delete, to omit the header of, or to notify.
    if (session.unnamed) continue;
    push(list, K.delete, client.index, 0);
    push(list, K.headerless, client.index, 0);
    if (session.state === S.state.live) {
      if (standalone !== null && canNotify) push(list, K.notify, client.index, 0);
      if (canExpire) push(list, K.expire, client.index, 0);
    }
  }
  for (const index of world.attached) {
    push(list, K.cut, index, 0);
    const connection = world.connections[index]!;
    // Polling closes (retry) exist from 2025-11-25 on (SEP-1699), and not in the modern era.
    if (canClose && connection.view >= 0 && hasPolling(world.clients[connection.client]!.revision)) push(list, K.serverClose, index, 0);
  }
  for (const index of world.running) push(list, K.advance, index, 0);
  if (canRestart && world.restarts < world.config.restartsMax && accepts(SRV, world.serverState, SRV.event.restart)) push(list, K.restart, 0, 0);
  enumerateLaterKinds(world, list);
  enumerateNodeFaults(world, list);
  enumerateModernKinds(world, list);
  enumerateSeedKinds(world, list);
  if (world.config.versionFaults === true) enumerateVersionFaults(world, list);
  if (world.run.answersWithinRequest === true) {
    enumerateLossyCalls(world, list);
    enumerateCallsTogether(world, list);
  }
  if (list.count > ACTIONS_MAX) throw new Error(`${list.count} actions enabled in one step, more than the ${ACTIONS_MAX} a list holds`);
}

/** The kinds added after the first ones, enumerated last so that recorded choice indices keep their meaning. */
function enumerateLaterKinds(world: World, list: ActionList): void {
  for (const client of world.clients) {
    if (!accepts(C, client.state, C.event.request)) continue;
    const session = client.session!;
    for (const viewIndex of client.views) {
      const view = world.views[viewIndex]!;
      if (view.session !== session) continue;
      // A stream one of its connections still carries: the client (or a proxy duplicating its GET) resumes it again.
      if (view.connection >= 0 && view.received.length > 0 && accepts(CONN, world.connections[view.connection]!.state, CONN.event.rival)) {
        push(list, K.resumeAttached, viewIndex, 0);
        if (view.received.length >= 2) push(list, K.resumeAttached, viewIndex, 1);
      }
      if (view.terminalCursor !== null && view.connection < 0) push(list, K.resumeTerminal, viewIndex, 0);
    }
    for (const call of session.calls) {
      const view = world.views[call.view]!;
      // In flight: the server has not produced the call's result yet (its stream still accepts events).
      if (!accepts(STREAM, view.stream, STREAM.event.emit)) continue;
      if (view.connection >= 0) push(list, K.resendInFlight, call.index, 0);
      push(list, K.resendInFlight, call.index, 1);
    }
  }
  for (const index of world.attached) {
    if (world.connections[index]!.view < 0) continue;
    for (let frames = 1; frames <= LOST_TAIL_FRAMES_MAX; frames += 1) push(list, K.loseTail, index, frames);
  }
}

/**
 * Issue 17's kinds, enumerated after every other kind so that a recorded choice index keeps its meaning. A standalone
 * stream a later standalone GET superseded: the client still holds its cursor (seed 004's rule for it is a reset).
 */
/** The requests the version fault sends, by its second argument. */
export const BAD_VERSION_REQUESTS = ['GET', 'DELETE'] as const;

/**
 * The version fault (config versionFaults): a proxy sends a request of a client whose revision carries
 * MCP-Protocol-Version (2025-06-18 on, legacy era) with a version no revision has: its standalone GET, where the
 * client may open one (b = 0), or its DELETE (b = 1).
 */
function enumerateVersionFaults(world: World, list: ActionList): void {
  for (const client of world.clients) {
    if (isModernClient(client) || !accepts(C, client.state, C.event.request) || !sendsVersionHeader(client.revision)) continue;
    const standalone = client.standaloneView >= 0 ? world.views[client.standaloneView]! : null;
    if (standalone === null || standalone.connection < 0) push(list, K.badVersion, client.index, 0);
    push(list, K.badVersion, client.index, 1);
  }
}

/**
 * The lossy call (a run whose tools answer inside their request, TargetRun.answersWithinRequest): a client's call whose
 * response the network keeps up to its first event and loses after, then breaks. Where a tool answers at once, no cut
 * or lost tail can come between a call's first event and its result, which the client then never reads but the server
 * has written (and stored): what a resume replays, and to whom, is then the server's to get right. Legacy clients
 * only: a 2026-07-28 exchange has no cursor to resume from, and its broken connection is a cancellation (`cut`).
 */
function enumerateLossyCalls(world: World, list: ActionList): void {
  for (const client of world.clients) {
    if (isModernClient(client) || !accepts(C, client.state, C.event.request)) continue;
    if (client.session!.calls.length >= world.config.callsPerSessionMax) continue;
    for (let tool = 0; tool < TOOL_NAMES.length; tool += 1) push(list, K.callLossy, client.index, tool);
  }
}

/**
 * Two clients' calls at once, under one request ID (a run whose tools answer inside their request): both requests go
 * out before either is answered. Request IDs are the session's ("MUST NOT have been previously used by the requestor
 * within the same session"), so two sessions use the same ones all the time, as two fresh clients do; a server that
 * routes an answer by its request ID alone (one outbox, a message sent to every session's transport) gives one session
 * the other's result. The ID is the higher of the two clients' next ones, which neither has used in its session (a
 * client may skip numbers). Where a tool answers at once nothing else has two sessions' requests in the server
 * together. Legacy clients, each calling `read` (the tool is a name here: such a server's calls are sent as its own
 * echo); `a`'s request is sent first, then `b`'s.
 */
function enumerateCallsTogether(world: World, list: ActionList): void {
  const ready = (client: SimClient): boolean =>
    !isModernClient(client) && accepts(C, client.state, C.event.request) && client.session!.calls.length < world.config.callsPerSessionMax;
  for (const first of world.clients) {
    if (!ready(first)) continue;
    for (const other of world.clients) {
      // Two sessions: clients a server put in one session are one requestor there, and one ID twice is a reuse.
      if (other !== first && ready(other) && other.session!.id !== first.session!.id) push(list, K.callTogether, first.index, other.index);
    }
  }
}

function enumerateSeedKinds(world: World, list: ActionList): void {
  for (const client of world.clients) {
    if (!accepts(C, client.state, C.event.request)) continue;
    for (const viewIndex of client.views) {
      const view = world.views[viewIndex]!;
      if (view.call !== null || view.index === client.standaloneView || view.session !== client.session) continue;
      if (view.connection < 0 && view.received.length > 0) push(list, K.resumeSuperseded, viewIndex, 0);
    }
  }
  for (const call of world.calls) {
    // A request of its own the server echoed: the client takes it for a request and sends it again (seed 000).
    if (call.echoesPending > 0 && call.session === world.clients[call.client]!.session && accepts(C, world.clients[call.client]!.state, C.event.request)) {
      push(list, K.resendEchoed, call.index, 0);
    }
  }
  if (world.config.reissueAfterReset === true) enumerateLegacyReissues(world, list);
  // A tool of a legacy call fails or is cancelled on the server, on a target that can say so (one node).
  if (world.server.abortExecution === undefined || world.run.unsupported?.includes('abortTool') === true) return;
  for (const index of world.running) {
    const call = world.executions[index]!.call;
    if (call !== null && call.session.id !== '') push(list, K.abortTool, index, 0);
  }
}

/** Times a legacy client re-issues one call at the most. */
export const LEGACY_REISSUES_MAX = 1;

/**
 * A legacy client re-issues, under a new request ID, a call of its own that never gave it the result: in its session
 * after the call's stream ended in a reset; in its new session after its old one was lost (seed 004).
 */
function enumerateLegacyReissues(world: World, list: ActionList): void {
  for (const call of world.calls) {
    if (isReissuable(world, call)) push(list, K.reissueLegacy, call.index, 0);
  }
}

/**
 * True when a legacy client may re-issue `call` now: it never gave the client its result, is not being waited on
 * over a connection, and either ended in a reset in the client's session or was left behind in a session the client
 * lost (it has a new one, with room for another call).
 */
export function isReissuable(world: World, call: SimCall): boolean {
  if (call.session.id === '' || call.view < 0 || call.reissues >= LEGACY_REISSUES_MAX || call.resultsReceived > 0) return false;
  const client = world.clients[call.client]!;
  if (isModernClient(client) || !accepts(C, client.state, C.event.request)) return false;
  const view = world.views[call.view]!;
  if (view.connection >= 0 || view.outcome === 'result') return false;
  const session = client.session!;
  return call.session === session ? view.outcome === 'reset' : session.calls.length < world.config.callsPerSessionMax;
}

/** True when a legacy client lost its session (a 404) while one of its calls had not given it the result. */
export function hasCallToReissue(world: World, client: SimClient): boolean {
  for (const call of world.calls) {
    if (call.client !== client.index || call.session.id === '' || call.reissues >= LEGACY_REISSUES_MAX || call.resultsReceived > 0) continue;
    if (call.view >= 0 && world.views[call.view]!.outcome !== 'result') return true;
  }
  return false;
}

/** A lost tail loses 1 to this many frames before the connection breaks. */
export const LOST_TAIL_FRAMES_MAX = 2;

/** Several nodes: one may crash while all are up, and the one down may boot again. Nothing on one node. */
function enumerateNodeFaults(world: World, list: ActionList): void {
  const nodes = world.run.nodes ?? 1;
  if (nodes < 2 || !accepts(SRV, world.serverState, SRV.event.restart)) return;
  if (world.nodeDown >= 0) push(list, K.restartNode, world.nodeDown, 0);
  else if (world.nodeCrashes < (world.config.nodeCrashesMax ?? 0)) for (let node = 0; node < nodes; node += 1) push(list, K.crashNode, node, 0);
}

/** The variants of a proxied modern call: which legacy headers the proxy attaches. */
/** What a proxy attaches to a proxied 2026-07-28 call, by variant (the vocabulary, server-records.ts, words each). */
const PROXIED = ['session', 'session and cursor', 'cursor'] as const;
/** The variant in which a modern client's own stale cursor (from a server that sent event IDs) is attached. */
const PROXIED_OWN_CURSOR = 3;

/** Encodes a proxied call's (tool, variant, client whose headers are attached) in one action argument. */
function proxiedArgument(tool: number, variant: number, other: number): number {
  return (tool * 4 + variant) * 4 + other;
}

function decodeProxied(b: number): { tool: number; variant: number; other: number } {
  return { tool: Math.floor(b / 16), variant: Math.floor(b / 4) % 4, other: b % 4 };
}

/**
 * The 2026-07-28 client's actions, enumerated last (after every kind of the legacy era), and only for modern
 * clients: a run without one offers exactly what it offered before the modern era existed.
 */
function enumerateModernKinds(world: World, list: ActionList): void {
  for (const client of world.clients) {
    if (!accepts(C, client.state, C.event.call)) continue;
    if (client.modernCalls.length < world.config.callsPerSessionMax) {
      for (let tool = 0; tool < TOOL_NAMES.length; tool += 1) push(list, K.callModern, client.index, tool);
      for (let tool = 0; tool < TOOL_NAMES.length; tool += 1) {
        for (const other of world.clients) {
          if (other === client) {
            if (client.cursorLatest !== null) push(list, K.callProxied, client.index, proxiedArgument(tool, PROXIED_OWN_CURSOR, other.index));
            continue;
          }
          if (other.session !== null) {
            push(list, K.callProxied, client.index, proxiedArgument(tool, 0, other.index));
            if (other.cursorLatest !== null) push(list, K.callProxied, client.index, proxiedArgument(tool, 1, other.index));
          }
          if (other.cursorLatest !== null) push(list, K.callProxied, client.index, proxiedArgument(tool, 2, other.index));
        }
      }
    }
    for (const call of client.modernCalls) {
      const view = world.views[call.view]!;
      if (isSettled(view.outcome)) continue;
      // Broken before its result (cut, lost tail, refused): the client re-issues it. Still open: a request ID in flight.
      if (view.connection < 0) push(list, K.reissue, call.index, 0);
      else {
        push(list, K.resendInFlight, call.index, 0);
        push(list, K.resendInFlight, call.index, 1);
      }
    }
    push(list, K.probeModern, client.index, 0);
    push(list, K.probeModern, client.index, 1);
  }
}

/** A new call of `client`'s in its session: its view and connection opened, its request noted; the request it sends. */
function callOf(world: World, client: SimClient, tool: ToolName, lastEventId: string | null): HttpRequest {
  const session = client.session!;
  const call = newCall(world, client, session, client.requestIdNext++, tool, null, callRequest);
  const { id, requestId } = call;
  session.calls.push(call);
  const view = createView(world, client, session, call);
  call.view = view.index;
  const connection = openConnection(world, client, 'call', { session, view: view.index, cursor: null, lastEventId, kExpected: 1 });
  if (world.notes !== null) world.notes.push({ kind: 'request', form: 'call', method: 'POST', connection: connection.index, client: client.index + 1, session: session.id, call: id, tool, requestId, ...(lastEventId === null ? {} : { lastEventId }) });
  return { method: 'POST', connection: connection.index, sessionId: session.id, lastEventId, body: call.body };
}

/**
 * The revision a configured protocol names on a legacy client's requests after its initialize: the client's own, so
 * that the headers sent follow from it (targets/sdk/revision-headers.ts: `MCP-Protocol-Version` from 2025-06-18 on,
 * none for 2025-03-26, which predates the header). Without a configured protocol nothing is named (the harnesses then
 * send 2025-11-25), so every earlier trace replays as it was.
 */
function stamp(world: World, op: Op): Op {
  if (op.kind !== 'handle') return op;
  const request = stampRequest(world, op.request);
  return request === op.request ? op : { ...op, request };
}

/** A request with the revision {@link stamp} names on it, or as it is. */
function stampRequest(world: World, request: HttpRequest): HttpRequest {
  if (world.config.protocol === undefined || request.protocolVersion !== undefined) return request;
  const connection = world.connections[request.connection]!;
  const client = world.clients[connection.client]!;
  if (connection.purpose === 'initialize' || isModernClient(client)) return request;
  return { ...request, protocolVersion: client.revision };
}

/** One operation on the target. */
export type Op =
  | { readonly kind: 'handle'; readonly request: HttpRequest; readonly stage: number }
  /** Requests sent at once, each before any is answered; answered in this order (callTogether). */
  | { readonly kind: 'handleTogether'; readonly requests: readonly HttpRequest[] }
  | { readonly kind: 'cut'; readonly connection: number }
  | { readonly kind: 'advance'; readonly execution: number }
  | { readonly kind: 'notify'; readonly sessionId: string; readonly message: JsonRpcMessage }
  | { readonly kind: 'closeConnection'; readonly connection: number; readonly retryMs: number }
  | { readonly kind: 'expire'; readonly sessionId: string }
  | { readonly kind: 'restart' }
  /** Nothing reaches the target (the network changes what it will do with later frames). */
  | { readonly kind: 'network' }

  | { readonly kind: 'crashNode'; readonly node: number }
  | { readonly kind: 'restartNode'; readonly node: number }
  | { readonly kind: 'catchUp' }
  | { readonly kind: 'abortExecution'; readonly execution: number };

/** Steps a connection's machine, keeping the world's list of attached connections in step with it. */
export function changeConnection(world: World, connection: SimConnection, event: number): void {
  const wasAttached = connection.state === CONN.state.attached;
  connection.state = step(CONN, connection.state, event);
  const isAttached = connection.state === CONN.state.attached;
  if (isAttached && !wasAttached) world.attached.push(connection.index);
  if (wasAttached && !isAttached) world.attached.splice(world.attached.indexOf(connection.index), 1);
}

function openConnection(
  world: World,
  client: SimClient,
  purpose: ConnectionPurpose,
  fields: { session: SimSession | null; view: number; cursor: Cursor | null; lastEventId: string | null; kExpected: number | null },
): SimConnection {
  const connection: SimConnection = {
    index: world.connections.length,
    client: client.index,
    purpose,
    openedBy: world.acting,
    epoch: world.epoch,
    session: fields.session,
    view: fields.view,
    cursor: fields.cursor,
    lastEventId: fields.lastEventId,
    state: CONN.initial,
    status: 0,
    node: 0,
    kExpected: fields.kExpected,
    kLast: fields.cursor === null ? 0 : fields.cursor.k,
    resetSeen: false,
    resetReason: null,
    framesToLose: 0,
    framesKept: 0,
    sessionIdAnswered: null,
    framed: false,
    responded: false,
  };
  world.connections.push(connection);
  return connection;
}

function createView(world: World, client: SimClient, session: SimSession, call: SimCall | null): StreamView {
  const view: StreamView = {
    index: world.views.length,
    client: client.index,
    session,
    call,
    stream: STREAM.initial,
    received: [],
    kLast: 0,
    connection: -1,
    outcome: 'pending',
    beforeResult: null,
    healed: 0,
    deliveredMask: 0,
    terminalCursor: null,
    resultWritten: false,
    retried: false,
    unretriedEnd: -1,
  };
  world.views.push(view);
  client.views.push(view.index);
  return view;
}

/** The tool a request reusing another's id asks for: the next one, so the content differs. */
function otherTool(tool: ToolName): ToolName {
  return TOOL_NAMES[(TOOL_NAMES.indexOf(tool) + 1) % TOOL_NAMES.length]!;
}

/** Changes a number in a cursor, as an attacker would try: the last run of digits plus 1000. */
export function forgeCursor(eventId: string): string {
  const match = /(\d+)(?!.*\d)/.exec(eventId);
  if (match === null) return `${eventId}9`;
  return eventId.slice(0, match.index) + String(Number(match[1]) + 1000) + eventId.slice(match.index + match[1]!.length);
}

/** The Last-Event-ID the malformed-cursor action sends. */
export const MALFORMED_CURSOR = 'not-an-event-id';

function handleOp(request: HttpRequest, stage = 0): Op {
  return { kind: 'handle', request, stage };
}

/** A client's standalone GET, with the header `version` sets when given (the version fault's). */
function standaloneRequest(world: World, client: SimClient, version: { readonly protocolVersion?: string }): Op {
  const view = createView(world, client, client.session!, null);
  const connection = openConnection(world, client, 'standalone', { session: client.session, view: view.index, cursor: null, lastEventId: null, kExpected: null });
  if (world.notes !== null) world.notes.push({ kind: 'request', form: 'standalone', method: 'GET', connection: connection.index, client: client.index + 1, session: client.session!.id, ...version });
  return handleOp({ method: 'GET', connection: connection.index, sessionId: client.session!.id, lastEventId: null, ...version });
}

function resumeRequest(world: World, client: SimClient, view: StreamView | null, cursor: Cursor | null, lastEventId: string): Op {
  const connection = openConnection(world, client, 'resume', {
    session: client.session,
    view: view === null ? -1 : view.index,
    cursor,
    lastEventId,
    // Standalone notifications are numbered per session: before the first one on a stream, any may come next. What
    // is due next is judged against what the client has (a stale cursor does not make the client miss what it has).
    kExpected:
      cursor === null || (view !== null && view.call === null && cursor.k === 0) ? null : Math.max(cursor.k, view === null || view.call === null ? 0 : view.kLast) + 1,
  });
  if (world.notes !== null) world.notes.push({ kind: 'request', form: 'resume', method: 'GET', connection: connection.index, client: client.index + 1, session: client.session!.id, lastEventId });
  return handleOp({ method: 'GET', connection: connection.index, sessionId: client.session!.id, lastEventId });
}

/** The first operation of an action; the world is changed for what happens before the target sees it. */
export function startAction(world: World, kind: number, a: number, b: number): Op {
  return stamp(world, startUnstamped(world, kind, a, b));
}

function startUnstamped(world: World, kind: number, a: number, b: number): Op {
  switch (ACTION_KINDS[kind]) {
    case 'initialize': {
      const client = world.clients[a]!;
      client.state = step(C, client.state, C.event.initialize);
      if (client.habit === 'restart') client.requestIdNext = 1;
      const requestId = client.requestIdNext++;
      const connection = openConnection(world, client, 'initialize', { session: null, view: -1, cursor: null, lastEventId: null, kExpected: null });
      const revision = world.config.protocol === undefined ? {} : { revision: client.revision };
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'initialize', method: 'POST', connection: connection.index, client: client.index + 1, requestId, ...revision });
      return handleOp({ method: 'POST', connection: connection.index, sessionId: null, lastEventId: null, body: initializeRequest(requestId, client.revision) });
    }
    case 'call':
    case 'callStale':
    case 'callLossy': {
      const client = world.clients[a]!;
      const lastEventId = kind === K.callStale ? client.cursorLatest!.eventId : null;
      const request = callOf(world, client, TOOL_NAMES[b]!, lastEventId);
      if (kind === K.callLossy) world.connections[request.connection]!.framesKept = 1;
      return handleOp(request);
    }
    case 'callTogether': {
      const first = world.clients[a]!;
      const other = world.clients[b]!;
      first.requestIdNext = other.requestIdNext = Math.max(first.requestIdNext, other.requestIdNext);
      return { kind: 'handleTogether', requests: [stampRequest(world, callOf(world, first, 'read', null)), stampRequest(world, callOf(world, other, 'read', null))] };
    }
    case 'cut': {
      const connection = world.connections[a]!;
      changeConnection(world, connection, CONN.event.cut);
      if (connection.view >= 0 && world.views[connection.view]!.connection === a) world.views[connection.view]!.connection = -1;
      return { kind: 'cut', connection: a };
    }
    case 'resumeLatest':
    case 'resumeEarlier':
    case 'resumeCompleted': {
      const view = world.views[a]!;
      const client = world.clients[view.client]!;
      const { received } = view;
      const cursor = kind === K.resumeLatest ? received[received.length - 1]! : kind === K.resumeEarlier ? received[0]! : view.beforeResult!;
      return resumeRequest(world, client, view, cursor, cursor.eventId);
    }
    case 'resumeForeign': {
      const client = world.clients[a]!;
      return resumeRequest(world, client, null, null, world.clients[b]!.cursorLatest!.eventId);
    }
    case 'resumePreRestart': {
      const client = world.clients[a]!;
      return resumeRequest(world, client, null, null, client.cursorPreRestart!.eventId);
    }
    case 'resumeForged': {
      const client = world.clients[a]!;
      return resumeRequest(world, client, null, null, forgeCursor(client.cursorLatest!.eventId));
    }
    case 'resumeMalformed': {
      const client = world.clients[a]!;
      return resumeRequest(world, client, null, null, MALFORMED_CURSOR);
    }
    case 'badVersion': {
      // The version fault is the client's standalone GET or DELETE with another header: accepted (a server that breaks
      // the rule), it opens the client's standalone stream or ends its session as the request would.
      const client = world.clients[a]!;
      if (BAD_VERSION_REQUESTS[b] === 'GET') return standaloneRequest(world, client, { protocolVersion: UNSUPPORTED_VERSION });
      const connection = openConnection(world, client, 'delete', { session: client.session, view: -1, cursor: null, lastEventId: null, kExpected: null });
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'delete', method: 'DELETE', connection: connection.index, client: client.index + 1, session: client.session!.id, protocolVersion: UNSUPPORTED_VERSION });
      return handleOp({ method: 'DELETE', connection: connection.index, sessionId: client.session!.id, protocolVersion: UNSUPPORTED_VERSION });
    }
    case 'openStandalone':
      return standaloneRequest(world, world.clients[a]!, {});
    case 'resend': {
      const call = world.calls[a]!;
      const client = world.clients[call.client]!;
      // A re-send may join the call's stream from its start (the reference) or start a new execution (the SDK):
      // which position comes first is the server's choice, so none is expected.
      const connection = openConnection(world, client, 'resend', { session: call.session, view: call.view, cursor: null, lastEventId: null, kExpected: null });
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'resend', method: 'POST', connection: connection.index, client: client.index + 1, session: call.session.id, call: call.id, requestId: call.requestId });
      return handleOp({ method: 'POST', connection: connection.index, sessionId: call.session.id, lastEventId: null, body: call.body });
    }
    case 'delete': {
      const client = world.clients[a]!;
      const connection = openConnection(world, client, 'delete', { session: client.session, view: -1, cursor: null, lastEventId: null, kExpected: null });
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'delete', method: 'DELETE', connection: connection.index, client: client.index + 1, session: client.session!.id });
      return handleOp({ method: 'DELETE', connection: connection.index, sessionId: client.session!.id });
    }
    case 'headerless': {
      const client = world.clients[a]!;
      const connection = openConnection(world, client, 'headerless', { session: null, view: -1, cursor: null, lastEventId: null, kExpected: null });
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'headerless', method: 'GET', connection: connection.index, client: client.index + 1, session: null });
      return handleOp({ method: 'GET', connection: connection.index, sessionId: null, lastEventId: null });
    }
    case 'advance':
      return { kind: 'advance', execution: a };
    case 'notify': {
      const session = world.clients[a]!.session!;
      session.notifications += 1;
      const message = standaloneNotification({ epoch: world.epoch, sessionId: session.id, k: session.notifications });
      return { kind: 'notify', sessionId: session.id, message };
    }
    case 'serverClose':
      // The connection is closed only if the server really closes it (an end it reports while asked to): a target
      // that cannot close it (the SDK, for a request it has completed) leaves it open, and the model follows.
      world.closing = a;
      return { kind: 'closeConnection', connection: a, retryMs: 1000 };
    case 'restart':
      return restartWorld(world);
    case 'expire': {
      const session = world.clients[a]!.session!;
      endSessionTruth(world, session, S.event.expire);
      return { kind: 'expire', sessionId: session.id };
    }
    case 'resumeAttached': {
      const view = world.views[a]!;
      const client = world.clients[view.client]!;
      changeConnection(world, world.connections[view.connection]!, CONN.event.rival);
      const cursor = b === 0 ? view.received[view.received.length - 1]! : view.received[0]!;
      return resumeRequest(world, client, view, cursor, cursor.eventId);
    }
    case 'resumeTerminal': {
      const view = world.views[a]!;
      return resumeRequest(world, world.clients[view.client]!, view, view.terminalCursor!, view.terminalCursor!.eventId);
    }
    case 'abortTool':
      return { kind: 'abortExecution', execution: a };
    case 'resendEchoed': {
      const call = world.calls[a]!;
      const client = world.clients[call.client]!;
      call.echoesPending -= 1;
      const connection = openConnection(world, client, 'resend', { session: call.session, view: call.view, cursor: null, lastEventId: null, kExpected: null });
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'resendEchoed', method: 'POST', connection: connection.index, client: client.index + 1, session: call.session.id, call: call.id, requestId: call.requestId });
      return handleOp({ method: 'POST', connection: connection.index, sessionId: call.session.id, lastEventId: null, body: call.body });
    }
    case 'reissueLegacy': {
      const call = world.calls[a]!;
      const client = world.clients[call.client]!;
      const session = client.session!;
      const requestLost = call.requestId;
      const sessionLost = call.session === session ? null : call.session;
      if (sessionLost !== null) {
        call.session = session;
        session.calls.push(call);
      }
      call.reissues += 1;
      call.requestId = client.requestIdNext++;
      call.body = callRequest(call.requestId, call.tool, call.id);
      const view = createView(world, client, session, call);
      call.view = view.index;
      const connection = openConnection(world, client, 'call', { session, view: view.index, cursor: null, lastEventId: null, kExpected: 1 });
      if (world.notes !== null) {
        const base = { kind: 'request', form: 'reissueLegacy', method: 'POST', connection: connection.index, client: client.index + 1, session: session.id };
        world.notes.push({ ...base, call: call.id, tool: call.tool, requestId: call.requestId, sessionLost: sessionLost === null ? null : sessionLost.id, requestLost });
      }
      return handleOp({ method: 'POST', connection: connection.index, sessionId: session.id, lastEventId: null, body: call.body });
    }
    case 'resumeSuperseded': {
      const view = world.views[a]!;
      const cursor = view.received[view.received.length - 1]!;
      return resumeRequest(world, world.clients[view.client]!, view, cursor, cursor.eventId);
    }
    case 'resendInFlight': {
      const call = world.calls[a]!;
      const client = world.clients[call.client]!;
      if (isModernClient(client)) return collideModern(world, client, call, b);
      if (b === 0) {
        const connection = openConnection(world, client, 'resend', { session: call.session, view: call.view, cursor: null, lastEventId: null, kExpected: null });
        if (world.notes !== null) world.notes.push({ kind: 'request', form: 'resendInFlight', method: 'POST', connection: connection.index, client: client.index + 1, session: call.session.id, call: call.id, requestId: call.requestId });
        return handleOp({ method: 'POST', connection: connection.index, sessionId: call.session.id, lastEventId: null, body: call.body });
      }
      // Other content under the same request id: a call of its own (so its execution would be seen), with no stream
      // the client waits on: the server must refuse it, and the first call keeps its result.
      const tool = otherTool(call.tool);
      const reuse = newCall(world, client, call.session, call.requestId, tool, call, callRequest);
      const { id } = reuse;
      const connection = openConnection(world, client, 'reuse', { session: call.session, view: -1, cursor: null, lastEventId: null, kExpected: null });
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'reuse', method: 'POST', connection: connection.index, client: client.index + 1, session: call.session.id, call: id, tool, requestId: call.requestId, inFlightFor: call.id });
      return handleOp({ method: 'POST', connection: connection.index, sessionId: call.session.id, lastEventId: null, body: reuse.body });
    }
    case 'loseTail': {
      const connection = world.connections[a]!;
      changeConnection(world, connection, CONN.event.loseTail);
      connection.framesToLose = b;
      return { kind: 'network' };
    }
    case 'crashNode':
      return crashNodeWorld(world, a);
    case 'restartNode':
      world.nodeDown = -1;
      return { kind: 'restartNode', node: a };
    case 'catchUp':
      return { kind: 'catchUp' };
    case 'callModern':
      return callModern(world, world.clients[a]!, TOOL_NAMES[b]!, null);
    case 'callProxied': {
      const { tool, variant, other } = decodeProxied(b);
      return callModern(world, world.clients[a]!, TOOL_NAMES[tool]!, { variant, other: world.clients[other]! });
    }
    case 'reissue': {
      const call = world.calls[a]!;
      const client = world.clients[call.client]!;
      const lost = world.views[call.view]!;
      // The client gave up on the broken exchange (its request is lost, 2026-07-28): that wait is over, a new one begins.
      lost.outcome = 'reset';
      const requestLost = call.requestId;
      call.requestId = client.requestIdNext++;
      call.body = modernCallRequest(call.requestId, call.tool, call.id);
      const view = createView(world, client, call.session, call);
      // The liveness phase re-issues a call once a round, whatever view its latest exchange has: a server that
      // refuses every re-issue (or answers in a form the client does not take as the result) ends the phase.
      view.healed = lost.healed;
      call.view = view.index;
      const connection = openConnection(world, client, 'call', { session: null, view: view.index, cursor: null, lastEventId: null, kExpected: 1 });
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'reissue', method: 'POST', connection: connection.index, client: client.index + 1, session: null, call: call.id, tool: call.tool, requestId: call.requestId, requestLost, revision: MODERN_REVISION });
      return handleOp({ method: 'POST', connection: connection.index, sessionId: null, lastEventId: null, body: call.body, protocolVersion: MODERN_REVISION });
    }
    case 'probeModern': {
      const client = world.clients[a]!;
      const connection = openConnection(world, client, 'probe', { session: null, view: -1, cursor: null, lastEventId: null, kExpected: null });
      if (world.notes !== null) world.notes.push({ kind: 'request', form: 'probe', method: b === 0 ? 'GET' : 'DELETE', connection: connection.index, client: client.index + 1, session: null, revision: MODERN_REVISION });
      return handleOp(
        b === 0
          ? { method: 'GET', connection: connection.index, sessionId: null, lastEventId: null, protocolVersion: MODERN_REVISION }
          : { method: 'DELETE', connection: connection.index, sessionId: null, protocolVersion: MODERN_REVISION },
      );
    }
    default:
      throw new Error(`unknown action kind ${kind}`);
  }
}

/**
 * A new call of `client`'s, numbered after every call of the run and registered: `reuses` the call whose in-flight
 * request ID it takes (or null), its request body made by `request` (a legacy or a 2026-07-28 tools/call).
 */
function newCall(world: World, client: SimClient, session: SimSession, requestId: number, tool: ToolName, reuses: SimCall | null, request: typeof callRequest): SimCall {
  const id = `c${world.calls.length + 1}`;
  const call: SimCall = { index: world.calls.length, id, client: client.index, session, requestId, tool, body: request(requestId, tool, id), view: -1, executions: 0, reuses, reissues: 0, resultsReceived: 0, echoesPending: 0 };
  world.calls.push(call);
  world.callsById.set(id, call);
  return call;
}

/**
 * A 2026-07-28 tool call: the _meta envelope, no session, no cursor, unless a proxy attaches another client's legacy
 * `Mcp-Session-Id` and/or `Last-Event-ID` (or the client's own stale cursor). The connection records the session
 * whose ID the request carried, as every connection does.
 */
function callModern(world: World, client: SimClient, tool: ToolName, proxied: { variant: number; other: SimClient } | null): Op {
  const session = statelessSession(client.index, world.epoch);
  const call = newCall(world, client, session, client.requestIdNext++, tool, null, modernCallRequest);
  const { id, requestId } = call;
  client.modernCalls.push(call);
  const view = createView(world, client, session, call);
  call.view = view.index;
  client.state = step(C, client.state, C.event.call);
  const headerSession = proxied !== null && proxied.variant <= 1 ? proxied.other.session : null;
  const lastEventId = proxied !== null && proxied.variant >= 1 ? proxied.other.cursorLatest!.eventId : null;
  const connection = openConnection(world, client, 'call', { session: headerSession, view: view.index, cursor: null, lastEventId, kExpected: 1 });
  if (world.notes !== null) {
    const base = { kind: 'request', form: 'callModern', method: 'POST', connection: connection.index, client: client.index + 1, session: headerSession === null ? null : headerSession.id };
    world.notes.push({ ...base, call: id, tool, requestId, revision: MODERN_REVISION, ...(lastEventId === null ? {} : { lastEventId }) });
  }
  return handleOp({ method: 'POST', connection: connection.index, sessionId: headerSession === null ? null : headerSession.id, lastEventId, body: call.body, protocolVersion: MODERN_REVISION });
}

/**
 * A 2026-07-28 request under a request ID still in flight (b 0: the same request again, b 1: another call): the ID
 * "must not match one still in flight", so the server refuses it; no stream of the client's is fed by it.
 */
function collideModern(world: World, client: SimClient, call: SimCall, b: number): Op {
  let body = call.body;
  let what: { form: 'resendModern' | 'reuseModern'; call: string; tool?: ToolName } = { form: 'resendModern', call: call.id };
  if (b === 1) {
    const tool = otherTool(call.tool);
    const reuse = newCall(world, client, call.session, call.requestId, tool, call, modernCallRequest);
    body = reuse.body;
    what = { form: 'reuseModern', call: reuse.id, tool };
  }
  const connection = openConnection(world, client, 'reuse', { session: null, view: -1, cursor: null, lastEventId: null, kExpected: null });
  if (world.notes !== null) world.notes.push({ kind: 'request', method: 'POST', connection: connection.index, client: client.index + 1, session: null, ...what, requestId: call.requestId, revision: MODERN_REVISION, inFlightFor: call.id });
  return handleOp({ method: 'POST', connection: connection.index, sessionId: null, lastEventId: null, body, protocolVersion: MODERN_REVISION });
}

/**
 * One node crashes: the connections it answered are dropped and the executions it ran end without a result (their
 * streams can never complete). Sessions are not ended: whether another node still serves them is the target's to say
 * (a 404 is always a terminated session's answer, so a node that does not know a session may give it).
 */
function crashNodeWorld(world: World, node: number): Op {
  world.nodeDown = node;
  world.nodeCrashes += 1;
  // A client may come back with a cursor from before the crash, as after a restart, once it is in a new session.
  for (const client of world.clients) {
    if (client.cursorLatest !== null) client.cursorBeforeCrash = client.cursorLatest;
  }
  // Every connection the node carries goes with it: an attached one, and one losing its tail (not in `attached`,
  // which a crash that left it losing would later break by a cut sent to the node's next incarnation).
  for (const connection of world.connections) {
    if (connection.node !== node || (connection.state !== CONN.state.attached && connection.state !== CONN.state.losing)) continue;
    changeConnection(world, connection, CONN.event.drop);
    connection.framesToLose = 0;
    if (connection.view >= 0 && world.views[connection.view]!.connection === connection.index) world.views[connection.view]!.connection = -1;
  }
  for (let index = world.running.length - 1; index >= 0; index -= 1) {
    const execution = world.executions[world.running[index]!]!;
    if (execution.node !== node) continue;
    execution.finished = true;
    world.running.splice(index, 1);
    // A call made under a reused request ID has no stream of its own (view -1): nothing to abort for it.
    const view = execution.call === null || execution.call.view < 0 ? null : world.views[execution.call.view]!;
    if (view !== null && accepts(STREAM, view.stream, STREAM.event.abort)) view.stream = step(STREAM, view.stream, STREAM.event.abort);
  }
  return { kind: 'crashNode', node };
}

function restartWorld(world: World): Op {
  world.restarts += 1;
  world.epoch += 1;
  // The whole deployment boots again: every node is up.
  world.nodeDown = -1;
  for (const session of world.sessions) {
    // An unnamed session lives in no server's memory: a restart does not end it (its client goes on without a header).
    if (session.unnamed) continue;
    // Nor does it end a live session of a server that keeps its sessions where a restart keeps them.
    if (session.state === S.state.live && world.run.sessionsOutliveRestart === true) continue;
    if (session.state === S.state.live || session.state === S.state.initialising) endSessionTruth(world, session, S.event.restart);
  }
  for (const connection of world.connections) {
    if (accepts(CONN, connection.state, CONN.event.drop)) {
      changeConnection(world, connection, CONN.event.drop);
      if (connection.view >= 0) world.views[connection.view]!.connection = -1;
    }
  }
  for (const index of world.running) {
    const execution = world.executions[index]!;
    execution.finished = true;
    // A call of a session that goes on loses its execution with the incarnation: its stream will carry no more.
    const view = execution.call === null || execution.call.view < 0 ? null : world.views[execution.call.view]!;
    if (world.run.sessionsOutliveRestart === true && view !== null && accepts(STREAM, view.stream, STREAM.event.abort)) view.stream = step(STREAM, view.stream, STREAM.event.abort);
  }
  world.running.length = 0;
  // Event IDs are judged per incarnation: a restarted server may issue the same ones again.
  world.eventOwners.clear();
  for (const client of world.clients) {
    if (client.cursorLatest !== null) client.cursorPreRestart = client.cursorLatest;
  }
  return { kind: 'restart' };
}

function endSessionTruth(world: World, session: SimSession, event: number): void {
  session.state = step(S, session.state, event);
  for (const view of world.views) {
    if (view.session === session && accepts(STREAM, view.stream, STREAM.event.abort)) view.stream = step(STREAM, view.stream, STREAM.event.abort);
  }
}

/** The client gave up on a session: its pending waits end explicitly. */
function abandonSession(world: World, session: SimSession): void {
  for (const view of world.views) {
    if (view.session === session && !isSettled(view.outcome)) view.outcome = 'session-gone';
  }
}

function onNotFound(world: World, connection: SimConnection): void {
  const client = world.clients[connection.client]!;
  if (connection.session === null || client.session !== connection.session || !accepts(C, client.state, C.event.notFound)) return;
  client.state = step(C, client.state, C.event.notFound);
  abandonSession(world, connection.session);
}

/**
 * Continues an action once the target answered `op`: the response is recorded (monitors see it first),
 * and the client reacts. The frames that came with it are handled after this, then {@link followUp}. Returns the call's
 * result when it came as the JSON body of the answer (jsonAnswerOf), for the level to deliver as a frame; else null.
 */
export function continueAction(world: World, op: Op, response: HttpResponse | undefined, observeResponse: (connection: SimConnection) => void): JsonRpcMessage | null {
  if (op.kind !== 'handle' || response === undefined) return null;
  const connection = world.connections[op.request.connection]!;
  connection.status = response.status;
  connection.node = response.node ?? 0;
  connection.sessionIdAnswered = response.sessionId;
  changeConnection(world, connection, response.streaming ? CONN.event.stream : CONN.event.answer);
  if (world.notes !== null) {
    const minted = response.sessionId !== null && connection.purpose === 'initialize' ? { session: response.sessionId } : {};
    world.notes.push({ kind: 'response', connection: connection.index, client: connection.client + 1, status: response.status, sse: response.streaming, ...minted, ...(response.node === undefined ? {} : { node: response.node + 1 }) });
  }
  observeResponse(connection);
  if (response.status === 404) onNotFound(world, connection);
  const client = world.clients[connection.client]!;
  const view = connection.view >= 0 ? world.views[connection.view]! : null;
  switch (connection.purpose) {
    case 'initialize': {
      // A 200 without a session ID is a stateless server's (a server "MAY assign a session ID"): the client goes on
      // without one. A JSON-RPC error in the answer is a refusal all the same.
      if (response.status !== 200 || (response.body !== null && response.body['error'] !== undefined)) {
        client.state = step(C, client.state, C.event.initializeFailed);
        return null;
      }
      const session: SimSession = {
        index: world.sessions.length,
        client: client.index,
        epoch: world.epoch,
        id: response.sessionId ?? unnamedSessionId(world.sessions.length + 1),
        unnamed: response.sessionId === null,
        state: step(S, S.initial, S.event.established),
        notifications: 0,
        calls: [],
        notifiedInLiveness: false,
        notificationsReceived: 0,
        negotiated: negotiatedVersion(response.body),
      };
      world.sessions.push(session);
      client.state = step(C, client.state, C.event.initialized);
      client.session = session;
      if (client.cursorBeforeCrash !== null) {
        client.cursorPreRestart = client.cursorBeforeCrash;
        client.cursorBeforeCrash = null;
      }
      client.standaloneView = -1;
      client.completedView = -1;
      client.views.length = 0;
      return null;
    }
    case 'delete':
      if (response.status === 200 && connection.session !== null) {
        if (connection.session.state === S.state.live) endSessionTruth(world, connection.session, S.event.delete);
        if (client.session === connection.session && accepts(C, client.state, C.event.deleted)) {
          client.state = step(C, client.state, C.event.deleted);
          abandonSession(world, connection.session);
        }
      }
      return null;
    case 'standalone':
      if (view !== null) {
        if (response.streaming && response.status === 200) {
          if (client.standaloneView >= 0) {
            const previous = world.views[client.standaloneView]!;
            if (accepts(STREAM, previous.stream, STREAM.event.supersede)) previous.stream = step(STREAM, previous.stream, STREAM.event.supersede);
            previous.outcome = previous.outcome === 'pending' ? 'reset' : previous.outcome;
          }
          client.standaloneView = view.index;
          view.connection = connection.index;
        } else {
          view.outcome = 'refused';
        }
      }
      return null;
    default: {
      // A call answered 200 with its JSON-RPC response as a JSON body (MCP: "return one JSON object"): the view is
      // carried by this connection while the server level hands the body to it as the call's result.
      const answer = jsonAnswerOf(world, connection, response);
      if (answer !== null && view !== null) {
        view.connection = connection.index;
        return answer;
      }
      if (response.body !== null) noteResponse(world, connection, response.body);
      if (view !== null) {
        if (response.streaming && response.status === 200) {
          view.connection = connection.index;
        } else if (!isSettled(view.outcome) && response.status !== 404) {
          view.outcome = 'refused';
        }
      }
      return null;
    }
  }
}

/**
 * Notes a JSON-RPC response (a result or an error) arriving on `connection` (SimConnection.responded), and counts it
 * when it answers the tool call whose stream the connection carries, under the call's request ID (World.callAnswers).
 */
export function noteResponse(world: World, connection: SimConnection, message: JsonRpcMessage): void {
  if (!isResponse(message)) return;
  connection.responded = true;
  const call = connection.view < 0 ? null : world.views[connection.view]!.call;
  if (call !== null && message['id'] === call.requestId) world.callAnswers += 1;
}

/**
 * The response a call's own request got as a JSON body (200, not a stream, the JSON-RPC response to the call's request
 * ID), which delivers the call's result as a one-event stream would; null for anything else.
 */
function jsonAnswerOf(world: World, connection: SimConnection, response: HttpResponse): JsonRpcMessage | null {
  if (response.streaming || response.status !== 200 || response.body === null || connection.view < 0 || !isResponse(response.body)) return null;
  const call = world.views[connection.view]!.call;
  return call !== null && connection.purpose !== 'resume' && response.body['id'] === call.requestId ? response.body : null;
}

/** The next operation of an action once `op` and everything it caused were handled, or null when it is done. */
export function followUp(world: World, op: Op): Op | null {
  if (op.kind !== 'handle' || op.stage !== 0) return null;
  const connection = world.connections[op.request.connection]!;
  const client = world.clients[connection.client]!;
  // A client that initialized says so, as the protocol asks, before anything else.
  if (connection.purpose !== 'initialize' || client.session === null || client.state !== C.state.live) return null;
  const follow = openConnection(world, client, 'initialized', { session: client.session, view: -1, cursor: null, lastEventId: null, kExpected: null });
  if (world.notes !== null) world.notes.push({ kind: 'request', form: 'initialized', method: 'POST', connection: follow.index, client: client.index + 1, session: client.session.id });
  return stamp(world, handleOp({ method: 'POST', connection: follow.index, sessionId: client.session.id, lastEventId: null, body: INITIALIZED_NOTIFICATION }, 1));
}

/** Names an action for traces and scripts, from the world before it runs: its record, read through the vocabulary. */
export function describeAction(world: World, kind: number, a: number, b: number): string {
  return SERVER_VOCABULARY.text(actionRecord(world, kind, a, b));
}

/**
 * An action as its trace records it, from the world before it runs: its kind (an ACTION_KINDS name) and what it acts
 * on, by the names a person reads (client 1, connection #3, call c2).
 */
export function actionRecord(world: World, kind: number, a: number, b: number): StepRecord {
  const name = ACTION_KINDS[kind] ?? String(kind);
  const client = (index: number) => index + 1;
  switch (name) {
    case 'initialize':
    case 'resumePreRestart':
    case 'resumeForged':
    case 'resumeMalformed':
    case 'openStandalone':
    case 'delete':
    case 'headerless':
    case 'notify':
    case 'expire':
      return { kind: name, client: client(a) };
    case 'badVersion':
      return { kind: name, client: client(a), method: BAD_VERSION_REQUESTS[b]!, protocolVersion: UNSUPPORTED_VERSION };
    case 'call':
    case 'callModern':
    case 'callLossy':
      return { kind: name, client: client(a), tool: TOOL_NAMES[b]!, ...(name === 'callModern' ? { revision: MODERN_REVISION } : {}) };
    case 'callTogether':
      return { kind: name, client: client(a), other: client(b), tool: 'read' };
    case 'callStale':
      return { kind: name, client: client(a), tool: TOOL_NAMES[b]!, lastEventId: world.clients[a]!.cursorLatest?.eventId ?? null };
    case 'cut':
    case 'serverClose':
      return { kind: name, connection: a, client: client(world.connections[a]!.client) };
    case 'loseTail':
      return { kind: name, connection: a, client: client(world.connections[a]!.client), frames: b };
    case 'resumeLatest':
    case 'resumeEarlier':
    case 'resumeCompleted':
    case 'resumeSuperseded': {
      const view = world.views[a]!;
      return { kind: name, client: client(view.client), call: view.call === null ? null : view.call.id };
    }
    case 'resumeAttached': {
      const view = world.views[a]!;
      return { kind: name, client: client(view.client), call: view.call === null ? null : view.call.id, cursor: b === 0 ? 'latest' : 'earlier', connection: view.connection };
    }
    case 'resumeTerminal': {
      const view = world.views[a]!;
      return { kind: name, client: client(view.client), call: view.call!.id };
    }
    case 'resumeForeign':
      return { kind: name, client: client(a), other: client(b) };
    case 'resend':
    case 'resendEchoed': {
      const call = world.calls[a]!;
      return { kind: name, client: client(call.client), call: call.id, tool: call.tool, requestId: call.requestId };
    }
    case 'resendInFlight': {
      const call = world.calls[a]!;
      return { kind: name, client: client(call.client), call: call.id, tool: call.tool, requestId: call.requestId, reuse: b !== 0, otherTool: otherTool(call.tool) };
    }
    case 'reissue': {
      const call = world.calls[a]!;
      return { kind: name, client: client(call.client), call: call.id, tool: call.tool };
    }
    case 'reissueLegacy': {
      const call = world.calls[a]!;
      return { kind: name, client: client(call.client), call: call.id, tool: call.tool, newSession: call.session !== world.clients[call.client]!.session };
    }
    case 'advance':
    case 'abortTool': {
      const execution = world.executions[a]!;
      return { kind: name, call: execution.callId, tool: execution.tool, execution: a + 1 };
    }
    case 'restart':
      return { kind: name, epoch: world.epoch + 1 };
    case 'crashNode':
    case 'restartNode':
      return { kind: name, node: a + 1 };
    case 'catchUp':
      return { kind: name };
    case 'callProxied': {
      const { tool, variant, other } = decodeProxied(b);
      const attaches = variant === PROXIED_OWN_CURSOR ? 'own cursor' : PROXIED[variant]!;
      return { kind: name, client: client(a), tool: TOOL_NAMES[tool]!, revision: MODERN_REVISION, attaches, ...(variant === PROXIED_OWN_CURSOR ? {} : { other: client(other) }) };
    }
    case 'probeModern':
      return { kind: name, client: client(a), method: b === 0 ? 'GET' : 'DELETE', revision: MODERN_REVISION };
    default:
      return { kind: name };
  }
}
