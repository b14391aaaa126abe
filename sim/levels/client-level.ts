// The client level: a real client (behind a ClientApplication) against the reference server in process, with the
// simulator playing the network between them (slow responses, frames delivered one at a time, cuts that lose the
// tail, polling closes with `retry`, restarts answered 404) and the client's timers on the simulator's clock. The
// engine runs it through its one loop; this file is the level's model (its actions), its operations and its monitors.

import { CLIENT_PROPERTIES, type ClientProperty } from '../../properties/clients/index.ts';
import { type ClientApplication, CLIENT_LEVEL_URL, type ClientFactory, type LevelFetch } from '../../targets/clients/client-application.ts';
import { referenceTarget } from '../../targets/reference/reference.target.ts';
import { createQuiescence } from '../../targets/sdk/quiescence.ts';
import type { ExecutionStart, Frame, HttpRequest, JsonRpcMessage, TargetHost, ToolStep } from '../../targets/target.ts';
import { TOOL_NAMES } from '../../targets/target.ts';
import { type ActionList, createActionList } from '../actions.ts';
import type { SimConfig } from '../config.ts';
import { frameFields } from './server-level.ts';
import type { StepRecord, TraceStep } from './records.ts';
import { CLIENT_VOCABULARY } from './client-records.ts';
import { createPrng } from '../prng.ts';
import { isResponse, progressStepsOf, toolStep } from '../tools.ts';
import { SimClock, patchClock } from './clock.ts';
import { ClientWorld, type Exchange } from './client-world.ts';
import type { Level, LevelRun, LevelRunOptions } from './level.ts';

/** The client level's action kinds, by number (a and b per kind in the comments). */
export const CLIENT_KINDS = {
  /** The application calls tool `a` (index into TOOL_NAMES). */
  call: 0,
  /** The network carries request `a` to the server and its response head back (until then the response is slow). */
  respond: 1,
  /** The network delivers the next frame (or the end) of connection `a`. */
  deliver: 2,
  /** The network cuts connection `a`; frames not yet delivered are lost. */
  cut: 3,
  /** The server's execution `a` takes its next step. */
  advance: 4,
  /** The server closes connection `a` without ending its stream, with `retry` (2025-11-25 polling). */
  serverClose: 5,
  /** The server restarts: every connection dies and every session is gone (resumptions are answered 404). */
  restart: 6,
  /** Time passes until the client's next timer fires (reconnect backoff, request timeout). */
  tick: 7,
} as const;

const K = CLIENT_KINDS;
/** Each kind's name, by number (for a finding's signature). */
const CLIENT_KIND_NAMES: readonly string[] = Object.entries(CLIENT_KINDS).sort((left, right) => left[1] - right[1]).map(([name]) => name);

/** The `retry` a polling close asks for, in ms. */
export const POLL_RETRY_MS = 500;
/**
 * Liveness steps at the most (each delivers, advances or fires one timer): enough for the clients' 60 s request
 * timeout to come round even while a client and the server poll each other every 500 ms (about 8 steps a round).
 */
export const CLIENT_HEAL_STEPS_MAX = 3000;
/** Once every call has settled, the liveness phase ends when this much simulated time has passed since the start. */
export const CLIENT_HEAL_QUIET_MS = 120_000;
/** Prelude steps at the most while the application connects. */
const CONNECT_STEPS_MAX = 16;

const ENCODER = new TextEncoder();

function sseText(frame: Frame): string {
  let text = '';
  if (frame.eventId !== null) text += `id: ${frame.eventId}\n`;
  if (frame.event !== null) text += `event: ${frame.event}\n`;
  if (frame.retryMs !== null) text += `retry: ${frame.retryMs}\n`;
  return `${text}data: ${frame.data === null ? '' : JSON.stringify(frame.data)}\n\n`;
}

/** The client level has one client: its records name it as the server level names its first. */
const CLIENT = 1;

/** A request as its records hold it: the method, the connection, the body's method and the headers sent. */
function requestFields(exchange: Exchange) {
  return { method: exchange.method, connection: exchange.index, client: CLIENT, bodyMethod: exchange.bodyMethod, lastEventId: exchange.lastEventId, session: exchange.sessionId };
}

