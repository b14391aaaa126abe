// The real MCP TypeScript SDK (McpServer + WebStandardStreamableHTTPServerTransport) behind the Target interface,
// in process and without sockets: one "app" per incarnation routing sessions to their transports, as the SDK's
// example servers do. The SDK targets differ in the event store each session's transport gets, in the SDK line
// (1.x here; targets/sdk2 binds 2.x) and in the application's routing in front of the transports.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type EventStore, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult, RequestId, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SDK_STANDALONE_STREAM_ID, createEventStoreBackend } from '../../event-store/index.ts';
import { CORRECT, SDK_HARNESS } from './components.ts';
import { installedVersion } from './installed-version.ts';
import { revisionHeadersOf } from './revision-headers.ts';
import type {
  HttpRequest,
  HttpResponse,
  Incarnation,
  JsonRpcMessage,
  NodeInstance,
  ProtocolEra,
  ReplaceableRole,
  ServerInstance,
  Target,
  TargetHost,
  TargetKind,
  TargetOptions,
  TargetRun,
  ToolName,
} from '../target.ts';
import { TOOL_NAMES } from '../target.ts';
import { SHARED_JSON_SCHEMA_VALIDATOR } from './json-schema-validator.ts';
import { type Quiescence, createQuiescence } from './quiescence.ts';
import { patchSdkGlobals } from './random.ts';
import { createSseParser } from './sse-parser.ts';

/** The `retry:` the transport puts in every priming event, in milliseconds. */
export const RETRY_INTERVAL_MS = 1000;
/** Progress steps one tool execution may take before the harness declares it runaway. */
const EXECUTION_STEPS_MAX = 10_000;
/** Microtask turns `serve` waits for the SDK's answer before it settles for it (the answer may be held back). */
const HEAD_MICROTASKS_MAX = 64;
/** Chunks one response body may carry before the harness declares it runaway. */
const BODY_CHUNKS_MAX = 1_000_000;
const SESSION_ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const SESSION_ID_LENGTH = 8;
const ENDPOINT_URL = 'http://resumecheck.invalid/mcp';
/** The server info every line's McpServer announces. */
export const SERVER_INFO = { name: 'resumecheck-sdk-target', version: '0.1.0' } as const;

/** The event stores of one incarnation: what distinguishes the SDK targets from one another. */
export interface SdkEventStores {
  /**
   * The store handed to the transport of a new session (called before that session's initialize is handled).
   * It may come from an async factory (a user's store module): the harness awaits it.
   */
  forSession(sessionId: string): EventStore | Promise<EventStore>;
  /** A session ended, by expiry or DELETE; stores that track sessions forget it. */
  endSession(sessionId: string, how: 'expired' | 'deleted'): void;
  /** Store calls still running (a store doing real I/O): the harness does not count as settled while there are any. */
  pendingWork?(): number;
}

/** The parts of a line's `WebStandardStreamableHTTPServerTransport` the harness uses (the same in 1.x and 2.x). */
export interface SdkTransport {
  handleRequest(request: Request, options?: { readonly parsedBody?: unknown }): Promise<Response>;
  closeSSEStream(requestId: RequestId): void;
  closeStandaloneSSEStream(): void;
  close(): Promise<void>;
  onclose?: (() => void) | undefined;
}

/** The transport options the harness sets, in either line. */
export interface SdkTransportOptions {
  readonly sessionIdGenerator: () => string;
  readonly eventStore: EventStore;
  readonly retryInterval: number;
  /** 0: no keep-alive timer, so nothing happens between simulator steps. */
  readonly keepAliveMs: number;
  readonly onsessioninitialized: (sessionId: string) => void;
  readonly onsessionclosed: (sessionId: string | undefined) => void;
}

/** What a running tool may do, whatever line registered it. */
export interface ToolContext {
  /** The session the SDK ran the tool in; undefined where the SDK knows none. */
  readonly sessionId: string | undefined;
  /** Sends a notification related to the tool's request (on its stream). */
  notify(message: JsonRpcMessage): Promise<void>;
  /** The request's abort signal as the SDK hands it to the tool (1.x `extra.signal`, 2.x `ctx.mcpReq.signal`). */
  readonly signal: AbortSignal;
}

/** Runs one of the simulator's tools; the harness supplies it, a line registers it. */
export type ToolRunner = (tool: ToolName, callId: string, context: ToolContext) => Promise<Readonly<Record<string, unknown>>>;

