// A minimal in-process MCP-style Streamable HTTP server over the decision core: sessions, streams,
// connections, the simulator's tools. The reference target uses it as is; planted-bug targets swap in
// their own resumption strategy (how a request is decided, how events are named and kept).

import {
  type BufferedEvent,
  type CompletedStreamPolicy,
  type CoreRequest,
  type CoreState,
  type Decision,
  type SessionRecord,
  type StreamRecord,
  abortStream,
  appendEvent,
  createCoreState,
  decideRequest,
  endSession,
  isStatelessStream,
  openSession,
  openStream,
} from '../core/index.ts';
import { RULES } from '../core/decide.ts';
import { LEGACY_REVISIONS, MODERN_REVISION, REVISIONS } from '../sim/config.ts';
import { type ObjectSnapshot, keepObjects, writeBack } from '../sim/search/object-snapshot.ts';
import { PROTOCOL_VERSION, isModernBody, resetMessage } from '../sim/tools.ts';
import { type DeliveryParts, KitDelivery, type WriteOrigin } from './kit-delivery.ts';
import type {
  DecisionConfig,
  Frame,
  HttpRequest,
  HttpResponse,
  Incarnation,
  JsonRpcMessage,
  NodeBootOptions,
  NodeInstance,
  StateKeyWriter,
  TargetHost,
  TargetOptions,
  TargetRun,
  ToolName,
} from './target.ts';
import { TOOL_NAMES } from './target.ts';

/** What the kit keeps per event: the message sent, or (planted bugs only) a buffered request frame. */
export interface StoredMessage {
  readonly message: JsonRpcMessage | null;
  /** A request frame kept in the buffer; replaying it re-dispatches the request (seed 000's variant). */
  readonly requestFrame?: boolean;
  /** Which node wrote it, when: with several nodes and a store lag, other nodes see it only later. */
  readonly origin?: WriteOrigin;
}

/** A decision the kit carries out: the core's, or a planted one that replays into a new request's stream. */
export type KitDecision =
  | Decision<StoredMessage>
  | {
      readonly kind: 'execute-with-replay';
      readonly rule: string;
      readonly session: SessionRecord<StoredMessage>;
      readonly replay: readonly BufferedEvent<StoredMessage>[];
    };

/** One incarnation's resumption logic. The reference delegates everything to the core. */
export interface StrategyIncarnation {
  readonly state: CoreState<StoredMessage>;
  decide(request: CoreRequest): KitDecision;
  /** Issues and keeps an event; returns the ID the client sees. */
  append(stream: StreamRecord<StoredMessage>, stored: StoredMessage, options: { terminal: boolean; priming?: boolean }): BufferedEvent<StoredMessage>;
  /** Registers a new session under `sessionId`. */
  openSession(sessionId: string): SessionRecord<StoredMessage>;
  /** Opens a stream (recording a request in the ledger). */
  openStream(session: SessionRecord<StoredMessage>, opening: StreamOpening): StreamRecord<StoredMessage>;
  /** The ID the next initialize gets. */
  nextSessionId(host: TargetHost): string;
  /** Buffer request frames in their stream (a planted bug; never in the reference). */
  readonly bufferRequestFrames: boolean;
  /**
   * With `bufferRequestFrames`: a replayed request frame is written to the client as an event, as the seed's server
   * did (a planted bug), instead of being dispatched again by the server.
   */
  readonly echoRequestFrames?: boolean;
  /**
   * What becomes of a stream's connection when another connection joins the stream: the server ends it, so its
   * client knows (the reference), or forgets it, leaving it open with nothing more to come (a planted bug).
   */
  readonly supersededConnection?: 'end' | 'forget';
  /**
   * What a 2026-07-28 client's disconnect does to its request: cancels it (the reference; "The server MUST treat a
   * client disconnect as cancellation of that request"), or nothing, the tool running on (a planted bug).
   */
  readonly cancelOnDisconnect?: boolean;
  /**
   * True when everything the incarnation keeps is in `state`, so the kit can key its state for exploration. Set by
   * {@link markSelfContained} as a non-enumerable property: a spread copy (`{ ...base, ... }`), which may keep more
   * state in its own closures, does not inherit it.
   */
  readonly selfContained?: boolean;
}