/** An enabled action as a record (sim/levels/client-records.ts), from the world before it runs. */
export function clientActionRecord(world: ClientWorld, kind: number, a: number): StepRecord {
  switch (kind) {
    case K.call:
      return { kind: 'call', client: CLIENT, tool: TOOL_NAMES[a]!, call: `c${world.calls.length + 1}` };
    case K.respond:
      return { kind: 'respond', ...requestFields(world.exchanges[a]!) };
    case K.deliver:
      return { kind: 'deliver', connection: a, client: CLIENT, end: world.exchanges[a]!.queue.length === 0 };
    case K.cut:
      return { kind: 'cut', connection: a, client: CLIENT, beforeResponse: world.exchanges[a]!.phase === 'sent' };
    case K.advance: {
      const execution = world.executions[a]!;
      return { kind: 'advance', call: execution.callId, tool: execution.tool, execution: execution.ordinal };
    }
    case K.serverClose:
      return { kind: 'serverClose', connection: a, client: CLIENT, retryMs: POLL_RETRY_MS };
    case K.restart:
      return { kind: 'restart', epoch: world.epoch + 1 };
    case K.tick: {
      const timer = world.clock.next()!;
      return { kind: 'tick', elapsedMs: timer.dueMs - world.clock.nowMs, delayMs: timer.delayMs };
    }
    default:
      throw new Error(`assertion: client level action kind ${kind} unknown`);
  }
}

/** How the level's actions read in traces (scripts and the shrinker match on these): their records' text. */
export function describeClientAction(world: ClientWorld, kind: number, a: number): string {
  return CLIENT_VOCABULARY.text(clientActionRecord(world, kind, a));
}

function push(list: ActionList, kind: number, a: number): void {
  list.kind[list.count] = kind;
  list.a[list.count] = a;
  list.b[list.count] = 0;
  list.count += 1;
}

function headerOf(init: RequestInit | undefined, name: string): string | null {
  const headers = new Headers(init?.headers);
  return headers.get(name);
}

function parseBody(body: unknown): JsonRpcMessage | null {
  if (typeof body !== 'string') return null;
  try {
    const parsed = JSON.parse(body) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as JsonRpcMessage) : null;
  } catch {
    return null;
  }
}

/** One run of the client level. */
class ClientLevelRun implements LevelRun {
  readonly trace: TraceStep[] | null;
  application: ClientApplication | null = null;
  private readonly host: TargetHost;
  private restoreClock: (() => void) | null;

  constructor(
    readonly world: ClientWorld,
    readonly list: ActionList,
    options: LevelRunOptions,
    restoreClock: () => void,
  ) {
    this.trace = options.record ? [] : null;
    this.restoreClock = restoreClock;
    this.host = createHost(world);
  }

  boot(): void {
    this.world.server = this.world.run.boot({ epoch: this.world.epoch }, this.host);
  }

