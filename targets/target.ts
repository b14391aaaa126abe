// The one interface every system under test sits behind: an MCP Streamable HTTP server reduced to the
// HTTP exchanges the simulator makes, the SSE frames it writes back, and the server-side events the
// simulator schedules (tool steps, notifications, restarts, expiry).

import type { PropertyName } from '../properties/names.ts';
import type { ActionKind } from '../sim/config.ts';

/** A JSON-RPC message as plain data. */
export type JsonRpcMessage = { readonly jsonrpc: '2.0' } & Readonly<Record<string, unknown>>;

/** What kind of system a target is. */
export type TargetKind = 'reference' | 'planted' | 'sdk' | 'module' | 'client';

/** How a target describes itself (`resumecheck targets --json`). */
export interface TargetInfo {
  readonly name: string;
  readonly kind: TargetKind;
  readonly description: string;
  /** For planted targets: the properties the planted bug is meant to violate. */
  readonly breaks: readonly PropertyName[];
  /** For targets that run the real SDK: its package and version as installed (`@modelcontextprotocol/server@2.4.0`). */
  readonly sdk?: string;
  /**
   * The protocol eras the target serves: `legacy` (2025-03-26 to 2025-11-25: sessions, SSE resumability) and/or
   * `modern` (2026-07-28: no session, no GET stream, a disconnect cancels). Absent: legacy only.
   */
  readonly eras?: readonly ProtocolEra[];
  /**
   * What the target is made of, for targets assembled from parts (the SDK targets): a finding is charged to one of
   * them (sim/shrink/attribution.ts). Absent: the target is one system (the reference, a planted bug, a server over the wire).
   */
  readonly components?: TargetComponents;
}

/** A part of an assembled target that a finding can be charged to. */
export type ComponentRole = 'transport' | 'store' | 'router' | 'harness';

/** Every component role, in the order findings pages list them. */
export const COMPONENT_ROLES: readonly ComponentRole[] = ['transport', 'store', 'router', 'harness'];

/** The parts of an assembled target, each as a person names it and where it comes from. */
export interface TargetComponents {
  /** The package whose transport and McpServer run, without its version (the target's `sdk` has the installed one). */
  readonly transport: string;
  /** The event store each session's transport gets. */
  readonly store: string;
  /** What routes requests to the transports (the application in front of them). */
  readonly router: string;
  /** What drives the rest: the in-process harness and its simulated clients. */
  readonly harness: string;
}

/** The components a finding can be told apart by: replacing one with a correct one (sim/shrink/attribution.ts). */
export type ReplaceableRole = 'store' | 'router';

/** The two eras of the protocol: the sessionful 2025 revisions, and the stateless 2026-07-28 one. */
export type ProtocolEra = 'legacy' | 'modern';

/** One SSE frame as written by the server. */
export interface Frame {
  /** The `id:` field; null when the frame has none. */
  readonly eventId: string | null;
  /** The `event:` field; null for the default `message` event. `reset` announces lost events. */
  readonly event: string | null;
  /** The parsed `data:` field; null for an empty data field (a priming event). */
  readonly data: JsonRpcMessage | null;
  /** The `retry:` field in milliseconds, if any. */
  readonly retryMs: number | null;
}

/** One HTTP request the simulator makes. `connection` names the exchange; the simulator allocates it. */
export type HttpRequest =
  | {
      readonly method: 'POST';
      readonly connection: number;
      readonly sessionId: string | null;
      readonly lastEventId: string | null;
      readonly body: JsonRpcMessage;
      /**
       * The revision the request is made under (its client's); the revision headers it carries follow from it
       * (targets/sdk/revision-headers.ts: none for 2025-03-26, `MCP-Protocol-Version` from 2025-06-18 on). Absent:
       * the simulator's default legacy revision (2025-11-25).
       */
      readonly protocolVersion?: string;
    }
  | {
      readonly method: 'GET';
      readonly connection: number;
      readonly sessionId: string | null;
      readonly lastEventId: string | null;
      readonly protocolVersion?: string;
    }
  | { readonly method: 'DELETE'; readonly connection: number; readonly sessionId: string | null; readonly protocolVersion?: string };

/** The head of a response, and its body when that is not an SSE stream. */
export interface HttpResponse {
  readonly status: number;
  /** The `Mcp-Session-Id` response header. */
  readonly sessionId: string | null;
  /** True when the body is an SSE stream; its frames then arrive through {@link TargetHost.frame}. */
  readonly streaming: boolean;
  /** A JSON body (for JSON responses and errors); null otherwise. */
  readonly body: JsonRpcMessage | null;
  /** The node that answered (0-based), when the target is several nodes behind a balancer (an `X-Served-By` header). */
  readonly node?: number;
}

/** The simulator's tools. `append` is non-idempotent: it must execute at most once per call. */
export type ToolName = 'read' | 'append' | 'work';
export const TOOL_NAMES: readonly ToolName[] = ['read', 'append', 'work'];

