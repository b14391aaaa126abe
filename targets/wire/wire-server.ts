// One incarnation of a server over the wire, behind the ServerInstance interface: each simulated HTTP exchange is a
// real request on its own socket to the server's URL, SSE bodies are parsed as they arrive, a cut destroys the socket.
// After each operation it settles: it waits for every response head, for the steps it released to be taken by the
// probe tools, and then for a quiet interval with nothing arriving (bounded), so operations keep the choices' order.

import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createSseParser } from '../sdk/sse-parser.ts';
import { revisionHeadersOf } from '../sdk/revision-headers.ts';
import { type Provenance, isModernBody, isResponse, provenanceOf, withProvenance } from '../../sim/tools.ts';
import type { Frame, HttpRequest, HttpResponse, JsonRpcMessage, NodeInstance, TargetHost } from '../target.ts';
import { TOOL_NAMES } from '../target.ts';
import { sessionHeaderOf } from '../../sim/world.ts';
import { afterIoPoll, sleepMs, startTimer, wallMs } from './clock.ts';
import type { ControlEndpoint } from './control-endpoint.ts';
import { type EchoTool, echoCall, echoMarker, markedProvenance, readRequestIdMarker, requestIdMarker } from './echo-marker.ts';
import { WireFault, WireInterrupted } from './wire-error.ts';

/** How the wire target waits for a server; every wait is bounded. */
export interface SettleTiming {
  /** Nothing arriving for this long after an operation counts as settled. */
  readonly quietMs: number;
  /** One settle waits this long at the most (then the run goes on, and the settle is counted as cut short). */
  readonly settleMsMax: number;
  /** A request's response head must arrive within this, or the server is taken to have stopped answering. */
  readonly headMsMax: number;
  /** A `--serve` server must listen within this after it is started. */
  readonly listenMsMax: number;
}

export const DEFAULT_SETTLE_TIMING: SettleTiming = { quietMs: 15, settleMsMax: 2_000, headMsMax: 5_000, listenMsMax: 15_000 };

/** The largest non-SSE response body read, in bytes. */
const JSON_BODY_BYTES_MAX = 1 << 20;
/** Poll step while waiting for a settle condition. */
const SETTLE_POLL_MS = 2;

/** How many cut-short settles the stats say what they waited for. */
export const CUT_SHORT_KEPT_MAX = 100;

/** What one wire target counts over its runs, for the report. */
export interface WireStats {
  settles: number;
  /** Settles that reached {@link SettleTiming.settleMsMax} before the server went quiet. */
  settlesCutShort: number;
  /** What each settle cut short was still waiting for, the first {@link CUT_SHORT_KEPT_MAX} of them. */
  cutShortFor: string[];
  /** Milliseconds spent settling. */
  settleMs: number;
}

/** What the wire server needs from its target: where to go, what to send along, and whom to ask on a restart. */
export interface WireContext {
  readonly url: URL;
  readonly control: ControlEndpoint;
  /** The control URL of this run, put in the arguments of every probe-tool call. */
  readonly controlUrl: string;
  /** Headers sent on every request (the run's token, for servers that keep runs apart). */
  readonly headers: Readonly<Record<string, string>>;
  readonly timing: SettleTiming;
  readonly stats: WireStats;
  /** The server's process fault, if it was started by --serve and died. */
  fault(): string | null;
  /** Restarts the served server as the next incarnation (only offered with --serve). */
  restart(epoch: number): Promise<void>;
  /**
   * In a deployment of several nodes (`--serve-node`): this node's number, and its process killed at once (a node's
   * crash: nothing it holds in memory survives, the shared store stays). Absent on one node.
   */
  readonly node?: { readonly index: number; crash(): Promise<void> };
  /** Resolves once the server answers: a node booted again after its crash is still starting. */
  readonly ready?: Promise<void>;
  /** Whether the server has the probe tools (decided once per target). */
  readonly probe: boolean;
  /** Without them: the server's echo tool, which the simulated calls are sent as, each with its marker (echo-marker.ts). */
  readonly echo: EchoTool | null;
  /** The run's token, which every marker names. */
  readonly run: string;
  /**
   * On a server with neither the probe tools nor an echo: the call last sent under each marked request ID in this run,
   * by every node and incarnation (echo-marker.ts, requestIdMarker).
   */
  readonly sentCalls: Map<string, string>;
  /** Aborted by a stop: every later operation, and a response head still awaited, throws {@link WireInterrupted}. */
  readonly interrupt?: AbortSignal;
}