/** Marks an incarnation whose whole state is its `state` (see {@link StrategyIncarnation.selfContained}). */
export function markSelfContained(incarnation: StrategyIncarnation): StrategyIncarnation {
  Object.defineProperty(incarnation, 'selfContained', { value: true, enumerable: false });
  return incarnation;
}

/** How a stream is opened: for a request (kept in the ledger) or as the standalone stream. */
export type StreamOpening = { origin: 'request'; requestKey: string; fingerprint: string } | { origin: 'standalone' };

/** A run's resumption logic; what it keeps outside an incarnation outlives restarts. */
export interface Strategy {
  boot(incarnation: Incarnation, options: TargetOptions, host: TargetHost): StrategyIncarnation;
}

/** Session IDs as a real server makes them: random, here from the run's seed. */
export function randomSessionId(host: TargetHost): string {
  let id = 's';
  for (let i = 0; i < 8; i += 1) id += Math.floor(host.random() * 36).toString(36);
  return id;
}

/** Each core rule's index in RULES (a planted decision may name a rule of its own, which is not counted). */
const RULE_INDEX: ReadonlyMap<string, number> = new Map(RULES.map((rule, index) => [rule, index]));

/** The reference strategy: the decision core, a new core state (and epoch token) per incarnation. */
export function coreIncarnation(
  incarnation: Incarnation,
  options: TargetOptions,
  policy: { completedStreamPolicy?: CompletedStreamPolicy; modernOnly?: boolean } = {},
): StrategyIncarnation {
  const state = createCoreState<StoredMessage>({
    epoch: `e${incarnation.epoch}`,
    windowEventsMax: options.windowEventsMax,
    ...(policy.completedStreamPolicy === undefined ? {} : { completedStreamPolicy: policy.completedStreamPolicy }),
    ...(policy.modernOnly === true ? { modernOnly: true } : {}),
  });
  // Methods, not arrow properties: tsx names every arrow property it creates, which costs on every boot.
  return markSelfContained({
    state,
    decide(request) {
      return decideRequest(state, request);
    },
    append(stream, stored, options) {
      return appendEvent(state, stream, stored, options);
    },
    openSession(sessionId) {
      return openSession(state, sessionId);
    },
    openStream(session, opening) {
      return openStream(state, session, opening);
    },
    nextSessionId: randomSessionId,
    bufferRequestFrames: false,
  });
}

/** How a kit server's nodes share a deployment (see kit-delivery.ts). */
export interface KitRunOptions {
  /**
   * Several nodes: true (the reference design) delivers a stream's events to whichever node holds its connection;
   * false (the planted `no-handoff` bug) lets each node deliver only the events it writes itself.
   */
  readonly handoff?: boolean;
}

/** What the nodes of one incarnation share: the core state (sessions, streams, ledger) and the delivery. */
interface KitDeployment {
  readonly strategy: StrategyIncarnation;
  readonly delivery: KitDelivery<StoredMessage>;
}

/**
 * A run of a kit server with the given strategy. One node per incarnation (`boot`), or several over one shared core
 * state (`bootNode`, from targets/multi-node): the storage outlives a node's crash, not a restart of the whole.
 */