/** What a target tells the simulator when one of the simulator's tools starts executing. */
export interface ExecutionStart {
  /** The call ID the simulator put in the tool's arguments. */
  readonly callId: string;
  readonly tool: ToolName;
  /** The session ID the server ran the tool in, as the server saw it. */
  readonly sessionId: string;
  /** The node running it (0-based), when the target is several nodes; its crash ends the execution. */
  readonly node?: number;
}

/**
 * The next thing a running execution produces: a notification to send on the call's stream, or the tool's
 * result (a `CallToolResult`), which the server wraps in the JSON-RPC response to the call's request.
 */
export type ToolStep =
  | { readonly kind: 'notification'; readonly message: JsonRpcMessage }
  | { readonly kind: 'result'; readonly result: Readonly<Record<string, unknown>> };

/**
 * What the simulator offers a running server. Frames and ends may be reported at any time the target is
 * being driven (during `handle`, `advance`, `notify`, ...); the simulator orders them as reported.
 */
export interface TargetHost {
  /** The server wrote a frame on the response body of `connection`. */
  frame(connection: number, frame: Frame): void;
  /** The server ended the response body of `connection`. */
  end(connection: number): void;
  /** A tool started executing; returns the execution's number, used by {@link ServerInstance.advance}. */
  startExecution(start: ExecutionStart): number;
  /** The next message of an execution (a progress notification, then the result). Never called past the result. */
  nextStep(execution: number): ToolStep;
  /**
   * The server cancelled a running execution: the tool observed its cancellation (in the SDK, its request's abort
   * signal fired) and stops; no further step is asked for it. 2026-07-28 asks this of a client disconnect.
   */
  cancelled(execution: number): void;
  /** A deterministic number in [0, 1) from the run's seed, for session IDs and other server randomness. */
  random(): number;
}

/** What of a core-built target's configuration rules some rows of the decision table out (decision coverage). */
export interface DecisionConfig {
  /** The completed-stream policy's name (core/policy.ts): the other policies' rows are never decided. */
  readonly completedStreamPolicy: string;
  /** A 2026-07-28-only endpoint decides only the modern rows. */
  readonly modernOnly: boolean;
  /** Streams a session may open before `stream-limit`. */
  readonly streamsPerSessionMax: number;
}

/** One incarnation of the server, booted by {@link TargetRun.boot}. */
export interface ServerInstance {
  handle(request: HttpRequest): HttpResponse | Promise<HttpResponse>;
  /** The client dropped `connection` (network cut or reader cancelled). */
  cut(connection: number): void | Promise<void>;
  /** The tool execution takes its next step: the server sends its next message. */
  advance(execution: number): void | Promise<void>;
  /** The server sends `message` to the session on its standalone stream (it may be stored but not sent). */
  notify(sessionId: string, message: JsonRpcMessage): void | Promise<void>;
  /** The server closes `connection` without ending the stream, asking the client to come back (polling). */
  closeConnection(connection: number, retryMs: number): void | Promise<void>;
  /** The server expires a session. */
  expire(sessionId: string): void | Promise<void>;
  /** The incarnation stops (a restart): everything it holds in memory is gone. */
  dispose(): void | Promise<void>;
  /** Several nodes only (targets/multi-node): node `node` crashes; its memory is gone, the shared storage stays. */
  crashNode?(node: number): void | Promise<void>;
  /** Several nodes only: the crashed node `node` boots again, empty, over the shared storage. */
  restartNode?(node: number): void | Promise<void>;
  /** Several nodes with store lag only: every write reaches every node now (replication catches up). */
  catchUp?(): void | Promise<void>;
  /** Several nodes with store lag only: true while some write has not reached every node yet. */
  lagging?(): boolean;
  /**
   * Optional, for decision coverage: adds how often each rule of the decision core (core/decide.ts RULES, by
   * index) was decided since the last call into `into`, and forgets them. Only targets built on the core offer it.
   */
  takeDecisions?(into: number[]): void;
  /**
   * Optional, one node: the tool of `execution` fails or is cancelled on the server, mid-stream, without an answer.
   * The server ends the call's stream as aborted (a later resume of it gets a reset) and tells the host it stopped.
   */
  abortExecution?(execution: number): void | Promise<void>;
  /** With `takeDecisions`: what of the core's configuration decides which rules can be reached at all. */
  decisionConfig?(): DecisionConfig;
  /**
   * Optional, for exhaustive exploration (sim/search/explore.ts): writes everything this incarnation holds that can change
   * what it does next, so that two worlds whose keys are equal may be explored once. Offer it only when the whole
   * state is reachable from here (no state hidden in closures); connection and execution numbers go through
   * `key.connection` and `key.execution`, which name them canonically.
   */
  stateKey?(key: StateKeyWriter): void;
  /**
   * Optional, with `stateKey`: everything `stateKey` writes, copied (so later changes do not reach it). The
   * exploration restores it into this same instance instead of replaying the steps that led there.
   */
  snapshot?(): unknown;
  /** Puts back what {@link ServerInstance.snapshot} returned (it may be restored many times). */
  restore?(snapshot: unknown): void;
}