interface WireConnection {
  readonly connection: number;
  /**
   * For a GET: the session it was sent in, whose standalone stream it may carry (opened, or resumed with a cursor);
   * null otherwise. One that has carried a call's messages is a call's stream, not the standalone one.
   */
  readonly getOf: string | null;
  /** The session its request was sent in (null: none, or a 2026-07-28 request); a GET's is its `getOf`. */
  readonly sessionId: string | null;
  request: ClientRequest | null;
  response: IncomingMessage | null;
  /** open: may still carry frames; ended: the server ended it; cut: the client dropped it; dropped: restart. */
  state: 'open' | 'ended' | 'cut' | 'dropped';
  /** The calls whose messages this connection carries (its request's, and any seen in its frames). */
  readonly calls: Set<string>;
  /** The probe call its request made, if it made one: an answer to the request (a result or an error) settles its start. */
  readonly sentCall: string | null;
}

/** Whether `entry` is an open GET of `sessionId` that may carry its standalone stream (it carried no call's messages). */
function standaloneFor(entry: WireConnection, sessionId: string): boolean {
  return entry.getOf === sessionId && entry.calls.size === 0;
}

/** The key of an expected notification frame: its call and position, or its session's standalone position. */
function frameKey(provenance: Provenance): string {
  return provenance.callId === null ? `standalone ${provenance.k} ${provenance.sessionId}` : `call ${provenance.callId} ${provenance.execution} ${provenance.k}`;
}

function isProbeCall(body: JsonRpcMessage): boolean {
  if (body['method'] !== 'tools/call') return false;
  const params = body['params'] as { name?: unknown } | undefined;
  return (TOOL_NAMES as readonly unknown[]).includes(params?.name);
}

/**
 * The request body as sent: a probe-tool call carries the control URL in its arguments (docs/probe-tools.md); to a
 * server without the probe tools but with an echo tool, it is a call of that tool carrying the call's marker.
 */
function bodyOnTheWire(body: JsonRpcMessage, context: WireContext, epoch: number, sessionId: string | null): JsonRpcMessage {
  if (!isProbeCall(body)) return body;
  const params = body['params'] as { name: string; arguments?: Record<string, unknown> };
  if (!context.probe && context.echo === null) {
    // Nothing the server answers carries the call but its ID: the ID names the session it was sent in, so an answer
    // that reaches another session is known by it (WireServer.marked). Not for a session without an ID of its own.
    const id = body['id'];
    const header = sessionHeaderOf(sessionId);
    if (typeof id !== 'number' || header === null || isModernBody(body)) return body;
    const marked = requestIdMarker({ run: context.run, epoch, sessionId: header, id });
    context.sentCalls.set(marked, String(params.arguments?.['callId']));
    return { ...body, id: marked };
  }
  if (!context.probe && context.echo !== null) {
    const callId = String(params.arguments?.['callId']);
    // The session a call belongs to is the one it was sent in; a 2026-07-28 call belongs to none (sessionOfCall).
    const session = isModernBody(body) ? '' : (sessionId ?? '');
    return echoCall(body, context.echo, echoMarker({ run: context.run, epoch, callId, sessionId: session }));
  }
  return { ...body, params: { ...params, arguments: { ...params.arguments, control: context.controlUrl } } };
}

function parseJsonBody(text: string): JsonRpcMessage | null {
  if (text.trim() === '') return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonRpcMessage;
  } catch {
    // A body that is no JSON object is no JSON-RPC message: the properties judge what they can from the status.
  }
  return null;
}

/**
 * One server incarnation reached over sockets (or one node of a deployment's incarnation). The control endpoint's
 * callbacks reach it through its target ({@link WireServer.touch}, {@link WireServer.resultHandedOut}, ...): one
 * deployment has several at once.
 */