/** A line's McpServer with the simulator's tools registered. */
export interface SdkMcpServer {
  connect(transport: SdkTransport): Promise<void>;
  /** Sends a notification with no related request: the transport puts it on the standalone stream. */
  notify(message: JsonRpcMessage): Promise<void>;
}

/** A modern-era (2026-07-28) endpoint in front of the legacy transports, as a dual-era server wires it. */
export interface ModernEndpoint {
  /** The SDK's own era decision for a request (2.x `isLegacyRequest`). */
  isLegacy(request: Request): Promise<boolean>;
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** One release line of the MCP TypeScript SDK: its package, and how the harness builds its classes. */
export interface SdkLine {
  /** `package@version` as installed, recorded in every trace of a target on this line. */
  readonly sdk: string;
  createTransport(options: SdkTransportOptions): SdkTransport;
  /** A new McpServer with the simulator's tools registered, each running through `run`. */
  createServer(run: ToolRunner): SdkMcpServer;
  /** The modern-era endpoint, for lines that have one (2.x `createMcpHandler`). */
  createModernEndpoint?(run: ToolRunner): ModernEndpoint;
}

/**
 * How the application in front of the transports routes: a map from session ID to transport, as the SDK's example
 * servers keep, and an initialize without a session ID makes a new transport. A request the map cannot place (an
 * unknown session ID, or none on a non-initialize) is answered by the application (`answer`, with
 * `unknownSession`), or handed to a new transport that answers it itself (`transport`, as the 2.x
 * ssePollingExample does: what a bare transport answers). With `dualEra`, the line's modern endpoint takes every
 * request the SDK does not classify as legacy, before any of this.
 */
export interface SdkRouting {
  readonly unplaced: 'answer' | 'transport';
  /** For `answer`: the application's response. */
  readonly unknownSession?: (request: HttpRequest) => HttpResponse;
  readonly dualEra?: boolean;
  /**
   * Every request goes to the line's modern endpoint, whatever its era: a 2026-07-28-only server
   * (`createMcpHandler(factory, { legacy: 'reject' })` alone). No session map, no legacy transport.
   */
  readonly modernOnly?: boolean;
}

/** What one SDK target is: its description and how it makes the stores of an incarnation. */
export interface SdkTargetSpec {
  readonly name: string;
  /** Default 'sdk'; a user's store module in the SDK transport is 'module'. */
  readonly kind?: TargetKind;
  readonly description: string;
  /** The SDK line under test; default 1.x ({@link SDK_1_LINE}). */
  readonly line?: SdkLine;
  /** Default: the session map, unknown session IDs 404 and a missing one 400, as the spec asks. */
  readonly routing?: SdkRouting;
  /** The protocol eras the target serves; absent: legacy only (TargetInfo.eras). */
  readonly eras?: readonly ProtocolEra[];
  /**
   * Its store and router as a person names them (targets/sdk/components.ts): with them the target declares its
   * components and can be rebuilt with a correct store or router in their place (Target.replaced).
   */
  readonly components?: { readonly store: string; readonly router: string };
  createStores(incarnation: Incarnation, options: TargetOptions): SdkEventStores;
  /**
   * How a request reaches a server without a modern endpoint: 'lean' (the default) with no abort signal of the
   * harness's (only the modern endpoint reads one) and its body handed over parsed (`handleRequest(request,
   * { parsedBody })`, as the SDK's Express examples do after `express.json()`); 'whole' with a signal aborted when the
   * client drops the connection and the body as bytes the transport reads and parses, as the harness did before. A
   * server with a modern endpoint always gets it whole: the endpoint and its era check read both.
   * targets/sdk/request-shape.test.ts shows the two give the same runs.
   */
  readonly requests?: 'lean' | 'whole';
}

/**
 * A correct store for every SDK line: resumecheck/event-store, one backend per incarnation scoped per session, with
 * its default window (256 events per stream, more than a run stores), so it never refuses a cursor it was given.
 */
export function correctStores(incarnation: Incarnation): SdkEventStores {
  const backend = createEventStoreBackend({ epoch: `e${incarnation.epoch}` });
  return {
    forSession: (sessionId) => backend.forSession(sessionId),
    endSession: (sessionId, how) => backend.endSession(sessionId, how),
  };
}

/** The package of a line's `sdk` (`@modelcontextprotocol/sdk@1.32.2` → `@modelcontextprotocol/sdk`). */
function packageOf(sdk: string): string {
  return sdk.slice(0, sdk.lastIndexOf('@'));
}

interface SessionEntry {
  readonly id: string;
  readonly transport: SdkTransport;
  readonly server: SdkMcpServer;
  /** SDK stream ID of each POST stream of this session → the JSON-RPC request ID it answers. */
  readonly requestIdsByStream: Map<string, RequestId>;
}

interface ConnectionEntry {
  readonly connection: number;
  readonly session: SessionEntry | null;
  /** The SDK stream this connection carries, once known (learnt from the event-store calls it caused). */
  streamId: string | null;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
  /** open: the body may still carry frames; ended: the server ended it; cut: the client dropped it; dropped: restart. */
  state: 'open' | 'ended' | 'cut' | 'dropped';
  /**
   * Aborts the web Request's signal: what a Node adapter does when the client's socket closes. Null on a server
   * without a modern endpoint: nothing it runs reads the signal (see {@link SdkServer.handle}).
   */
  readonly abort: AbortController | null;
  /**
   * True when the SDK settled without answering the request yet (a 2026-07-28 call on createMcpHandler holds its
   * response until the tool's first message): the harness reported the head as a 200 stream, and what arrives later
   * is reported as this connection's frames.
   */
  deferred: boolean;
}

/** What a request being handled may learn from the event-store calls it causes. */
interface HandlingContext {
  readonly connection: ConnectionEntry;
  /** The JSON-RPC ID of a POSTed request; null for GET, DELETE and notifications. */
  readonly requestId: RequestId | null;
}

interface Gate {
  release(): void;
  /** Resolves with 'step' when released, or with 'cancelled' once `signal` has fired (before or while waiting). */
  wait(signal: AbortSignal): Promise<'step' | 'cancelled'>;
}

/**
 * A gate a tool execution waits at; each `release` lets it take one step, whether it is waiting yet or not. The
 * request's abort signal ends the wait: a cancelled tool takes no step, whatever credits it has.
 */
function createGate(): Gate {
  let credits = 0;
  let waiter: ((outcome: 'step' | 'cancelled') => void) | null = null;
  return {
    release() {
      if (waiter === null) {
        credits += 1;
        return;
      }
      const resume = waiter;
      waiter = null;
      resume('step');
    },
    wait(signal) {
      if (signal.aborted) return Promise.resolve('cancelled');
      if (credits > 0) {
        credits -= 1;
        return Promise.resolve('step');
      }
      if (waiter !== null) throw new Error('assertion: two waiters at one execution gate');
      return new Promise((resolve) => {
        const onAbort = (): void => {
          waiter = null;
          resolve('cancelled');
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiter = (outcome) => {
          signal.removeEventListener('abort', onAbort);
          resolve(outcome);
        };
      });
    },
  };
}

/** Thrown by a tool that observed its cancellation: the SDK drops what an aborted handler returns or throws. */
class ExecutionCancelled extends Error {}

function drawSessionId(host: TargetHost): string {
  let id = 's';
  for (let index = 0; index < SESSION_ID_LENGTH; index += 1) {
    id += SESSION_ID_ALPHABET.charAt(Math.floor(host.random() * SESSION_ID_ALPHABET.length));
  }
  return id;
}

function jsonError(status: number, code: number, message: string): HttpResponse {
  return { status, sessionId: null, streaming: false, body: { jsonrpc: '2.0', error: { code, message }, id: null } };
}

function parseJsonBody(text: string): JsonRpcMessage | null {
  if (text === '') return null;
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`assertion: JSON response body is not an object: ${text.slice(0, 200)}`);
  }
  return value as JsonRpcMessage;
}