/** What a target writes its state to for {@link ServerInstance.stateKey}. */
export interface StateKeyWriter {
  /** Any plain value: primitives, arrays, Maps, Sets, plain objects (shared objects are written once). */
  value(value: unknown): void;
  /** A connection number, named canonically among the live connections (attached, or losing their tail). */
  connection(connection: number): string;
  /** An execution number, named by its place among the running executions; null for one that never runs again. */
  execution(execution: number): string | null;
}

/** One node of a deployment of several over one shared storage, booted by {@link TargetRun.bootNode}. */
export interface NodeInstance extends ServerInstance {
  /** The node crashes: what it holds in memory (connections, transports, executions) is gone, the storage stays. */
  crash(): void | Promise<void>;
}

/** How a deployment of several nodes shares its storage and delivers events between nodes. */
export interface NodeBootOptions {
  /** The node's number, 0-based. */
  readonly node: number;
  /** A write by one node reaches the others after this many deployment operations (0: at once). */
  readonly storeLagSteps: number;
}

/** The identity of one server incarnation. */
export interface Incarnation {
  /** 1 for the first incarnation of a run, then 2, 3, ... */
  readonly epoch: number;
}

/** One run's use of a target. State kept here (not in an instance) outlives restarts, like a database. */
export interface TargetRun {
  /** Synchronous targets return plain values and run in the fast loop; others are awaited. */
  readonly sync: boolean;
  /**
   * Action kinds this run cannot carry out (a server over the wire cannot be made to expire a session): the simulator
   * never offers them. Absent: every kind.
   */
  readonly unsupported?: readonly ActionKind[];
  /**
   * Its tools answer inside the request that called them (a server's own echo tool over the wire): no fault can come
   * between a call's first event and its result, so the simulator offers the lossy call (`callLossy`) instead.
   */
  readonly answersWithinRequest?: boolean;
  /**
   * Its sessions outlive a restart (kept where the restart keeps them, as a deployment that holds its sessions in Redis
   * does): a live session goes on in the next incarnation, and only the calls running in the last one end. Absent: a
   * restart ends every session, as a server holding them in memory does.
   */
  readonly sessionsOutliveRestart?: boolean;
  boot(incarnation: Incarnation, host: TargetHost): ServerInstance;
  /**
   * Boots one node of a deployment of several over this incarnation's shared storage (targets/multi-node calls it
   * once per node, and again for a node that restarts). Targets without it run on one node only.
   */
  bootNode?(incarnation: Incarnation, host: TargetHost, options: NodeBootOptions): NodeInstance;
  /** Nodes of the deployment (default 1): the simulator offers node crashes when there are several. */
  readonly nodes?: number;
  /** Releases whatever the run holds (restores patched globals, for instance). */
  close(): void | Promise<void>;
}

/** Options a run passes to a target. */
export interface TargetOptions {
  /** Events retained per stream, for targets with a bounded window. */
  readonly windowEventsMax: number;
  /** The run's seed, for targets that must replace their own randomness. */
  readonly seed: string;
}

/** A system under test. */
export interface Target extends TargetInfo {
  open(options: TargetOptions): TargetRun | Promise<TargetRun>;
  /**
   * True when a run depends on real time (a server over the wire): a re-run of the same choices may go otherwise. A
   * counterexample is then kept as the run that found it was recorded, never as a re-run of its choices.
   */
  readonly realTime?: boolean;
  /**
   * True when a run may go otherwise for the same choices although it keeps no real time: a user's store module, which
   * may keep state the simulator does not reset between runs (globals, files, a database). A shrink candidate then
   * counts as still failing only when a second run of the choices it consumed violates alike (sim/shrink/shrink.ts:
   * confirmedRun), so a failure that does not repeat cannot steer the shrink.
   */
  readonly flakyRuns?: boolean;
  /**
   * How many waits its runs have made so far that ran out a call timeout (a store call that never settled: each costs
   * the timeout in real time). A run that waited so is not run again to confirm it (sim/shrink/shrink.ts: confirmedRun),
   * a shrink records its candidates' runs rather than running the shortest again, and stops once its candidates have
   * waited a few times (SHRINK_TIMEOUTS_MAX; sim/search/fuzz.ts: shrinkTask). Absent: its runs never wait so.
   */
  readonly timeoutsWaited?: () => number;
  /**
   * For attribution (sim/shrink/attribution.ts): this target with its `role` component replaced by a correct one (the store
   * by resumecheck/event-store, the router by the specification's routing), everything else the same; null when it
   * has no such component to replace (a modern-only endpoint has no store). Absent: the target is not assembled.
   */
  readonly replaced?: (role: ReplaceableRole) => Target | null;
}