export class WireServer implements NodeInstance {
  private readonly connections = new Map<number, WireConnection>();
  private lastActivityMs = wallMs();
  private headsPending = 0;
  private disposed = false;
  private sideRequests = 0;
  /**
   * Calls whose result was handed to their tool while an open connection carries their messages: the result's frame
   * is expected there, and a settle waits for it (or for that connection to end), bounded like every settle.
   */
  private readonly resultsExpected = new Set<string>();
  /**
   * Notifications the server was handed (a probe tool's progress, a `notify`) whose frame is expected on an open
   * connection (one carrying the call, or the session's standalone stream), by key ({@link frameKey}): the call ID, or
   * the session for a standalone one. A settle waits for them, bounded like every settle.
   */
  private readonly framesExpected = new Map<string, { readonly callId: string | null; readonly sessionId: string }>();
  /**
   * Whether the operation being settled was an acknowledged notification whose frame arrived: then nothing else is
   * expected of it, and the settle ends after one I/O poll rather than a quiet interval. (A result is followed by the
   * end of its stream, and a request by whatever the server sends with its head: those keep the quiet interval.)
   */
  private quietOptional = false;
  /**
   * On a server with the probe tools, the calls whose request it took (a 200 stream) and whose tool has not started yet
   * (its POST /start): a settle waits for each. A server that hands the call on before its tool runs (a proxy to a
   * child process over stdio) may start it after the quiet interval has passed, and a run that went on without the
   * start would read the call as never answered. Bounded as every settle is: a call never started is expected no more.
   */
  private readonly startsExpected = new Set<string>();
  /**
   * The probe calls whose tool started since their request was sent: a server may start the tool before it sends the
   * response head (an in-process one does), and such a call has no start left to wait for.
   */
  private readonly startedSinceSent = new Set<string>();
  /** The connection whose request started each execution (executionNumbered), by execution number. */
  private readonly executionConnections = new Map<number, WireConnection>();
  /** Each probe call sent, by call ID: the session header it went with, and whether it was a 2026-07-28 request. */
  private readonly callsSent = new Map<string, { readonly sessionId: string | null; readonly modern: boolean }>();

  constructor(
    private readonly context: WireContext,
    private readonly host: TargetHost,
    private readonly epoch: number,
  ) {
    // A start that fails is reported by the first operation that waits for it.
    context.ready?.catch(() => {});
  }

  /** A probe tool of this server was handed a notification of call `callId` to send: its frame is expected. */
  notificationHandedOut(callId: string, message: JsonRpcMessage, execution: number): void {
    const provenance = provenanceOf(message);
    const carried = this.carriers(callId, execution).length > 0;
    if (provenance === null || !carried) {
      this.quietOptional = false;
      return;
    }
    this.framesExpected.set(frameKey(provenance), { callId, sessionId: provenance.sessionId });
  }

  /** A probe tool of this server was handed the result of call `callId`: its frame is expected where the call is carried. */
  resultHandedOut(callId: string, execution: number): void {
    this.quietOptional = false;
    if (this.carriers(callId, execution).length > 0) this.resultsExpected.add(callId);
  }

  /**
   * The open connections a message of execution `execution` of call `callId` may arrive on: any that carries the call;
   * for a 2026-07-28 execution, only the connection of the request that started it (its exchange is its own: a
   * re-issue of the call is another exchange, which never carries this execution's messages).
   */
  private carriers(callId: string, execution: number): WireConnection[] {
    const own = this.executionConnections.get(execution);
    if (own !== undefined && this.callsSent.get(callId)?.modern === true) return own.state === 'open' ? [own] : [];
    return [...this.connections.values()].filter((entry) => entry.state === 'open' && entry.calls.has(callId));
  }

  /** An execution of call `callId` started (executionStarted) has its number: it is the one the call's latest request started. */
  executionNumbered(callId: string, execution: number): void {
    let latest: WireConnection | undefined;
    for (const entry of this.connections.values()) if (entry.sentCall === callId && (latest === undefined || entry.connection > latest.connection)) latest = entry;
    if (latest !== undefined) this.executionConnections.set(execution, latest);
  }