export function openKitRun(strategy: Strategy, options: TargetOptions, kit: KitRunOptions = {}): TargetRun {
  const deployments = new Map<number, KitDeployment>();
  return {
    sync: true,
    boot(incarnation, host) {
      const booted = strategy.boot(incarnation, options, host);
      // One node: a strategy whose whole state is in the core state can be keyed and snapshot for exploration.
      return booted.selfContained === true ? new KeyedKitServer(booted, host, new KitDelivery(host, 0), 0) : new KitServer(booted, host, new KitDelivery(host, 0), 0);
    },
    bootNode(incarnation, host, boot: NodeBootOptions) {
      let deployment = deployments.get(incarnation.epoch);
      if (deployment === undefined) {
        // Only the current incarnation's deployment is kept: a restart of the whole drops the storage too.
        deployments.clear();
        deployment = { strategy: strategy.boot(incarnation, options, host), delivery: new KitDelivery(host, boot.storeLagSteps) };
        deployments.set(incarnation.epoch, deployment);
      }
      const delivery = kit.handoff === false ? new KitDelivery<StoredMessage>(host, boot.storeLagSteps) : deployment.delivery;
      return new KitServer(deployment.strategy, host, delivery, boot.node);
    },
    close() {},
  };
}

interface Execution {
  readonly stream: StreamRecord<StoredMessage>;
  readonly requestId: unknown;
}

function jsonError(status: number, code: number, message: string, sessionId: string | null = null): HttpResponse {
  return { status, sessionId, streaming: false, body: { jsonrpc: '2.0', id: null, error: { code, message } } };
}

/**
 * What tells a re-sent request from another request under the same id. The kit serves only the simulator's tools,
 * whose one argument is the call ID, so the method, tool and call ID are the whole of a request's meaning (any
 * other request is refused before it could execute); serialising the parameters would cost more than the step.
 */
function fingerprintOf(body: JsonRpcMessage | null): string {
  if (body === null) return '';
  const method = String(body['method']);
  if (method !== 'tools/call') return method;
  const params = body['params'] as { name?: unknown; arguments?: { callId?: unknown } } | undefined;
  return `${method} ${String(params?.name)} ${String(params?.arguments?.callId)}`;
}

function isToolName(name: unknown): name is ToolName {
  return typeof name === 'string' && (TOOL_NAMES as readonly string[]).includes(name);
}

class KitServer implements NodeInstance {
  protected readonly executions = new Map<number, Execution>();
  /** How often each rule of the decision table was decided since the coverage last took them (indexed as RULES). */
  private readonly decided = new Array<number>(RULES.length).fill(0);
  /** Whether `decided` holds anything not taken yet (coverage takes them after every operation; most decide nothing). */
  private decidedAny = false;

  constructor(
    protected readonly strategy: StrategyIncarnation,
    private readonly host: TargetHost,
    /** Which connection each stream is attached to: this node's own, or the deployment's (several nodes). */
    protected readonly delivery: KitDelivery<StoredMessage>,
    private readonly node: number,
  ) {}

