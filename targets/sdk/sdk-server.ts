// The real MCP TypeScript SDK (McpServer + WebStandardStreamableHTTPServerTransport) behind the Target interface,
// in process and without sockets: one "app" per incarnation routing sessions to their transports, as the SDK's
// example servers do. The three SDK targets differ only in the event store each session's transport gets.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type EventStore, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult, RequestId, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SDK_STANDALONE_STREAM_ID } from '../../event-store/index.ts';
import { PROTOCOL_VERSION } from '../../sim/tools.ts';
import type {
  HttpRequest,
  HttpResponse,
  Incarnation,
  JsonRpcMessage,
  NodeInstance,
  ServerInstance,
  Target,
  TargetHost,
  TargetKind,
  TargetOptions,
  TargetRun,
  ToolName,
} from '../target.ts';
import { TOOL_NAMES } from '../target.ts';
import { type Quiescence, createQuiescence } from './quiescence.ts';
import { patchSdkGlobals } from './random.ts';
import { createSseParser } from './sse-parser.ts';

/** The `retry:` the transport puts in every priming event, in milliseconds. */
export const RETRY_INTERVAL_MS = 1000;
/** Progress steps one tool execution may take before the harness declares it runaway. */
const EXECUTION_STEPS_MAX = 10_000;
/** Chunks one response body may carry before the harness declares it runaway. */
const BODY_CHUNKS_MAX = 1_000_000;
const SESSION_ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const SESSION_ID_LENGTH = 8;
const ENDPOINT_URL = 'http://resumecheck.invalid/mcp';
const SERVER_INFO = { name: 'resumecheck-sdk-target', version: '0.1.0' } as const;

/** The event stores of one incarnation: what distinguishes the SDK targets from one another. */
export interface SdkEventStores {
  /**
   * The store handed to the transport of a new session (called before that session's initialize is handled).
   * It may come from an async factory (a user's store module): the harness awaits it.
   */
  forSession(sessionId: string): EventStore | Promise<EventStore>;
  /** A session ended, by expiry or DELETE; stores that track sessions forget it. */
  endSession(sessionId: string, how: 'expired' | 'deleted'): void;
}

/** What one SDK target is: its description and how it makes the stores of an incarnation. */
export interface SdkTargetSpec {
  readonly name: string;
  /** Default 'sdk'; a user's store module in the SDK transport is 'module'. */
  readonly kind?: TargetKind;
  readonly description: string;
  createStores(incarnation: Incarnation, options: TargetOptions): SdkEventStores;
}

interface SessionEntry {
  readonly id: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: McpServer;
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
}

/** What a request being handled may learn from the event-store calls it causes. */
interface HandlingContext {
  readonly connection: ConnectionEntry;
  /** The JSON-RPC ID of a POSTed request; null for GET, DELETE and notifications. */
  readonly requestId: RequestId | null;
}

interface Gate {
  release(): void;
  wait(): Promise<void>;
}

/** A gate a tool execution waits at; each `release` lets it take one step, whether it is waiting yet or not. */
function createGate(): Gate {
  let credits = 0;
  let waiter: (() => void) | null = null;
  return {
    release() {
      if (waiter === null) {
        credits += 1;
        return;
      }
      const resume = waiter;
      waiter = null;
      resume();
    },
    wait() {
      if (credits > 0) {
        credits -= 1;
        return Promise.resolve();
      }
      if (waiter !== null) throw new Error('assertion: two waiters at one execution gate');
      return new Promise<void>((resolve) => {
        waiter = resolve;
      });
    },
  };
}

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