  /** The `fetch` the client is given: every call becomes an exchange the network holds until an action moves it. */
  readonly fetch: LevelFetch = (input, init) => {
    const world = this.world;
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') return Promise.reject(new TypeError(`the level's network carries GET, POST and DELETE, not ${method}`));
    const body = parseBody(init?.body);
    const exchange: Exchange = {
      index: world.exchanges.length,
      method,
      sessionId: headerOf(init, 'mcp-session-id'),
      lastEventId: headerOf(init, 'last-event-id'),
      body,
      bodyMethod: body !== null && typeof body['method'] === 'string' ? body['method'] : null,
      phase: 'sent',
      status: 0,
      stream: null,
      queue: [],
      endQueued: false,
      respond: null,
      fail: null,
      controller: null,
      release: () => undefined,
    };
    world.exchanges.push(exchange);
    world.quiescence.touch();
    // A request record as the server level's (kind, method, connection, client, session), so the diagram draws it as one;
    // an initialize is marked as the server level marks it, for the session it asks for is not yet the client's.
    world.record({ kind: 'request', ...requestFields(exchange), ...(exchange.bodyMethod === 'initialize' ? { form: 'initialize' } : {}) });
    monitor(world, 'onRequest', exchange);
    const signal = init?.signal ?? null;
    return new Promise<Response>((resolve, reject) => {
      exchange.respond = resolve;
      exchange.fail = reject;
      if (signal !== null) {
        const abort = (): void => abortExchange(world, exchange);
        if (signal.aborted) abort();
        else {
          signal.addEventListener('abort', abort, { once: true });
          exchange.release = () => signal.removeEventListener('abort', abort);
        }
      }
    });
  };

  enumerate(): void {
    const { world, list } = this;
    list.count = 0;
    if (world.connect === 'done' && world.calls.length < world.config.callsPerSessionMax) {
      for (let tool = 0; tool < TOOL_NAMES.length; tool += 1) push(list, K.call, tool);
    }
    for (const exchange of world.exchanges) {
      if (exchange.phase === 'done') continue;
      if (exchange.phase === 'sent') push(list, K.respond, exchange.index);
      else if (exchange.queue.length > 0 || exchange.endQueued) push(list, K.deliver, exchange.index);
      push(list, K.cut, exchange.index);
      if (exchange.phase === 'streaming' && !exchange.endQueued) push(list, K.serverClose, exchange.index);
    }
    for (const index of world.running) push(list, K.advance, index);
    if (world.restarts < world.config.restartsMax) push(list, K.restart, 0);
    if (world.clock.next() !== null) push(list, K.tick, 0);
  }

  begin(choice: number, phase: TraceStep['phase']): void {
    this.world.acting = this.list.kind[choice]!;
    if (this.trace === null) return;
    const notes: StepRecord[] = [];
    this.trace.push({ choice, phase, action: clientActionRecord(this.world, this.list.kind[choice]!, this.list.a[choice]!), observations: notes });
    this.world.notes = notes;
  }

  async step(kind: number, a: number): Promise<void> {
    perform(this.world, this.application!, kind, a, () => this.boot());
    await this.world.quiescence.settle();
  }

  startHeal(): void {}

  nextHeal(): number | null {
    const { world, list } = this;
    list.count = 0;
    if (world.healSteps >= CLIENT_HEAL_STEPS_MAX) {
      world.healExhausted = true;
      return null;
    }
    if (world.calls.every((call) => call.outcome !== null) && world.clock.nowMs - world.clockStartMs >= CLIENT_HEAL_QUIET_MS) return null;
    const offer = (kind: number, a: number): number => {
      world.healSteps += 1;
      push(list, kind, a);
      return 0;
    };
    for (const exchange of world.exchanges) if (exchange.phase === 'sent') return offer(K.respond, exchange.index);
    for (const exchange of world.exchanges) {
      if (exchange.phase === 'streaming' && (exchange.queue.length > 0 || exchange.endQueued)) return offer(K.deliver, exchange.index);
    }
    if (world.running.length > 0) return offer(K.advance, world.running[0]!);
    // The application carries on once: after a 404 its next call shows whether the client started a new session.
    if (!world.retried && world.connect === 'done' && world.sessions404.size > 0) {
      world.retried = true;
      return offer(K.call, 0);
    }
    if (world.clock.next() !== null) return offer(K.tick, 0);
    return null;
  }

  finish(): void {
    monitor(this.world, 'onFinish', null);
  }

  async close(): Promise<void> {
    // What the client does once closed (rejecting what is pending) is not part of the run's last step.
    this.world.notes = null;
    try {
      if (this.application !== null) {
        await this.application.close().catch(() => undefined);
        await this.world.quiescence.settle().catch(() => undefined);
      }
    } finally {
      this.restoreClock?.();
      this.restoreClock = null;
      await this.world.run.close();
    }
  }
}

function report(world: ClientWorld, property: ClientProperty, explanation: string | null, hook: 'onRequest' | 'onResponse' | 'onFinish'): void {
  if (explanation !== null && world.violation === null && (world.checked === null || world.checked.has(property.name))) {
    // As at the server level (sim/signature.ts): the step's action kind, then what the client was judged on.
    const step = hook === 'onFinish' ? 'settled' : (CLIENT_KIND_NAMES[world.acting] ?? 'start');
    const signature = hook === 'onFinish' ? step : `${step} / ${hook === 'onRequest' ? 'request' : 'response'}`;
    world.violation = { property: property.name, step: world.step, explanation, signature };
  }
}

function monitor(world: ClientWorld, hook: 'onRequest' | 'onResponse' | 'onFinish', exchange: Exchange | null): void {
  if (world.violation !== null) return;
  for (const property of CLIENT_PROPERTIES) {
    const check = property[hook];
    if (check === undefined) continue;
    report(world, property, hook === 'onFinish' ? property.onFinish!(world) : (check as (w: ClientWorld, e: Exchange) => string | null)(world, exchange!), hook);
  }
}

function createHost(world: ClientWorld): TargetHost {
  return {
    frame(connection: number, frame: Frame): void {
      const exchange = world.exchanges[connection];
      if (exchange !== undefined && exchange.phase !== 'done') exchange.queue.push(frame);
    },
    end(connection: number): void {
      const exchange = world.exchanges[connection];
      if (exchange !== undefined && exchange.phase !== 'done') exchange.endQueued = true;
    },
    startExecution(start: ExecutionStart): number {
      const ordinal = world.executions.filter((execution) => execution.callId === start.callId).length + 1;
      const index = world.executions.length;
      world.executions.push({ callId: start.callId, tool: start.tool, sessionId: start.sessionId, epoch: world.epoch, ordinal, progressSteps: progressStepsOf(start.tool, world.config.workProgressSteps), k: 0, finished: false });
      world.running.push(index);
      world.record({ kind: 'execution', tool: start.tool, call: start.callId, execution: ordinal, session: start.sessionId });
      return index;
    },
    cancelled(index: number): void {
      // The reference server the client level runs against serves the 2025 revisions, which never cancel on a
      // disconnect; a cancellation still ends the execution, as the server level records it.
      const execution = world.executions[index];
      if (execution === undefined || execution.finished) return;
      execution.finished = true;
      world.running.splice(world.running.indexOf(index), 1);
      world.record({ kind: 'cancelled', tool: execution.tool, call: execution.callId, execution: execution.ordinal });
    },
    nextStep(index: number): ToolStep {
      const execution = world.executions[index]!;
      if (execution.finished) throw new Error(`assertion: execution ${index} asked for a step past its result`);
      execution.k += 1;
      const next = toolStep({ epoch: execution.epoch, sessionId: execution.sessionId, callId: execution.callId, k: execution.k, execution: execution.ordinal }, execution.progressSteps);
      if (next.kind === 'result') {
        execution.finished = true;
        world.running.splice(world.running.indexOf(index), 1);
      }
      return next;
    },
    random(): number {
      return world.serverRandom.float();
    },
  };
}

/** The exchange is over: it no longer listens to its request's abort signal. */
function endExchange(exchange: Exchange): void {
  exchange.phase = 'done';
  exchange.release();
}

/** The stream an SSE exchange carries: a POST's own, a new GET stream, or the one its cursor names. */
function streamKeyOf(world: ClientWorld, exchange: Exchange): string {
  if (exchange.method === 'GET' && exchange.lastEventId !== null) return world.eventStreams.get(exchange.lastEventId) ?? `unknown#${exchange.index}`;
  return `${exchange.method === 'POST' ? 'post' : 'get'}#${exchange.index}`;
}

function resumedStream(world: ClientWorld, exchange: Exchange) {
  if (exchange.method !== 'GET' || exchange.lastEventId === null) return undefined;
  const key = world.eventStreams.get(exchange.lastEventId);
  return key === undefined ? undefined : world.streams.get(key);
}

/** The connection is over before its stream's response: the stream is broken until a connection joins it again. */
function breakStream(world: ClientWorld, exchange: Exchange): void {
  if (exchange.stream === null) return;
  const stream = world.streams.get(exchange.stream)!;
  if (!stream.answered) stream.broken = true;
}

function failSent(world: ClientWorld, exchange: Exchange, error: Error): void {
  endExchange(exchange);
  const stream = resumedStream(world, exchange);
  if (stream !== undefined) stream.resumeFailures += 1;
  exchange.fail?.(error);
  monitor(world, 'onResponse', exchange);
}

function abortExchange(world: ClientWorld, exchange: Exchange): void {
  if (exchange.phase === 'done') return;
  const error = new DOMException('This operation was aborted', 'AbortError');
  if (exchange.phase === 'sent') {
    endExchange(exchange);
    exchange.fail?.(error);
    return;
  }
  endExchange(exchange);
  exchange.queue.length = 0;
  exchange.controller?.error(error);
  world.server?.cut(exchange.index);
  breakStream(world, exchange);
}

function respond(world: ClientWorld, exchange: Exchange): void {
  const request: HttpRequest =
    exchange.method === 'POST'
      ? { method: 'POST', connection: exchange.index, sessionId: exchange.sessionId, lastEventId: exchange.lastEventId, body: exchange.body ?? { jsonrpc: '2.0' } }
      : exchange.method === 'GET'
        ? { method: 'GET', connection: exchange.index, sessionId: exchange.sessionId, lastEventId: exchange.lastEventId }
        : { method: 'DELETE', connection: exchange.index, sessionId: exchange.sessionId };
  const response = world.server!.handle(request);
  if (response instanceof Promise) throw new Error('assertion: the client level serves the synchronous reference server');
  exchange.status = response.status;
  const headers: Record<string, string> = {};
  if (response.sessionId !== null) headers['mcp-session-id'] = response.sessionId;
  const resumed = resumedStream(world, exchange);
  if (resumed !== undefined) resumed.resumeFailures = response.status >= 200 && response.status < 300 ? 0 : resumed.resumeFailures + 1;
  if (response.status === 404 && exchange.sessionId !== null && !world.sessions404.has(exchange.sessionId)) world.sessions404.set(exchange.sessionId, exchange.index);
  // The session a response gives a request sent without one (an initialize's), as the server level records it.
  const minted = exchange.sessionId === null && response.sessionId !== null ? { session: response.sessionId } : {};
  if (response.streaming) {
    exchange.phase = 'streaming';
    const key = streamKeyOf(world, exchange);
    exchange.stream = key;
    const stream = world.streams.get(key);
    if (stream === undefined) world.streams.set(key, { key, sessionId: exchange.sessionId ?? response.sessionId, eventIdLatest: null, broken: false, answered: false, resumeFailures: 0 });
    else stream.broken = false;
    headers['content-type'] = 'text/event-stream';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        exchange.controller = controller;
      },
      pull() {
        world.quiescence.touch();
      },
      cancel() {
        // The client let go of the body (it closed, or gave up on the stream): for the server, a cut.
        if (exchange.phase === 'done') return;
        endExchange(exchange);
        exchange.queue.length = 0;
        world.server?.cut(exchange.index);
        breakStream(world, exchange);
      },
    });
    world.record({ kind: 'response', connection: exchange.index, client: CLIENT, status: response.status, sse: true, ...minted });
    exchange.respond!(new Response(body, { status: response.status, headers }));
  } else {
    endExchange(exchange);
    if (response.body !== null) headers['content-type'] = 'application/json';
    world.record({ kind: 'response', connection: exchange.index, client: CLIENT, status: response.status, sse: false, ...minted, ...(response.body === null ? {} : { body: JSON.stringify(response.body).slice(0, 80) }) });
    exchange.respond!(new Response(response.body === null ? null : JSON.stringify(response.body), { status: response.status, headers }));
  }
  exchange.respond = null;
  exchange.fail = null;
  monitor(world, 'onResponse', exchange);
}