  handle(request: HttpRequest): HttpResponse {
    this.delivery.beginOperation();
    const lastEventId = request.method === 'DELETE' ? null : request.lastEventId;
    const body = request.method === 'POST' ? request.body : null;
    const requestId = body !== null && 'id' in body ? body['id'] : undefined;
    // The era of a request, as a dual-era server picks it: a POST by its _meta envelope, a GET or DELETE by its
    // MCP-Protocol-Version header (which the legacy path then answers, on a dual-era endpoint).
    const modern = request.method === 'POST' ? isModernBody(body) : request.protocolVersion === MODERN_REVISION;
    // 2025-06-18 and 2025-11-25 basic/transports: "If the server receives a request with an invalid or unsupported
    // MCP-Protocol-Version, it MUST respond with 400 Bad Request." An initialize negotiates its version in its body.
    const initializing = body?.['method'] === 'initialize' && requestId !== undefined;
    const unsupported = request.protocolVersion !== undefined && !initializing && !(REVISIONS as readonly string[]).includes(request.protocolVersion);
    const core: CoreRequest =
      request.method === 'POST'
        ? {
            kind: 'post',
            sessionId: request.sessionId,
            lastEventId,
            initialize: body?.['method'] === 'initialize',
            requestKey: requestId === undefined ? null : typeof requestId === 'number' ? String(requestId) : JSON.stringify(requestId),
            fingerprint: fingerprintOf(body),
            ...(modern ? { modern } : {}),
          }
        : request.method === 'GET'
          ? { kind: 'get', sessionId: request.sessionId, lastEventId, ...(modern ? { modern } : {}) }
          : { kind: 'delete', sessionId: request.sessionId, ...(modern ? { modern } : {}) };
    const decision = this.strategy.decide(core);
    // Checked after the session, as the SDK transports order them: a terminated session's request still gets its 404
    // ("it MUST respond to requests containing that session ID with HTTP 404"), any other the version's 400. The
    // decision (pure, in the reference) is not acted on.
    if (unsupported && !(decision.kind === 'reject' && decision.status === 404)) {
      return jsonError(400, -32000, `Bad Request: unsupported MCP-Protocol-Version ${request.protocolVersion}`, request.sessionId);
    }
    const ruleIndex = RULE_INDEX.get(decision.rule);
    if (ruleIndex !== undefined) {
      this.decided[ruleIndex]! += 1;
      this.decidedAny = true;
    }
    switch (decision.kind) {
      case 'initialize': {
        const sessionId = this.strategy.nextSessionId(this.host);
        const session = this.strategy.openSession(sessionId);
        const asked = (body?.['params'] as { protocolVersion?: unknown } | undefined)?.protocolVersion;
        // A legacy revision the client asks for is the one spoken; before 2025-11-25 its streams have no priming event.
        const revision = typeof asked === 'string' && (LEGACY_REVISIONS as readonly string[]).includes(asked) ? asked : PROTOCOL_VERSION;
        if (revision !== PROTOCOL_VERSION) session.revision = revision;
        const result = { protocolVersion: revision, capabilities: { tools: {} }, serverInfo: { name: 'resumecheck-kit', version: '0.1.0' } };
        return { status: 200, sessionId, streaming: false, body: { jsonrpc: '2.0', id: requestId ?? null, result } };
      }
      case 'reject':
        return jsonError(decision.status, -32000, decision.detail, modern ? null : request.sessionId);
      case 'accept':
        return { status: 202, sessionId: decision.session.index === 0 ? null : decision.session.id, streaming: false, body: null };
      case 'delete':
        this.endSessionConnections(decision.session, 'deleted');
        return { status: 200, sessionId: decision.session.id, streaming: false, body: null };
      case 'standalone': {
        const stream = this.strategy.openStream(decision.session, { origin: 'standalone' });
        this.attach(stream, request.connection);
        if (hasPriming(decision.session)) this.write(stream, this.strategy.append(stream, this.stored(null), { terminal: false, priming: true }));
        return { status: 200, sessionId: decision.session.id, streaming: true, body: null };
      }
      case 'execute':
      case 'execute-with-replay':
        if (body === null || core.kind !== 'post') throw new Error('execute decided for a request without a body');
        return this.execute(decision, body, request.connection, core);
      case 'stream': {
        this.attach(decision.stream, request.connection);
        if (decision.reset !== null) {
          this.delivery.send(request.connection, { eventId: null, event: 'reset', data: resetMessage({ ...decision.reset }), retryMs: null }, null);
        }
        this.replay(decision.session, decision.replay, request.connection, decision.stream);
        if (decision.then === 'end') this.delivery.end(request.connection);
        return { status: 200, sessionId: decision.session.id, streaming: true, body: null };
      }
    }
  }