function isInitialize(request: HttpRequest): boolean {
  return request.method === 'POST' && request.body['method'] === 'initialize' && 'id' in request.body;
}

function requestIdOf(request: HttpRequest): RequestId | null {
  if (request.method !== 'POST') return null;
  const id = request.body['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** The web Request of `request`: with `signal` when given, and without its body when `body` is false. */
function webRequestOf(request: HttpRequest, signal: AbortSignal | undefined, body: boolean): Request {
  const headers = new Headers({ accept: 'application/json, text/event-stream' });
  if (request.sessionId !== null) headers.set('mcp-session-id', request.sessionId);
  if (request.method !== 'DELETE' && request.lastEventId !== null) headers.set('last-event-id', request.lastEventId);
  // The request's own revision headers (none for 2025-03-26 or an initialize), as the wire target sends them too.
  for (const [name, value] of Object.entries(revisionHeadersOf(request))) headers.set(name, value);
  const aborted = signal === undefined ? {} : { signal };
  if (request.method !== 'POST') return new Request(ENDPOINT_URL, { method: request.method, headers, ...aborted });
  headers.set('content-type', 'application/json');
  return new Request(ENDPOINT_URL, { method: 'POST', headers, ...(body ? { body: JSON.stringify(request.body) } : {}), ...aborted });
}

/** The 1.x line: `@modelcontextprotocol/sdk`, its transport and McpServer. */
export const SDK_1_LINE: SdkLine = {
  sdk: `@modelcontextprotocol/sdk@${installedVersion('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/server/mcp.js')}`,
  createTransport: (options) => new WebStandardStreamableHTTPServerTransport(options),
  createServer(run) {
    const server = new McpServer(SERVER_INFO, { capabilities: { logging: {} }, jsonSchemaValidator: SHARED_JSON_SCHEMA_VALIDATOR });
    for (const tool of TOOL_NAMES) {
      server.registerTool(
        tool,
        { description: `resumecheck's ${tool} tool`, inputSchema: { callId: z.string() } },
        async ({ callId }, extra): Promise<CallToolResult> =>
          (await run(tool, callId, {
            sessionId: extra.sessionId,
            notify: (message) => extra.sendNotification(message as unknown as ServerNotification),
            signal: extra.signal,
          })) as CallToolResult,
      );
    }
    return {
      connect: (transport) => server.connect(transport as WebStandardStreamableHTTPServerTransport),
      notify: (message) => server.server.notification(message as unknown as ServerNotification),
    };
  },
};

/** The default routing: the session map of the SDK's example servers, answering as the specification asks. */
const SPEC_ROUTING: SdkRouting = {
  unplaced: 'answer',
  unknownSession: (request) =>
    request.sessionId === null
      ? jsonError(400, -32000, 'Bad Request: Mcp-Session-Id header is required')
      : jsonError(404, -32001, 'Session not found'),
};

/**
 * Wraps a store so the harness learns which SDK stream each connection carries: the first store call while a
 * POST is handled is its priming event; a replay returns the stream a GET joins. Behaviour is unchanged: only the
 * methods the inner store has are offered (the transport checks for `getStreamIdForEventId`).
 */
function observeStore(
  inner: EventStore,
  observer: { touch(): void; stored(streamId: string): void; replayed(streamId: string): void },
): EventStore {
  const store: EventStore = {
    async storeEvent(streamId, message) {
      observer.touch();
      observer.stored(streamId);
      return inner.storeEvent(streamId, message);
    },
    async replayEventsAfter(lastEventId, options) {
      observer.touch();
      const streamId = await inner.replayEventsAfter(lastEventId, options);
      observer.replayed(streamId);
      return streamId;
    },
  };
  const getStreamIdForEventId = inner.getStreamIdForEventId;
  if (getStreamIdForEventId !== undefined) {
    store.getStreamIdForEventId = async (eventId) => {
      observer.touch();
      return getStreamIdForEventId.call(inner, eventId);
    };
  }
  return store;
}

/** One incarnation of the SDK app. */
class SdkServer implements NodeInstance {
  private readonly sessions = new Map<string, SessionEntry>();
  private readonly connections = new Map<number, ConnectionEntry>();
  private readonly gates = new Map<number, Gate>();
  private readonly quiescence: Quiescence = createQuiescence(() => this.stores.pendingWork?.() ?? 0);
  private handling: HandlingContext | null = null;
  private disposedFlag = false;
  /** Transports made for requests the router could not place (`transport` routing); they never initialize. */
  private readonly unplaced: SessionEntry[] = [];
  /** The `dualEra` routing's modern endpoint. */
  private readonly modern: ModernEndpoint | null;
  private readonly runTool: ToolRunner = (tool, callId, context) => this.executeTool(tool, callId, context);

  constructor(
    private readonly host: TargetHost,
    private readonly stores: SdkEventStores,
    private readonly line: SdkLine,
    private readonly routing: SdkRouting,
    private readonly requests: 'lean' | 'whole',
  ) {
    const create = line.createModernEndpoint;
    const wantsModern = routing.dualEra === true || routing.modernOnly === true;
    if (wantsModern && create === undefined) throw new Error('assertion: a modern-era routing on a line without a modern endpoint');
    this.modern = wantsModern && create !== undefined ? create.call(line, this.runTool) : null;
  }

  get disposed(): boolean {
    return this.disposedFlag;
  }

  async handle(request: HttpRequest): Promise<HttpResponse> {
    this.assertLive('handle');
    if (this.connections.has(request.connection)) {
      throw new Error(`assertion: connection ${request.connection} was already used in this incarnation`);
    }
    // Only the modern endpoint (2.x createMcpHandler) reads the request's signal, and it and the SDK's era check read
    // the body: the legacy transports of both lines never look at the signal and take a body already parsed. Without
    // a modern endpoint (and unless the spec asks for whole requests) the Request gets no signal and no body, which the
    // transport is handed parsed: the AbortController, the signal undici makes to follow it and the DOMException of its
    // abort cost about 7 % of the main job's CPU, the body's stream and its reading about 8 % more (whole process, 6
    // paired runs, median CPU 1.09x with the body as bytes), and none of it changes what a run does (the same traces
    // either way: targets/sdk/request-shape.test.ts).
    const lean = this.modern === null && this.requests === 'lean';
    const abort = lean ? null : new AbortController();
    const webRequest = webRequestOf(request, abort?.signal, !lean);
    // A dual-era server splits by era first, with the SDK's own predicate; modern requests never reach a session.
    if (this.modern !== null && (this.routing.modernOnly === true || !(await this.modern.isLegacy(webRequest)))) {
      const modern = this.modern;
      return this.serve(request, null, abort, () => modern.fetch(webRequest));
    }
    let session: SessionEntry | null = null;
    if (request.sessionId !== null) {
      session = this.sessions.get(request.sessionId) ?? null;
    } else if (isInitialize(request)) {
      session = await this.createSession();
    }
    if (session === null && this.routing.unplaced === 'transport') {
      // No answer of the application's own: a new transport answers what a bare transport answers.
      session = await this.createSession();
      this.unplaced.push(session);
    }
    if (session === null) {
      const unknownSession = this.routing.unknownSession ?? SPEC_ROUTING.unknownSession!;
      return this.refuse(request.connection, unknownSession(request));
    }
    const transport = session.transport;
    // Parsed afresh, as express.json() would: the transport's objects are never the simulator's.
    const parsedBody: unknown = lean && request.method === 'POST' ? JSON.parse(JSON.stringify(request.body)) : undefined;
    return this.serve(request, session, abort, () => transport.handleRequest(webRequest, parsedBody === undefined ? undefined : { parsedBody }));
  }

  /**
   * Hands a request to the SDK and reads its response: JSON at once, SSE through a pump that reports frames. When
   * the SDK settles without a response (it holds the head until the tool's first message), the head is reported as
   * a 200 stream and what arrives later is reported on the connection ({@link SdkServer.receiveLate}).
   */
  private async serve(request: HttpRequest, session: SessionEntry | null, abort: AbortController | null, send: () => Promise<Response>): Promise<HttpResponse> {
    const entry: ConnectionEntry = { connection: request.connection, session, streamId: null, reader: null, state: 'open', abort, deferred: false };
    this.connections.set(request.connection, entry);
    this.handling = { connection: entry, requestId: requestIdOf(request) };
    let arrived: { readonly response: Response } | { readonly error: unknown } | null = null;
    send().then(
      (response) => {
        this.handling = null;
        this.quiescence.touch();
        if (entry.deferred) void this.receiveLate(entry, response);
        else arrived = { response };
      },
      (error: unknown) => {
        this.handling = null;
        this.quiescence.touch();
        if (entry.deferred) this.quiescence.fail(error);
        else arrived = { error };
      },
    );
    // Most answers come within a few microtasks (a legacy transport's SSE head, any JSON error): wait for them
    // there, as an await on the answer would; only an answer still missing then costs a settle.
    for (let tick = 0; tick < HEAD_MICROTASKS_MAX && arrived === null; tick += 1) await Promise.resolve();
    if (arrived === null) await this.quiescence.settle(() => arrived !== null);
    const outcome = arrived as { readonly response: Response } | { readonly error: unknown } | null;
    if (outcome === null) {
      entry.deferred = true;
      return { status: 200, sessionId: null, streaming: true, body: null };
    }
    if ('error' in outcome) throw outcome.error;
    const response = outcome.response;
    const streaming = (response.headers.get('content-type') ?? '').includes('text/event-stream') && response.body !== null;
    const head = { status: response.status, sessionId: response.headers.get('mcp-session-id'), streaming };
    if (!streaming) {
      entry.state = 'ended';
      const body = parseJsonBody(await response.text());
      await this.quiescence.settle();
      return { ...head, body };
    }
    if (request.method === 'GET' && (request.lastEventId === null || request.lastEventId === '')) {
      entry.streamId = SDK_STANDALONE_STREAM_ID;
    }
    if (response.body === null) throw new Error('assertion: a streaming response without a body');
    const reader = response.body.getReader();
    entry.reader = reader;
    void this.pump(entry, reader);
    await this.quiescence.settle();
    return { ...head, body: null };
  }

  /** What arrived after the head was reported deferred: its SSE frames, or its JSON body as one frame, then the end. */
  private async receiveLate(entry: ConnectionEntry, response: Response): Promise<void> {
    try {
      // The client is gone (cut, or a restart dropped it): nothing more is reported, the body is released.
      if (entry.state !== 'open') {
        await response.body?.cancel();
        return;
      }
      const streaming = (response.headers.get('content-type') ?? '').includes('text/event-stream') && response.body !== null;
      if (streaming && response.body !== null) {
        const reader = response.body.getReader();
        entry.reader = reader;
        void this.pump(entry, reader);
        return;
      }
      const body = parseJsonBody(await response.text());
      this.quiescence.touch();
      if (entry.state !== 'open') return;
      // A JSON answer carries no event ID: its message is reported as one frame without one.
      if (body !== null) this.host.frame(entry.connection, { eventId: null, event: null, data: body, retryMs: null });
      entry.state = 'ended';
      this.host.end(entry.connection);
    } catch (error) {
      this.quiescence.fail(error);
    }
  }

  async cut(connection: number): Promise<void> {
    this.assertLive('cut');
    const entry = this.connectionOf(connection);
    if (entry.state === 'open') {
      entry.state = 'cut';
      // A disconnect as a Node adapter (@hono/node-server) reports it: the request's signal aborts. The legacy
      // transports never look at it; their only disconnect hook is the cancelled body, which follows.
      entry.abort?.abort();
      if (entry.reader !== null) await entry.reader.cancel();
    }
    await this.quiescence.settle();
  }

  async advance(execution: number): Promise<void> {
    this.assertLive('advance');
    const gate = this.gates.get(execution);
    if (gate === undefined) {
      throw new Error(`assertion: execution ${execution} is not running in this incarnation (never started, or past its result)`);
    }
    gate.release();
    await this.quiescence.settle();
  }

  async notify(sessionId: string, message: JsonRpcMessage): Promise<void> {
    this.assertLive('notify');
    const session = this.sessions.get(sessionId);
    // A session this incarnation does not hold (expired, deleted, of an earlier epoch) has no one to notify.
    if (session !== undefined) {
      // No related request: the transport stores it on the standalone stream, sent only if a GET is attached.
      await session.server.notify(message);
    }
    await this.quiescence.settle();
  }

  async closeConnection(connection: number, _retryMs: number): Promise<void> {
    this.assertLive('closeConnection');
    const entry = this.connectionOf(connection);
    // The SDK's retry interval is fixed per transport and sent in the priming event; closing sends no `retry:`.
    if (entry.state === 'open' && entry.session !== null && entry.streamId !== null) {
      const { transport, requestIdsByStream } = entry.session;
      if (entry.streamId === SDK_STANDALONE_STREAM_ID) {
        transport.closeStandaloneSSEStream();
      } else {
        // Closes whichever connection the transport has registered for the request's stream (this one, when open).
        const requestId = requestIdsByStream.get(entry.streamId);
        if (requestId !== undefined) transport.closeSSEStream(requestId);
        // Otherwise the request has completed (or the stream is another session's): the SDK offers no way to close it.
      }
    }
    await this.quiescence.settle();
  }

  async expire(sessionId: string): Promise<void> {
    this.assertLive('expire');
    const session = this.sessions.get(sessionId);
    if (session !== undefined) {
      this.sessions.delete(sessionId);
      // Closing the transport ends every open response of the session (reported as ends) and aborts its handlers.
      await session.transport.close();
      this.stores.endSession(sessionId, 'expired');
    }
    await this.quiescence.settle();
  }

  async dispose(): Promise<void> {
    if (this.disposedFlag) return;
    this.disposedFlag = true;
    // A restart drops every connection: nothing more is reported for them.
    for (const entry of this.connections.values()) {
      if (entry.state !== 'open') continue;
      entry.state = 'dropped';
      entry.abort?.abort();
      if (entry.reader !== null) await entry.reader.cancel();
    }
    for (const session of this.sessions.values()) await session.transport.close();
    // Transports that never initialized are in no session map; closing twice is a no-op in the SDK.
    for (const session of this.unplaced) await session.transport.close();
    this.unplaced.length = 0;
    await this.modern?.close();
    this.sessions.clear();
    this.gates.clear();
    await this.quiescence.settle();
  }

  /** A node's crash is its incarnation's end: its transports and connections are gone, the stores are not its own. */
  async crash(): Promise<void> {
    await this.dispose();
  }

  /** Answers a request the router refuses itself; the connection is recorded as complete, so a later cut is a no-op. */
  private refuse(connection: number, response: HttpResponse): HttpResponse {
    this.connections.set(connection, { connection, session: null, streamId: null, reader: null, state: 'ended', abort: null, deferred: false });
    return response;
  }

  private assertLive(method: string): void {
    if (this.disposedFlag) throw new Error(`assertion: ${method} called on a disposed SDK server incarnation`);
  }

  private connectionOf(connection: number): ConnectionEntry {
    const entry = this.connections.get(connection);
    if (entry === undefined) throw new Error(`assertion: connection ${connection} was never opened in this incarnation`);
    return entry;
  }

  /** A new transport and McpServer for an initialize; registered once the transport has initialized it. */
  private async createSession(): Promise<SessionEntry> {
    const sessionId = drawSessionId(this.host);
    const store = observeStore(await this.stores.forSession(sessionId), {
      touch: () => this.quiescence.touch(),
      stored: (streamId) => this.learnPostStream(streamId),
      replayed: (streamId) => this.learnReplayedStream(streamId),
    });
    const transport = this.line.createTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: store,
      retryInterval: RETRY_INTERVAL_MS,
      // No timers: a cut is the only way a client disconnects, and nothing happens between simulator steps.
      keepAliveMs: 0,
      onsessioninitialized: (id) => {
        this.sessions.set(id, entry);
      },
      onsessionclosed: (id) => {
        if (id !== undefined) this.stores.endSession(id, 'deleted');
      },
    });
    // Set before connect, which chains it: a transport closed by DELETE leaves the routing table (later: 404).
    transport.onclose = () => {
      if (this.sessions.get(sessionId) === entry) this.sessions.delete(sessionId);
    };
    const server = this.line.createServer(this.runTool);
    const entry: SessionEntry = { id: sessionId, transport, server, requestIdsByStream: new Map() };
    await server.connect(transport);
    return entry;
  }

  private learnPostStream(streamId: string): void {
    const context = this.handling;
    if (context === null || context.requestId === null || context.connection.streamId !== null) return;
    // The first store call while a POSTed request is handled is the priming event of the request's stream.
    context.connection.streamId = streamId;
    context.connection.session?.requestIdsByStream.set(streamId, context.requestId);
  }

  private learnReplayedStream(streamId: string): void {
    const context = this.handling;
    if (context === null || context.requestId !== null) return;
    context.connection.streamId = streamId;
  }

  private async executeTool(tool: ToolName, callId: string, context: ToolContext): Promise<Readonly<Record<string, unknown>>> {
    try {
      return await this.runExecution(tool, callId, context);
    } catch (error) {
      // A tool that observed its cancellation stops by throwing, as an aborted handler does; the SDK drops it.
      if (error instanceof ExecutionCancelled) throw error;
      // The SDK would turn this into a JSON-RPC error; a harness failure must crash the run instead.
      this.quiescence.fail(error);
      throw error;
    }
  }

  private async runExecution(tool: ToolName, callId: string, context: ToolContext): Promise<Readonly<Record<string, unknown>>> {
    // A modern-era exchange has no session: the empty ID says so in the tool's provenance.
    const sessionId = context.sessionId ?? (this.modern !== null ? '' : undefined);
    if (sessionId === undefined) throw new Error('assertion: a tool ran without a session ID');
    this.quiescence.touch();
    const execution = this.host.startExecution({ callId, tool, sessionId });
    if (this.gates.has(execution)) throw new Error(`assertion: execution ${execution} started twice`);
    const gate = createGate();
    this.gates.set(execution, gate);
    try {
      for (let steps = 0; steps < EXECUTION_STEPS_MAX; steps += 1) {
        const outcome = await gate.wait(context.signal);
        this.quiescence.touch();
        if (outcome === 'cancelled') {
          // The SDK aborted the request (a disconnect it treats as cancellation, a closed transport, a
          // notifications/cancelled): the tool observed it once, stops, and asks for no further step. Not when the
          // incarnation is being disposed (a restart, a crash, the run's end): the harness closes the SDK's objects
          // only to release them, and a process that dies takes its tools with it, observing nothing.
          if (!this.disposedFlag) this.host.cancelled(execution);
          throw new ExecutionCancelled(`execution ${execution} was cancelled by the server`);
        }
        const step = this.host.nextStep(execution);
        if (step.kind === 'result') return step.result;
        try {
          // Sent with the request as related request: on the call's stream, stored even while disconnected.
          await context.notify(step.message);
        } catch {
          // The transport refuses when it has lost the request's stream correlation (after a re-sent request ID
          // completed the other copy). That is the SDK's behaviour under test, not a harness failure: the tool
          // treats progress as best-effort and carries on to its result; the client observes the missing message.
        }
      }
      throw new Error(`assertion: execution ${execution} took more than ${EXECUTION_STEPS_MAX} steps`);
    } finally {
      this.gates.delete(execution);
    }
  }

  private async pump(entry: ConnectionEntry, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const parser = createSseParser();
    try {
      for (let chunks = 0; chunks < BODY_CHUNKS_MAX; chunks += 1) {
        const { done, value } = await reader.read();
        this.quiescence.touch();
        if (done) {
          if (entry.state === 'open') {
            entry.state = 'ended';
            if (parser.pending) throw new Error(`assertion: connection ${entry.connection} ended mid-frame`);
            this.host.end(entry.connection);
          }
          return;
        }
        const frames = parser.push(decoder.decode(value, { stream: true }));
        for (const frame of frames) {
          if (entry.state === 'open') this.host.frame(entry.connection, frame);
        }
      }
      throw new Error(`assertion: connection ${entry.connection} carried more than ${BODY_CHUNKS_MAX} chunks`);
    } catch (error) {
      this.quiescence.fail(error);
    }
  }
}