function deliver(world: ClientWorld, exchange: Exchange): void {
  const frame = exchange.queue.shift();
  if (frame === undefined) {
    endExchange(exchange);
    breakStream(world, exchange);
    world.record({ kind: 'end', connection: exchange.index, client: CLIENT, closing: false });
    exchange.controller!.close();
    return;
  }
  const stream = world.streams.get(exchange.stream!)!;
  if (frame.eventId !== null) {
    stream.eventIdLatest = frame.eventId;
    if (!world.eventStreams.has(frame.eventId)) world.eventStreams.set(frame.eventId, stream.key);
  }
  if (frame.data !== null && isResponse(frame.data)) stream.answered = true;
  world.record({ kind: 'frame', connection: exchange.index, client: CLIENT, ...frameFields(frame) });
  exchange.controller!.enqueue(ENCODER.encode(sseText(frame)));
}

function cut(world: ClientWorld, exchange: Exchange): void {
  if (exchange.phase === 'sent') {
    world.record({ kind: 'requestLost', connection: exchange.index, client: CLIENT });
    failSent(world, exchange, new TypeError('fetch failed'));
    return;
  }
  const lost = exchange.queue.length;
  if (lost > 0) world.record({ kind: 'framesLost', connection: exchange.index, client: CLIENT, frames: lost });
  exchange.queue.length = 0;
  endExchange(exchange);
  world.server!.cut(exchange.index);
  breakStream(world, exchange);
  exchange.controller!.error(new TypeError('terminated: the network cut the connection'));
}