  private execute(
    decision: Extract<KitDecision, { kind: 'execute' | 'execute-with-replay' }>,
    body: JsonRpcMessage,
    connection: number,
    core: Extract<CoreRequest, { kind: 'post' }>,
  ): HttpResponse {
    const session = decision.session;
    const params = (body['params'] ?? {}) as { name?: unknown; arguments?: { callId?: unknown } };
    if (body['method'] !== 'tools/call' || !isToolName(params.name) || typeof params.arguments?.callId !== 'string') {
      return jsonError(400, -32601, 'only tools/call of read, append or work is served', session.id);
    }
    const stream = this.strategy.openStream(session, {
      origin: 'request',
      requestKey: core.requestKey ?? 'null',
      fingerprint: core.fingerprint,
    });
    this.attach(stream, connection);
    if (hasPriming(session)) this.write(stream, this.strategy.append(stream, this.stored(null), { terminal: false, priming: true }));
    if (decision.kind === 'execute-with-replay') this.replay(session, decision.replay, connection, null);
    if (this.strategy.bufferRequestFrames && stream.status === 'open') {
      this.strategy.append(stream, { message: body, requestFrame: true }, { terminal: false });
    }
    const execution = this.host.startExecution({ callId: params.arguments.callId, tool: params.name, sessionId: session.id });
    this.executions.set(execution, { stream, requestId: body['id'] });
    // A 2026-07-28 response carries no Mcp-Session-Id: there is no session.
    return { status: 200, sessionId: session.index === 0 ? null : session.id, streaming: true, body: null };
  }

  /** Writes replayed events on `connection`; those of `stream` (the stream it carries) count as sent. */
  private replay(
    session: SessionRecord<StoredMessage>,
    events: readonly BufferedEvent<StoredMessage>[],
    connection: number,
    stream: StreamRecord<StoredMessage> | null,
  ): void {
    for (const event of events) {
      if (event.message.requestFrame === true && this.strategy.echoRequestFrames !== true) {
        // The planted bug's dispatcher takes a replayed request frame for a new request and runs it again.
        const body = event.message.message;
        const params = (body?.['params'] ?? {}) as { name?: unknown; arguments?: { callId?: unknown } };
        if (body !== null && isToolName(params.name) && typeof params.arguments?.callId === 'string') {
          const stream = this.delivery.streamOf(connection);
          if (stream !== undefined && session.status === 'live') {
            const execution = this.host.startExecution({ callId: params.arguments.callId, tool: params.name, sessionId: session.id });
            this.executions.set(execution, { stream, requestId: body['id'] });
          }
        }
        continue;
      }
      this.delivery.send(connection, frameOf(event), event.message.origin ?? null, stream, event.seq);
    }
  }

  abortExecution(executionNumber: number): void {
    this.delivery.beginOperation();
    const execution = this.executions.get(executionNumber);
    if (execution === undefined) return;
    this.executions.delete(executionNumber);
    this.host.cancelled(executionNumber);
    const { stream } = execution;
    if (stream.status !== 'open') return;
    abortStream(stream);
    // A connection still carrying the stream learns at once, as it would on a resume: a reset, then the end.
    const connection = this.delivery.connectionOf(stream);
    if (connection === undefined) return;
    const reset = resetMessage({ reason: 'aborted', missedFromSeq: stream.seqLast + 1, missedToSeq: stream.seqLast });
    this.delivery.send(connection, { eventId: null, event: 'reset', data: reset, retryMs: null }, null);
    this.delivery.end(connection);
  }

  decisionConfig(): DecisionConfig {
    const { config } = this.strategy.state;
    return { completedStreamPolicy: config.completedStreamPolicy.name, modernOnly: config.modernOnly, streamsPerSessionMax: config.streamsPerSessionMax };
  }

  takeDecisions(into: number[]): void {
    if (!this.decidedAny) return;
    this.decidedAny = false;
    for (let index = 0; index < this.decided.length; index += 1) {
      into[index]! += this.decided[index]!;
      this.decided[index] = 0;
    }
  }

  cut(connection: number): void {
    const stream = this.delivery.streamOf(connection);
    // The network cut the connection before anything this operation makes visible could go out on it: what the lag
    // held back for it is dropped first, never written (so never counted as possibly delivered), then the rest flows.
    this.delivery.detach(connection);
    this.delivery.beginOperation();
    // 2026-07-28: "The server MUST treat a client disconnect as cancellation of that request" (and sends nothing more).
    if (stream !== undefined && isStatelessStream(stream) && stream.status === 'open' && this.strategy.cancelOnDisconnect !== false) this.cancel(stream);
  }