/**
 * Makes an SDK target from its spec. `open` replaces the SDK's randomness and clock with seeded functions for the
 * length of the run: only one SDK run may be open at a time, and callers must call `close()` in `finally`.
 */
export function createSdkTarget(spec: SdkTargetSpec): Target {
  const line = spec.line ?? SDK_1_LINE;
  const routing = spec.routing ?? SPEC_ROUTING;
  const requests = spec.requests ?? 'lean';
  const components = spec.components;
  /** This target with its store or router replaced by a correct one; a modern-only endpoint has neither to replace. */
  const replaced = (role: ReplaceableRole): Target | null => {
    if (components === undefined || routing.modernOnly === true) return null;
    if (role === 'store') return createSdkTarget({ ...spec, name: `${spec.name} (store replaced)`, components: { ...components, store: CORRECT.store }, createStores: correctStores });
    const correct: SdkRouting = { unplaced: 'answer', unknownSession: SPEC_ROUTING.unknownSession!, ...(routing.dualEra === true ? { dualEra: true } : {}) };
    return createSdkTarget({ ...spec, name: `${spec.name} (router replaced)`, components: { ...components, router: CORRECT.router }, routing: correct });
  };
  return {
    name: spec.name,
    kind: spec.kind ?? 'sdk',
    description: spec.description,
    breaks: [],
    ...(spec.eras === undefined ? {} : { eras: spec.eras }),
    ...(components === undefined ? {} : { components: { transport: packageOf(line.sdk), store: components.store, router: components.router, harness: SDK_HARNESS }, replaced }),
    sdk: line.sdk,
    open(options: TargetOptions): TargetRun {
      const globals = patchSdkGlobals(options.seed);
      const instances: SdkServer[] = [];
      // Several nodes (targets/multi-node) share the stores of their incarnation: only the current one is kept.
      const sharedStores = new Map<number, SdkEventStores>();
      let closed = false;
      return {
        sync: false,
        boot(incarnation: Incarnation, host: TargetHost): ServerInstance {
          if (closed) throw new Error('assertion: boot called on a closed run');
          const instance = new SdkServer(host, spec.createStores(incarnation, options), line, routing, requests);
          instances.push(instance);
          return instance;
        },
        bootNode(incarnation: Incarnation, host: TargetHost): NodeInstance {
          if (closed) throw new Error('assertion: bootNode called on a closed run');
          let stores = sharedStores.get(incarnation.epoch);
          if (stores === undefined) {
            sharedStores.clear();
            stores = spec.createStores(incarnation, options);
            sharedStores.set(incarnation.epoch, stores);
          }
          // Each node is its own app (its own session routing, transports and McpServers), as separate processes are.
          const instance = new SdkServer(host, stores, line, routing, requests);
          instances.push(instance);
          return instance;
        },
        async close() {
          if (closed) return;
          closed = true;
          try {
            for (const instance of instances) await instance.dispose();
          } finally {
            globals.restore();
          }
        },
      };
    },
  };
}