function perform(world: ClientWorld, application: ClientApplication, kind: number, a: number, boot: () => void): void {
  switch (kind) {
    case K.call: {
      const tool = TOOL_NAMES[a]!;
      const call = { index: world.calls.length, callId: `c${world.calls.length + 1}`, tool, outcome: null as null | 'result' | 'error', detail: '' };
      world.calls.push(call);
      world.quiescence.touch();
      application.callTool(tool, call.callId).then(
        () => {
          call.outcome = 'result';
          world.quiescence.touch();
          world.record({ kind: 'settled', client: CLIENT, call: call.callId, outcome: 'result' });
        },
        (error: unknown) => {
          call.outcome = 'error';
          call.detail = error instanceof Error ? error.message : String(error);
          world.quiescence.touch();
          world.record({ kind: 'settled', client: CLIENT, call: call.callId, outcome: 'error', error: call.detail.slice(0, 100) });
        },
      );
      return;
    }
    case K.respond:
      respond(world, world.exchanges[a]!);
      return;
    case K.deliver:
      deliver(world, world.exchanges[a]!);
      return;
    case K.cut:
      cut(world, world.exchanges[a]!);
      return;
    case K.advance:
      world.server!.advance(a) as void;
      return;
    case K.serverClose:
      world.server!.closeConnection(a, POLL_RETRY_MS) as void;
      return;
    case K.restart: {
      world.server!.dispose();
      world.restarts += 1;
      world.epoch += 1;
      world.running.length = 0;
      // The process died: every open response body dies with it, mid-stream.
      for (const exchange of world.exchanges) {
        if (exchange.phase !== 'streaming') continue;
        exchange.queue.length = 0;
        endExchange(exchange);
        breakStream(world, exchange);
        exchange.controller!.error(new TypeError('terminated: the server went away'));
      }
      boot();
      world.record({ kind: 'incarnation', epoch: world.epoch });
      return;
    }
    case K.tick: {
      const timer = world.clock.fireNext();
      if (timer !== null) world.record({ kind: 'clock', elapsedMs: world.clock.nowMs - world.clockStartMs });
      return;
    }
    default:
      throw new Error(`assertion: client level action kind ${kind} unknown`);
  }
}