  /** Cancels the request a stateless stream answers: the stream ends without a result, the tool is told to stop. */
  private cancel(stream: StreamRecord<StoredMessage>): void {
    abortStream(stream);
    for (const [number, execution] of this.executions) {
      if (execution.stream !== stream) continue;
      this.executions.delete(number);
      this.host.cancelled(number);
    }
  }

  advance(executionNumber: number): void {
    this.delivery.beginOperation();
    const execution = this.executions.get(executionNumber);
    if (execution === undefined) return;
    const step = this.host.nextStep(executionNumber);
    // Work of an ended stream (expired session, aborted call) goes nowhere.
    if (execution.stream.status !== 'open') return;
    const terminal = step.kind === 'result';
    const message: JsonRpcMessage =
      step.kind === 'result' ? { jsonrpc: '2.0', id: execution.requestId, result: step.result } : step.message;
    this.write(execution.stream, this.strategy.append(execution.stream, this.stored(message), { terminal }));
    if (terminal) {
      this.executions.delete(executionNumber);
      const connection = this.delivery.connectionOf(execution.stream);
      if (connection !== undefined) this.delivery.end(connection);
    }
  }

  notify(sessionId: string, message: JsonRpcMessage): void {
    this.delivery.beginOperation();
    const session = this.strategy.state.sessions.get(sessionId);
    if (session === undefined || session.status !== 'live' || session.standaloneIndex === 0) return;
    const stream = session.streams[session.standaloneIndex - 1];
    if (stream === undefined || stream.status !== 'open') return;
    this.write(stream, this.strategy.append(stream, this.stored(message), { terminal: false }));
  }

  closeConnection(connection: number, retryMs: number): void {
    this.delivery.beginOperation();
    if (this.delivery.streamOf(connection) === undefined) return;
    this.delivery.closeNow(connection, { eventId: null, event: null, data: null, retryMs });
  }

  expire(sessionId: string): void {
    this.delivery.beginOperation();
    const session = this.strategy.state.sessions.get(sessionId);
    if (session !== undefined && session.status === 'live') this.endSessionConnections(session, 'expired');
  }

  dispose(): void {
    this.delivery.clear();
    this.executions.clear();
  }

  /**
   * The node crashes. Its connections are dropped (nothing more is sent on them, no end either); its tool executions
   * die with it, so their streams can never complete: the shared storage marks them aborted (a lease on the stream
   * runs out), and a connection another node holds on one of them gets a reset and ends, as a later resume would.
   */
  crash(): void {
    for (const connection of this.delivery.connectionsOf(this.node)) this.delivery.detach(connection);
    for (const execution of this.executions.values()) {
      const { stream } = execution;
      if (stream.status !== 'open') continue;
      abortStream(stream);
      const connection = this.delivery.connectionOf(stream);
      if (connection === undefined) continue;
      const reset = resetMessage({ reason: 'aborted', missedFromSeq: stream.seqLast + 1, missedToSeq: stream.seqLast });
      this.delivery.send(connection, { eventId: null, event: 'reset', data: reset, retryMs: null }, null);
      this.delivery.end(connection);
    }
    this.executions.clear();
  }

  catchUp(): void {
    this.delivery.catchUp();
  }

  lagging(): boolean {
    return this.delivery.lagging();
  }

  /** What is kept of a message this node writes; where it came from matters only under a store lag. */
  private stored(message: JsonRpcMessage | null): StoredMessage {
    return this.delivery.lagSteps === 0 ? { message } : { message, origin: { node: this.node, tick: this.delivery.tick } };
  }

  private endSessionConnections(session: SessionRecord<StoredMessage>, how: 'expired' | 'deleted'): void {
    for (const stream of session.streams) {
      const connection = this.delivery.connectionOf(stream);
      if (connection !== undefined) this.delivery.end(connection);
    }
    endSession(session, how);
  }