  /**
   * A probe tool started an execution of `callId` (its POST /start): its start is expected no more. Returns the session
   * the execution belongs to, read from the call as it was sent: a legacy call's is the session it was sent in; a
   * 2026-07-28 call has none (''), unless its tool reports the very session ID that was attached to its request (the
   * server took a proxy-attached header for a session, which modern-exchange-stateless judges). What the tool reports
   * is used only for a call this harness never sent.
   */
  executionStarted(callId: string, reported: string): string {
    this.startsExpected.delete(callId);
    this.startedSinceSent.add(callId);
    const sent = this.callsSent.get(callId);
    if (sent === undefined) return reported;
    if (sent.modern) return sent.sessionId !== null && reported === sent.sessionId ? reported : '';
    return sent.sessionId ?? '';
  }

  /** A connection stops carrying anything: results expected only on it are no longer expected. */
  private release(entry: WireConnection): void {
    const open = [...this.connections.values()].filter((other) => other !== entry && other.state === 'open');
    for (const callId of entry.calls) {
      const elsewhere = open.some((other) => other.calls.has(callId));
      if (!elsewhere) this.resultsExpected.delete(callId);
    }
    for (const [key, expected] of this.framesExpected) {
      const still = open.some((other) => (expected.callId === null ? standaloneFor(other, expected.sessionId) : other.calls.has(expected.callId)));
      if (!still) {
        this.framesExpected.delete(key);
        this.quietOptional = false;
      }
    }
  }

  /** Something happened (a byte arrived, a tool called back): a settle waits for a quiet interval after it. */
  touch(): void {
    this.lastActivityMs = wallMs();
  }

  private checkAlive(): void {
    if (this.context.interrupt?.aborted === true) throw new WireInterrupted('a stop cut the run off');
    // An error on the simulator's side while it answered a tool is a harness failure: it ends the run loudly.
    const failure = this.context.control.failure;
    if (failure !== null) throw failure;
    const fault = this.context.fault();
    if (fault !== null) throw new WireFault(fault);
  }