/** The client level for the clients `createApplication` builds (one application, one client, per run). */
export function clientLevel(createApplication: ClientFactory): Level {
  return {
    name: 'client',
    faultKinds: [K.cut, K.serverClose, K.restart],
    async open(config: SimConfig, options: LevelRunOptions): Promise<LevelRun> {
      const clock = new SimClock();
      const clientRandom = createPrng(`${config.seed}/client`);
      const patched = patchClock(clock, () => clientRandom.float());
      let run: ClientLevelRun | null = null;
      try {
        const quiescence = createQuiescence();
        clock.onChange = () => quiescence.touch();
        const server = await referenceTarget.open({ windowEventsMax: config.windowEventsMax, seed: config.seed });
        const checked = options.properties === null ? null : new Set(options.properties);
        const world = new ClientWorld(config, checked, clock, quiescence, server, createPrng(`${config.seed}/server`), describeClientAction);
        run = new ClientLevelRun(world, options.actions ?? createActionList(), options, () => patched.restore());
        run.boot();
        const application = await createApplication(run.fetch, new URL(CLIENT_LEVEL_URL));
        run.application = application;
        await connect(run, application);
        return run;
      } catch (error) {
        if (run !== null) await run.close();
        else patched.restore();
        throw error;
      }
    },
  };
}

/**
 * The prelude, the same in every run: the application connects, the network answering its POSTs at once. The GET
 * stream a client opens once initialized is left for the run's actions, like every later exchange.
 */
async function connect(run: ClientLevelRun, application: ClientApplication): Promise<void> {
  const world = run.world;
  let failure: unknown = null;
  application.connect().then(
    () => {
      world.connect = 'done';
    },
    (error: unknown) => {
      world.connect = 'failed';
      failure = error;
    },
  );
  await world.quiescence.settle();
  for (let steps = 0; world.connect === 'pending' && steps < CONNECT_STEPS_MAX; steps += 1) {
    const pending = world.exchanges.find((exchange) => exchange.phase === 'sent' && exchange.method === 'POST');
    if (pending === undefined) break;
    respond(world, pending);
    await world.quiescence.settle();
  }
  if (world.connect !== 'done') {
    throw new Error(`assertion: the client did not connect to the reference server in the prelude (${failure instanceof Error ? failure.message : String(failure ?? 'still pending')})`);
  }
  if (world.violation !== null) throw new Error(`assertion: a client property failed during connect: ${world.violation.explanation}`);
}