  private write(stream: StreamRecord<StoredMessage>, event: BufferedEvent<StoredMessage>): void {
    const connection = this.delivery.connectionOf(stream);
    if (connection === undefined) return;
    this.delivery.send(connection, frameOf(event), event.message.origin ?? null, stream, event.seq);
  }

  private attach(stream: StreamRecord<StoredMessage>, connection: number): void {
    // One connection per stream: a new one supersedes the old, which the server ends (or, a planted bug, forgets).
    this.delivery.attach(stream, connection, this.node, { superseded: this.strategy.supersededConnection ?? 'end' });
  }
}

function frameOf(event: BufferedEvent<StoredMessage>): Frame {
  // A 2026-07-28 request's events carry no ID: there is nothing to resume them with.
  return { eventId: event.id.startsWith(STATELESS_MARK, event.id.indexOf('.')) ? null : event.id, event: null, data: event.message.message, retryMs: null };
}

/** What follows the epoch token in the ID of a stateless stream's event (session index 0). */
const STATELESS_MARK = '.0.';

/** True when the session's streams begin with a priming event: 2025-11-25 (SEP-1699); never for stateless requests. */
function hasPriming(session: SessionRecord<StoredMessage>): boolean {
  return session.index !== 0 && session.revision === undefined;
}

/** A kit server whose strategy keeps all its state in the core state: it can key that state for exploration. */
/** What a keyed kit server snapshots: its core state's sessions, its delivery's attachments and its executions, kept together. */
interface KitSnapshot {
  readonly stateless: SessionRecord<StoredMessage>;
  readonly sessions: Map<string, SessionRecord<StoredMessage>>;
  readonly sessionsByIndex: SessionRecord<StoredMessage>[];
  readonly delivery: DeliveryParts<StoredMessage>;
  readonly executions: Map<number, Execution>;
}

class KeyedKitServer extends KitServer {
  snapshot(): unknown {
    const state = this.strategy.state;
    const parts: KitSnapshot = { stateless: state.stateless, sessions: state.sessions, sessionsByIndex: state.sessionsByIndex, delivery: this.delivery.parts(), executions: this.executions };
    // The objects themselves with their contents (sim/search/object-snapshot.ts), put back into them by `restore`.
    return { parts, kept: keepObjects([parts]) };
  }

  restore(snapshot: unknown): void {
    // Into the same objects: the strategy's methods hold its core state in closures.
    const { parts, kept } = snapshot as { parts: KitSnapshot; kept: ObjectSnapshot };
    // The delivery's maps and queue are among the kept objects, written back with the rest; its tick is a number.
    writeBack(kept);
    this.delivery.restoreTick(parts.delivery.tick);
  }

  stateKey(key: StateKeyWriter): void {
    // The core's session map is the index list keyed by ID (derived); its config is fixed for the run.
    key.value(this.strategy.state.sessionsByIndex);
    key.value(this.strategy.state.stateless);
    // The two maps are only looked up, never iterated to decide anything but which superseded standalone stream's
    // connection to end (at most one is attached): written in the order of the connections' names, not of insertion.
    const byName = (left: readonly [string, unknown], right: readonly [string, unknown]) => (left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0);
    const { byStream, byConnection } = this.delivery.parts();
    for (const [name, stream] of [...byStream].map(([stream, connection]) => [key.connection(connection), stream] as const).sort(byName)) {
      key.value(name);
      key.value(stream);
    }
    key.value('|');
    for (const [name, stream] of [...byConnection].map(([connection, attachment]) => [key.connection(connection), attachment.stream] as const).sort(byName)) {
      key.value(name);
      key.value(stream);
    }
    key.value('|');
    // An execution the simulator never advances again cannot change what the server does.
    for (const [number, execution] of this.executions) {
      const name = key.execution(number);
      if (name === null) continue;
      key.value(name);
      key.value(execution);
    }
  }
}