  /**
   * Sends one request on its own socket; `head` resolves with the head, or rejects with a {@link WireFault}. `defer`
   * stops waiting for it: no settle waits for it, and no bound makes it a fault (the head still resolves when it comes).
   */
  private send(request: HttpRequest | { method: 'POST'; sessionId: string; body: JsonRpcMessage; lastEventId: null }): { request: ClientRequest; head: Promise<IncomingMessage>; defer(): void } {
    const { url, headers: extra, timing } = this.context;
    const headers: Record<string, string> = { ...extra, accept: 'application/json, text/event-stream' };
    // An unnamed session (a stateless server's) is named by the simulator alone: no header, its name in the markers.
    const header = sessionHeaderOf(request.sessionId);
    if (header !== null) headers['mcp-session-id'] = header;
    if (request.method !== 'DELETE' && request.lastEventId !== null) headers['last-event-id'] = request.lastEventId;
    // The request as sent: a POST's body rewritten for the probe tools or the echo (bodyOnTheWire).
    const sent = request.method === 'POST' ? { ...request, body: bodyOnTheWire(request.body, this.context, this.epoch, request.sessionId) } : request;
    // Its revision headers, as the in-process SDK harness sends them (none for 2025-03-26 or an initialize), of the body
    // as sent: an echo call's Mcp-Name is the echo tool's.
    Object.assign(headers, revisionHeadersOf(sent));
    let payload: string | null = null;
    if (sent.method === 'POST') {
      payload = JSON.stringify(sent.body);
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    const what = request.method === 'POST' ? `POST ${String(request.body['method'])}` : request.method;
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // A socket of its own per exchange (no agent): a connection is one HTTP exchange, and a cut closes exactly it.
    const outgoing = make(url, { method: request.method, headers, agent: false });
    this.headsPending += 1;
    let defer = (): void => {};
    const head = new Promise<IncomingMessage>((resolve, reject) => {
      let settled = false;
      let deferred = false;
      const interrupt = this.context.interrupt;
      const interrupted = (): void => {
        if (settled) return;
        finish();
        outgoing.destroy();
        reject(new WireInterrupted('a stop cut the run off'));
      };
      const finish = (): void => {
        if (settled) return;
        settled = true;
        if (!deferred) this.headsPending -= 1;
        timer.cancel();
        interrupt?.removeEventListener('abort', interrupted);
        this.touch();
      };
      defer = (): void => {
        if (settled || deferred) return;
        deferred = true;
        this.headsPending -= 1;
        timer.cancel();
      };
      interrupt?.addEventListener('abort', interrupted, { once: true });
      const timer = startTimer(timing.headMsMax, () => {
        if (settled) return;
        finish();
        outgoing.destroy();
        reject(new WireFault(this.context.fault() ?? `the server at ${url.href} sent no response head to a ${what} within ${timing.headMsMax} ms`));
      });
      outgoing.once('response', (response) => {
        finish();
        resolve(response);
      });
      outgoing.once('error', (error: NodeJS.ErrnoException) => {
        if (settled) return;
        finish();
        reject(new WireFault(this.context.fault() ?? `the server at ${url.href} failed a ${what} (${error.code ?? error.message})`));
      });
    });
    outgoing.end(payload ?? undefined);
    return { request: outgoing, head, defer: () => defer() };
  }

  /**
   * The head of a probe call's request, or null once it is deferred: the call's tool has started, the server is quiet,
   * and no step the simulator released is still untaken, yet no head came. Such a server holds the head until the
   * tool is done (mcp-handler answers a 2026-07-28 call with one JSON body), and the tool waits for the simulator's
   * next step: the head is reported as a stream's, and what arrives later is that stream's (receiveLate), as the SDK
   * harness defers it in process. Any other request's head (`callId` null) is awaited, within its bound.
   */
  private async headOrDeferred(sent: { head: Promise<IncomingMessage>; defer(): void }, callId: string | null): Promise<IncomingMessage | null> {
    if (callId === null || !this.context.probe) return sent.head;
    let outcome: { readonly head: IncomingMessage } | { readonly error: unknown } | null = null;
    sent.head.then(
      (head) => (outcome = { head }),
      (error: unknown) => (outcome = { error }),
    );
    for (;;) {
      const arrived = outcome as { readonly head: IncomingMessage } | { readonly error: unknown } | null;
      if (arrived !== null) {
        if ('error' in arrived) throw arrived.error;
        return arrived.head;
      }
      this.checkAlive();
      const quiet = wallMs() - this.lastActivityMs >= this.context.timing.quietMs;
      if (this.startedSinceSent.has(callId) && quiet && this.context.control.unconsumed === 0) {
        sent.defer();
        return null;
      }
      await sleepMs(SETTLE_POLL_MS);
    }
  }

  /** A deferred head came: its stream is pumped, or its JSON body reported as one frame without an event ID, then its end. */
  private async receiveLate(entry: WireConnection, response: IncomingMessage): Promise<void> {
    this.touch();
    entry.response = response;
    if (entry.state !== 'open') {
      response.destroy();
      return;
    }
    if ((response.headers['content-type'] ?? '').includes('text/event-stream') && response.statusCode === 200) {
      this.pump(entry, response);
      return;
    }
    const parsed = parseJsonBody(await this.readAll(response));
    if (entry.state !== 'open') return;
    if (parsed !== null) this.deliver(entry, { eventId: null, event: null, data: this.marked(parsed, entry), retryMs: null });
    entry.state = 'ended';
    this.release(entry);
    this.host.end(entry.connection);
  }

  async handle(request: HttpRequest): Promise<HttpResponse> {
    this.assertLive('handle');
    await this.context.ready;
    this.checkAlive();
    if (this.connections.has(request.connection)) throw new Error(`assertion: connection ${request.connection} was already used`);
    const getOf = request.method === 'GET' ? request.sessionId : null;
    let sentCall: string | null = null;
    if (request.method === 'POST' && isProbeCall(request.body)) {
      const callId = (request.body['params'] as { arguments?: { callId?: unknown } }).arguments?.callId;
      if (typeof callId === 'string') {
        sentCall = callId;
        this.callsSent.set(callId, { sessionId: request.sessionId, modern: isModernBody(request.body) });
        this.startedSinceSent.delete(callId);
      }
    }
    const sentIn = request.method === 'POST' && isModernBody(request.body) ? null : request.sessionId;
    const entry: WireConnection = { connection: request.connection, getOf, sessionId: sentIn, request: null, response: null, state: 'open', calls: new Set(sentCall === null ? [] : [sentCall]), sentCall };
    this.connections.set(request.connection, entry);
    const sent = this.send(request);
    entry.request = sent.request;
    // Only a 2026-07-28 call's head is ever deferred: a server of the legacy era starts a call's stream before its tool
    // runs, and a head that is merely slow (a loaded machine) must not turn into a stream the simulator assumed.
    const response = await this.headOrDeferred(sent, request.method === 'POST' && isModernBody(request.body) ? sentCall : null);
    if (response === null) {
      // A late failure (the server gone) shows at the next operation, through the process's fault or a refused request.
      sent.head.then(
        (late) => this.receiveLate(entry, late),
        () => undefined,
      );
      await this.settle();
      return { status: 200, sessionId: null, streaming: true, body: null };
    }
    entry.response = response;
    const sessionHeader = response.headers['mcp-session-id'];
    const sessionId = typeof sessionHeader === 'string' ? sessionHeader : null;
    const status = response.statusCode ?? 0;
    const streaming = (response.headers['content-type'] ?? '').includes('text/event-stream');
    // A server's own echo tool answers inside its request: a call's stream carries the call's result, and a settle waits
    // for it, not for a quiet spell that a loaded machine can outlast (a lossy call's result arrives here too; the
    // simulator loses it). Bounded as every settle is: a stream that ends without it expects it no more (release).
    if (this.context.echo !== null && streaming && status === 200) for (const callId of entry.calls) this.resultsExpected.add(callId);
    if (this.context.probe && sentCall !== null && streaming && status === 200 && !this.startedSinceSent.has(sentCall)) this.startsExpected.add(sentCall);
    if (!streaming) {
      const text = await this.readAll(response);
      entry.state = 'ended';
      // Nothing more comes on it: what it alone was expected to carry is expected no more.
      this.release(entry);
      await this.settle();
      // A JSON answer to a call is its result (the simulator takes it as one): the marker names its provenance, as in a frame.
      const parsed = parseJsonBody(text);
      return { status, sessionId, streaming: false, body: parsed === null ? null : this.marked(parsed, entry) };
    }
    this.pump(entry, response);
    await this.settle();
    return { status, sessionId, streaming: true, body: null };
  }

  private readAll(response: IncomingMessage): Promise<string> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        this.touch();
        bytes += chunk.length;
        if (bytes <= JSON_BODY_BYTES_MAX) chunks.push(chunk);
      });
      response.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.once('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.once('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  }

  private pump(entry: WireConnection, response: IncomingMessage): void {
    const parser = createSseParser({ malformedData: 'report' });
    const decoder = new TextDecoder();
    response.on('data', (chunk: Buffer) => {
      this.touch();
      if (entry.state !== 'open') return;
      for (const parsed of parser.push(decoder.decode(chunk, { stream: true }))) {
        if (entry.state !== 'open') continue;
        this.deliver(entry, this.withMarker(parsed, entry));
      }
    });
    const ended = (): void => {
      this.touch();
      if (entry.state !== 'open') return;
      entry.state = 'ended';
      this.release(entry);
      // A body cut off mid-frame by the server is an end: what was complete was reported.
      this.host.end(entry.connection);
    };
    response.once('end', ended);
    response.once('close', ended);
    response.once('error', ended);
  }

  /** Reports a frame `entry` carried, and settles what it was awaited as. */
  private deliver(entry: WireConnection, frame: Frame): void {
    // The request answered (a result or an error, its tool's or the server's own refusal): no start to wait for.
    if (entry.sentCall !== null && frame.data !== null && isResponse(frame.data)) this.startsExpected.delete(entry.sentCall);
    const provenance = provenanceOf(frame.data);
    if (provenance !== null && provenance.callId !== null) {
      entry.calls.add(provenance.callId);
      if (provenance.result) this.resultsExpected.delete(provenance.callId);
    }
    if (provenance !== null && !provenance.result) this.framesExpected.delete(frameKey(provenance));
    this.host.frame(entry.connection, frame);
  }

  /** A frame whose result carries an echo marker keeps the provenance the marker names (echo-marker.ts). */
  private withMarker(frame: Frame, entry: WireConnection): Frame {
    const data = frame.data === null ? null : this.marked(frame.data, entry);
    return data === frame.data ? frame : { ...frame, data };
  }

  /**
   * A message carrying an echo marker, with the provenance the marker names. An answer under a marked request ID has its
   * ID back as the simulator numbered it; arriving on a connection of another session than the one it was sent in, it
   * also has the provenance of the call sent under it (the result of that call, wherever it arrives). In its own
   * session it stays an answer the client does not tell apart from its other ones, as without the marker. Any other
   * message as it is.
   */
  private marked(message: JsonRpcMessage, entry: WireConnection): JsonRpcMessage {
    const requestId = readRequestIdMarker(message['id']);
    if (requestId !== null && requestId.run === this.context.run) {
      const unmarked = { ...message, id: requestId.id };
      const session = entry.sessionId;
      const callId = this.context.sentCalls.get(message['id'] as string);
      if (session === null || sessionHeaderOf(session) === null || session === requestId.sessionId || callId === undefined) return unmarked;
      return withProvenance(unmarked, { epoch: requestId.epoch, sessionId: requestId.sessionId, callId, k: 1, execution: 1, result: true });
    }
    const provenance = this.context.echo === null ? null : markedProvenance(message, this.context.run);
    return provenance === null ? message : withProvenance(message, provenance);
  }

  /**
   * Waits until every head has arrived, every released step was taken (and every result acknowledged where its server
   * does), and nothing arrived for the quiet interval.
   */
  private async settle(): Promise<void> {
    const { timing, stats, control } = this.context;
    const started = wallMs();
    stats.settles += 1;
    for (;;) {
      this.checkAlive();
      const now = wallMs();
      if (now - started >= timing.settleMsMax) {
        stats.settlesCutShort += 1;
        if (stats.cutShortFor.length < CUT_SHORT_KEPT_MAX) stats.cutShortFor.push(this.awaitedText());
        // What did not arrive within the bound is expected no more: the server sent it elsewhere or not at all (a
        // re-sent call's second result goes to the newer request's stream, leaving the first connection open), and
        // every later settle of the run would otherwise wait out the bound for it again.
        this.framesExpected.clear();
        this.resultsExpected.clear();
        this.startsExpected.clear();
        control.forgetUnhandled();
        break;
      }
      const quietFor = now - this.lastActivityMs;
      const waiting = this.headsPending > 0 || control.unconsumed > 0 || control.unacknowledged > 0 || control.unhandled > 0 || this.resultsExpected.size > 0 || this.framesExpected.size > 0 || this.startsExpected.size > 0;
      if (!waiting && (this.quietOptional || quietFor >= timing.quietMs)) {
        // Quiet by the clock; but bytes that arrived while this process was not running are read only in the next
        // I/O poll, after the timers. Let that poll run, and settle only if it brought nothing.
        const before = this.lastActivityMs;
        await afterIoPoll();
        if (this.lastActivityMs === before) break;
        continue;
      }
      await sleepMs(waiting ? SETTLE_POLL_MS : timing.quietMs - quietFor);
    }
    stats.settleMs += wallMs() - started;
    this.quietOptional = false;
  }

  /** What a settle is waiting for, in words (for the report of one cut short). */
  private awaitedText(): string {
    const { control } = this.context;
    const awaited = [
      ...(this.headsPending > 0 ? [`${this.headsPending} response head(s)`] : []),
      ...(control.unconsumed > 0 ? [`${control.unconsumed} released tool step(s)`] : []),
      ...(control.unacknowledged > 0 ? [`${control.unacknowledged} acknowledgement(s)`] : []),
      ...(control.unhandled > 0 ? [`${control.unhandled} result(s) the server has not been through sending`] : []),
      ...[...this.startsExpected].map((callId) => `the start of ${callId}`),
      ...[...this.resultsExpected].map((callId) => `the result of ${callId}`),
      ...[...this.framesExpected.values()].map(({ callId, sessionId }) => (callId === null ? `a notification in session ${sessionId}` : `a notification of ${callId}`)),
    ];
    return awaited.length === 0 ? 'a quiet interval (bytes kept arriving)' : awaited.join(', ');
  }

  async cut(connection: number): Promise<void> {
    this.assertLive('cut');
    const entry = this.connections.get(connection);
    if (entry !== undefined && entry.state === 'open') {
      entry.state = 'cut';
      this.release(entry);
      entry.request?.destroy();
    }
    await this.settle();
  }

  async advance(execution: number): Promise<void> {
    this.assertLive('advance');
    // Optional until the step turns out to be a result, or a notification no open connection is expected to carry.
    this.quietOptional = true;
    this.context.control.release(execution);
    await this.settle();
  }

  async notify(sessionId: string, message: JsonRpcMessage): Promise<void> {
    this.assertLive('notify');
    await this.context.ready;
    this.checkAlive();
    if (!this.context.probe) throw new Error('assertion: notify offered for a server without the probe tools');
    // The probe contract's `notify` tool sends `message` on the session's standalone stream. Its own exchange is the
    // harness's, not a client's: a request ID no simulated client uses, and its response is read and set aside.
    this.sideRequests += 1;
    const body: JsonRpcMessage = {
      jsonrpc: '2.0',
      id: `resumecheck-notify-${this.epoch}-${this.sideRequests}`,
      method: 'tools/call',
      params: { name: 'notify', arguments: { message } },
    };
    // Its frame is expected on the session's open standalone stream, if there is one; the tool's answer says it was sent.
    const provenance = provenanceOf(message);
    const standalone = [...this.connections.values()].some((entry) => entry.state === 'open' && standaloneFor(entry, sessionId));
    if (provenance !== null && standalone) this.framesExpected.set(frameKey(provenance), { callId: null, sessionId });
    // Set before the exchange: the stream closing meanwhile takes it back (release).
    this.quietOptional = provenance !== null && standalone;
    const sent = this.send({ method: 'POST', sessionId, body, lastEventId: null });
    const response = await sent.head;
    await this.readAll(response);
    await this.settle();
  }

  closeConnection(): never {
    throw new Error('assertion: serverClose is not offered over the wire (the server alone decides when to close)');
  }

  expire(): never {
    throw new Error('assertion: expire is not offered over the wire (the server alone decides when a session expires)');
  }

  /** Drops every connection without reporting anything more for it (a restart, or the run's end). */
  drop(): void {
    for (const entry of this.connections.values()) {
      if (entry.state === 'open') entry.state = 'dropped';
      entry.request?.destroy();
    }
    this.resultsExpected.clear();
    this.framesExpected.clear();
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    await this.goDown();
    await this.context.restart(this.epoch + 1);
    this.touch();
  }

  /** This node crashes (a deployment's fault): its process is killed at once, its connections and tools die with it. */
  async crash(): Promise<void> {
    const node = this.context.node;
    if (node === undefined) throw new Error('assertion: crash of a server that is no node of a deployment');
    this.assertLive('crash');
    await this.goDown();
    await node.crash();
  }

  /** This incarnation (or node) ends: its connections and its tools' pending steps go, once its process has started. */
  private async goDown(): Promise<void> {
    this.disposed = true;
    this.drop();
    this.context.control.dropPending(this.context.node?.index);
    await this.context.ready?.catch(() => {});
  }

  private assertLive(method: string): void {
    if (this.disposed) throw new Error(`assertion: ${method} called on a disposed wire server incarnation`);
  }
}