function webRequestOf(request: HttpRequest): Request {
  const headers = new Headers({ accept: 'application/json, text/event-stream' });
  if (request.sessionId !== null) headers.set('mcp-session-id', request.sessionId);
  if (request.method !== 'DELETE' && request.lastEventId !== null) headers.set('last-event-id', request.lastEventId);
  if (!isInitialize(request)) headers.set('mcp-protocol-version', PROTOCOL_VERSION);
  if (request.method !== 'POST') return new Request(ENDPOINT_URL, { method: request.method, headers });
  headers.set('content-type', 'application/json');
  return new Request(ENDPOINT_URL, { method: 'POST', headers, body: JSON.stringify(request.body) });
}

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
  private readonly quiescence: Quiescence = createQuiescence();
  private handling: HandlingContext | null = null;
  private disposedFlag = false;

  constructor(
    private readonly host: TargetHost,
    private readonly stores: SdkEventStores,
  ) {}

  get disposed(): boolean {
    return this.disposedFlag;
  }

  async handle(request: HttpRequest): Promise<HttpResponse> {
    this.assertLive('handle');
    if (this.connections.has(request.connection)) {
      throw new Error(`assertion: connection ${request.connection} was already used in this incarnation`);
    }
    let session: SessionEntry | null = null;
    if (request.sessionId !== null) {
      // Spec: a terminated or unknown session's ID MUST get 404; the client then starts a new session.
      session = this.sessions.get(request.sessionId) ?? null;
      if (session === null) return this.refuse(request.connection, jsonError(404, -32001, 'Session not found'));
    } else if (isInitialize(request)) {
      session = await this.createSession();
    } else {
      return this.refuse(request.connection, jsonError(400, -32000, 'Bad Request: Mcp-Session-Id header is required'));
    }

    const entry: ConnectionEntry = { connection: request.connection, session, streamId: null, reader: null, state: 'open' };
    this.connections.set(request.connection, entry);
    this.handling = { connection: entry, requestId: requestIdOf(request) };
    let response: Response;
    try {
      response = await session.transport.handleRequest(webRequestOf(request));
    } finally {
      this.handling = null;
    }
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

  async cut(connection: number): Promise<void> {
    this.assertLive('cut');
    const entry = this.connectionOf(connection);
    if (entry.state === 'open') {
      entry.state = 'cut';
      // The transport does not watch request.signal: cancelling the body is how the SDK learns of a disconnect.
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
      await session.server.server.notification(message as unknown as ServerNotification);
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
      if (entry.reader !== null) await entry.reader.cancel();
    }
    for (const session of this.sessions.values()) await session.transport.close();
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
    this.connections.set(connection, { connection, session: null, streamId: null, reader: null, state: 'ended' });
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
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: store,
      retryInterval: RETRY_INTERVAL_MS,
      // No timers: a cut is the only way a client disconnects, and nothing happens between simulator steps.
      keepAliveMs: 0,
      onsessioninitialized: (id) => {
        this.sessions.set(id, entry);
      },
      onsessionclosed: (id) => {
        this.stores.endSession(id, 'deleted');
      },
    });
    // Set before connect, which chains it: a transport closed by DELETE leaves the routing table (later: 404).
    transport.onclose = () => {
      if (this.sessions.get(sessionId) === entry) this.sessions.delete(sessionId);
    };
    const server = new McpServer(SERVER_INFO, { capabilities: { logging: {} } });
    for (const tool of TOOL_NAMES) this.registerTool(server, tool);
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

  private registerTool(server: McpServer, tool: ToolName): void {
    server.registerTool(
      tool,
      { description: `resumecheck's ${tool} tool`, inputSchema: { callId: z.string() } },
      async ({ callId }, extra): Promise<CallToolResult> => {
        try {
          return await this.runExecution(tool, callId, extra);
        } catch (error) {
          // The SDK would turn this into a JSON-RPC error; a harness failure must crash the run instead.
          this.quiescence.fail(error);
          throw error;
        }
      },
    );
  }

  private async runExecution(
    tool: ToolName,
    callId: string,
    extra: { sessionId?: string | undefined; sendNotification(notification: ServerNotification): Promise<void> },
  ): Promise<CallToolResult> {
    const sessionId = extra.sessionId;
    if (sessionId === undefined) throw new Error('assertion: a tool ran without a session ID');
    this.quiescence.touch();
    const execution = this.host.startExecution({ callId, tool, sessionId });
    if (this.gates.has(execution)) throw new Error(`assertion: execution ${execution} started twice`);
    const gate = createGate();
    this.gates.set(execution, gate);
    try {
      for (let steps = 0; steps < EXECUTION_STEPS_MAX; steps += 1) {
        await gate.wait();
        this.quiescence.touch();
        const step = this.host.nextStep(execution);
        if (step.kind === 'result') return step.result as CallToolResult;
        try {
          // Sent with the request as related request: on the call's stream, stored even while disconnected.
          await extra.sendNotification(step.message as unknown as ServerNotification);
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
  return {
    name: spec.name,
    kind: spec.kind ?? 'sdk',
    description: spec.description,
    breaks: [],
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
          const instance = new SdkServer(host, spec.createStores(incarnation, options));
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
          const instance = new SdkServer(host, stores);
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
