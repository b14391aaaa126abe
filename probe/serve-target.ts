// Serves one of resumecheck's in-process targets (the reference, a planted bug, the SDK with a store) over real HTTP
// on 127.0.0.1, with its tools implementing the probe-tool contract (docs/probe-tools.md): the same server can then be
// checked in process and over the wire, and the two verdicts compared. Each run token (header x-resumecheck-run) gets
// a fresh server world, as each in-process run gets a fresh target; only the latest run's world is kept.

import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { createPrng } from '../sim/prng.ts';
import { isModernBody } from '../sim/tools.ts';
import type { ExecutionStart, Frame, HttpRequest, HttpResponse, JsonRpcMessage, ServerInstance, Target, TargetHost, TargetRun, ToolStep } from '../targets/target.ts';
import { controlCall } from './control-client.ts';

/** The largest request body accepted, in bytes. */
const BODY_BYTES_MAX = 1 << 20;
/** Steps one execution may pull before the bridge stops it as runaway. */
const EXECUTION_STEPS_MAX = 10_000;
const RUN_HEADER = 'x-resumecheck-run';
const PROBE_TOOL_LIST = ['read', 'append', 'work', 'notify'].map((name) => ({
  name,
  description: `resumecheck probe tool ${name} (docs/probe-tools.md)`,
  inputSchema: { type: 'object' },
}));

/** How a target is served. */
export interface ServeTargetOptions {
  /** Port on 127.0.0.1. */
  readonly port: number;
  /** Events each stream retains, for targets with a window (as `--window` in process). */
  readonly windowEventsMax: number;
  /** `RESUMECHECK_RUN` and `RESUMECHECK_EPOCH` from the environment: which run's restart started this process. */
  readonly startedFor: { readonly token: string; readonly epoch: number } | null;
}

/** A served target. */
export interface ServedTarget {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts `server` on 127.0.0.1:`port` (0: any free port) and returns it as a served target whose close releases what
 * it serves (`release`) and then stops the server, its open connections included.
 */
export async function listenOnLoopback(server: Server, port: number, release: () => Promise<void>): Promise<ServedTarget> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    async close() {
      await release();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

interface Exchange {
  readonly response: ServerResponse;
  headWritten: boolean;
  ended: boolean;
  /** Frames (SSE text) written before the head was: sent right after it. */
  readonly early: string[];
  endEarly: boolean;
}

/** The SSE text of one frame. */
export function frameText(frame: Frame): string {
  let text = '';
  if (frame.eventId !== null) text += `id: ${frame.eventId}\n`;
  if (frame.event !== null) text += `event: ${frame.event}\n`;
  if (frame.retryMs !== null) text += `retry: ${frame.retryMs}\n`;
  if (frame.data !== null || frame.eventId !== null) text += `data: ${frame.data === null ? '' : JSON.stringify(frame.data)}\n`;
  return `${text}\n`;
}

/** One run's world in the served process: the target's run, its incarnation, and the bridge to the control endpoint. */
class RunWorld implements TargetHost {
  readonly run: TargetRun;
  readonly instance: ServerInstance;
  private readonly exchanges = new Map<number, Exchange>();
  private readonly steps = new Map<number, ToolStep>();
  /** Executions the served target cancelled: no step is pulled for them any more. */
  private readonly cancelledExecutions = new Set<number>();
  /** Each execution's number at the control endpoint, by its local number, once `start` answered. */
  private readonly controlExecutions = new Map<number, number>();
  private readonly random01: () => number;
  private executions = 0;
  private connections = 0;
  /** Every operation on the instance, in the order the requests and socket closes arrived. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The run's control URL, as the latest probe-tool call carried it in its arguments: an execution may also start while
   * another request is handled (a planted bug re-dispatching a replayed request frame on a GET).
   */
  private controlUrl: string | null = null;
  /** Round trips to `start` begun while a request was handled: the head waits for them, so the start is seen first. */
  private starting: Promise<unknown>[] = [];
  /**
   * The progress token each call's request arrived with, by call ID: the served target writes its call ID as the
   * token, and its progress goes out with the token received (a proxy on the way maps only its own tokens back).
   */
  private readonly progressTokens = new Map<string, string | number>();
  private closed = false;

  constructor(run: TargetRun, token: string, epoch: number, private readonly servesModern: boolean) {
    this.run = run;
    const prng = createPrng(`${token}/${epoch}/server`);
    this.random01 = () => prng.float();
    this.instance = run.boot({ epoch }, this);
  }

  private enqueue<T>(operation: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(operation);
    this.queue = next.catch(() => undefined);
    return next;
  }

  frame(connection: number, frame: Frame): void {
    const exchange = this.exchanges.get(connection);
    if (exchange === undefined || exchange.ended) return;
    const text = frameText(this.withReceivedToken(frame));
    if (exchange.headWritten) exchange.response.write(text);
    else exchange.early.push(text);
  }

  end(connection: number): void {
    const exchange = this.exchanges.get(connection);
    if (exchange === undefined || exchange.ended) return;
    if (!exchange.headWritten) {
      exchange.endEarly = true;
      return;
    }
    exchange.ended = true;
    exchange.response.end();
  }

  /** The frame, its progress notification (if it is one) carrying the token its call's request arrived with. */
  private withReceivedToken(frame: Frame): Frame {
    const data = frame.data;
    if (data === null || data['method'] !== 'notifications/progress') return frame;
    const params = data['params'] as Record<string, unknown> | undefined;
    const written = params?.['progressToken'];
    const received = typeof written === 'string' ? this.progressTokens.get(written) : undefined;
    if (received === undefined || received === written) return frame;
    return { ...frame, data: { ...data, params: { ...params, progressToken: received } } };
  }

  startExecution(start: ExecutionStart): number {
    this.executions += 1;
    const local = this.executions;
    const control = this.controlUrl;
    if (control === null) return local;
    const begun = controlCall(control, 'start', start).then((answer) => {
      const execution = typeof answer?.['execution'] === 'number' ? answer['execution'] : null;
      if (execution === null) return;
      this.controlExecutions.set(local, execution);
      if (this.cancelledExecutions.has(local)) void this.reportCancelled(local);
      else void this.pull(control, local, execution);
    });
    this.starting.push(begun);
    return local;
  }

  /** Asks the control endpoint for each next step of an execution and lets the instance take it. */
  private async pull(control: string, local: number, execution: number): Promise<void> {
    for (let count = 0; count < EXECUTION_STEPS_MAX && !this.closed && !this.cancelledExecutions.has(local); count += 1) {
      const answer = await controlCall(control, 'next', { execution });
      if (answer === null || this.closed) return;
      const step = answer as unknown as ToolStep;
      // The tool may have observed its cancellation while the answer was on its way (a disconnect the SDK treats as
      // one): it has stopped and takes no further step, so none is given to it.
      const taken = await this.enqueue(async () => {
        if (this.closed || this.cancelledExecutions.has(local)) return false;
        this.steps.set(local, step);
        await this.instance.advance(local);
        return true;
      });
      if (!taken || step.kind === 'result') return;
    }
  }

  nextStep(local: number): ToolStep {
    const step = this.steps.get(local);
    if (step === undefined) throw new Error(`assertion: execution ${local} asked for a step the control endpoint has not given`);
    this.steps.delete(local);
    return step;
  }

  cancelled(local: number): void {
    // The served target cancelled an execution: it asks for no more steps of it, so none are pulled for it, and the
    // simulator is told (the probe contract's `cancelled`), as a probe tool whose abort signal fired tells it.
    if (this.cancelledExecutions.has(local)) return;
    this.cancelledExecutions.add(local);
    void this.reportCancelled(local);
  }

  /** Tells the control endpoint that execution `local` was cancelled, once its number there is known. */
  private async reportCancelled(local: number): Promise<void> {
    const execution = this.controlExecutions.get(local);
    if (execution === undefined || this.controlUrl === null || this.closed) return;
    await controlCall(this.controlUrl, 'cancelled', { execution });
  }

  random(): number {
    return this.random01();
  }

  /** Handles one HTTP request: through the target, or (the probe contract's `notify`) as a notification. */
  handle(request: IncomingMessage, response: ServerResponse, body: JsonRpcMessage | null): Promise<void> {
    return this.enqueue(async () => {
      const sessionHeader = request.headers['mcp-session-id'];
      const sessionId = typeof sessionHeader === 'string' ? sessionHeader : null;
      const cursorHeader = request.headers['last-event-id'];
      const lastEventId = typeof cursorHeader === 'string' ? cursorHeader : null;
      const params = (body?.['params'] ?? {}) as { name?: unknown; arguments?: { control?: unknown; message?: unknown } };
      if (body !== null && body['method'] === 'tools/list' && (sessionId !== null || (this.servesModern && isModernBody(body)))) {
        // The in-process targets serve only tools/call; the list is the contract's, the same for every one of them,
        // in a session or (a target serving 2026-07-28) to a request of that era, which has none.
        return writeJson(response, 200, { jsonrpc: '2.0', id: body['id'] ?? null, result: { tools: PROBE_TOOL_LIST } });
      }
      if (body !== null && body['method'] === 'tools/call' && params.name === 'notify') {
        if (sessionId === null) return writeJson(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Mcp-Session-Id required' } });
        await this.instance.notify(sessionId, params.arguments?.message as JsonRpcMessage);
        return writeJson(response, 200, { jsonrpc: '2.0', id: body['id'] ?? null, result: { content: [] } });
      }
      this.connections += 1;
      const connection = this.connections;
      const exchange: Exchange = { response, headWritten: false, ended: false, early: [], endEarly: false };
      this.exchanges.set(connection, exchange);
      response.on('close', () => {
        if (exchange.ended) return;
        exchange.ended = true;
        // The client dropped the connection: the target learns it as a cut, in arrival order.
        void this.enqueue(() => this.instance.cut(connection));
      });
      const method = request.method;
      // The header's value as sent, valid or not: the target answers an unsupported one (400).
      const versionHeader = request.headers['mcp-protocol-version'];
      const version = typeof versionHeader === 'string' ? { protocolVersion: versionHeader } : {};
      let httpRequestValue: HttpRequest;
      if (method === 'POST' && body !== null) httpRequestValue = { method, connection, sessionId, lastEventId, body, ...version };
      else if (method === 'GET') httpRequestValue = { method, connection, sessionId, lastEventId, ...version };
      else if (method === 'DELETE') httpRequestValue = { method, connection, sessionId, ...version };
      else {
        exchange.ended = true;
        return writeJson(response, method === 'POST' ? 400 : 405, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'unsupported request' } });
      }
      if (typeof params.arguments?.control === 'string') this.controlUrl = params.arguments.control;
      const callId = (params.arguments as { callId?: unknown } | undefined)?.callId;
      const token = (params as { _meta?: { progressToken?: unknown } })._meta?.progressToken;
      if (typeof callId === 'string' && (typeof token === 'string' || typeof token === 'number')) this.progressTokens.set(callId, token);
      const answer: HttpResponse = await this.instance.handle(httpRequestValue);
      const starting = this.starting;
      this.starting = [];
      await Promise.all(starting);
      if (!answer.streaming) {
        exchange.ended = true;
        const headers: Record<string, string> = answer.sessionId === null ? {} : { 'mcp-session-id': answer.sessionId };
        if (answer.body === null) {
          response.writeHead(answer.status, headers);
          response.end();
          return;
        }
        return writeJson(response, answer.status, answer.body, headers);
      }
      response.writeHead(answer.status, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        ...(answer.sessionId === null ? {} : { 'mcp-session-id': answer.sessionId }),
      });
      exchange.headWritten = true;
      // The head and the frames written with it go out in one write, so a client reads them together: a client that
      // settles on a quiet interval must not see the head now and its priming event only after a scheduling delay.
      if (exchange.early.length > 0) response.write(exchange.early.join(''));
      else response.flushHeaders();
      exchange.early.length = 0;
      if (exchange.endEarly) {
        exchange.ended = true;
        response.end();
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const exchange of this.exchanges.values()) {
      if (!exchange.ended) {
        exchange.ended = true;
        exchange.response.destroy();
      }
    }
    await this.queue;
    await this.run.close();
  }
}

function writeJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > BODY_BYTES_MAX) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.once('error', () => resolve(null));
  });
}

/** Serves `target` on 127.0.0.1:`port` until closed. */
export async function serveTarget(target: Target, options: ServeTargetOptions): Promise<ServedTarget> {
  let current: { token: string; world: RunWorld } | null = null;
  let switching: Promise<void> = Promise.resolve();

  const worldFor = async (token: string): Promise<RunWorld> => {
    if (current !== null && current.token === token) return current.world;
    const previous = current;
    current = null;
    if (previous !== null) await previous.world.close();
    if (current !== null && (current as { token: string }).token === token) return (current as { world: RunWorld }).world;
    const epoch = options.startedFor !== null && options.startedFor.token === token ? options.startedFor.epoch : 1;
    const run = await target.open({ windowEventsMax: options.windowEventsMax, seed: `${token}/${epoch}` });
    const world = new RunWorld(run, token, epoch, target.eras?.includes('modern') === true);
    current = { token, world };
    return world;
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const text = request.method === 'POST' ? await readBody(request) : '';
      let body: JsonRpcMessage | null = null;
      if (request.method === 'POST') {
        try {
          const value: unknown = JSON.parse(text ?? '');
          if (typeof value === 'object' && value !== null && !Array.isArray(value)) body = value as JsonRpcMessage;
        } catch {
          body = null;
        }
        if (body === null) return writeJson(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
      }
      const header = request.headers[RUN_HEADER];
      const token = typeof header === 'string' && /^[\w-]{1,64}$/.test(header) ? header : 'default';
      // Runs switch one at a time: a request of a new run waits until the previous run's world is closed.
      const ready = switching.then(() => worldFor(token));
      switching = ready.then(() => undefined, () => undefined);
      const world = await ready;
      await world.handle(request, response, body);
    })().catch((error: unknown) => {
      // A harness failure inside the served target: say so on stderr and answer 500, never hang the client.
      process.stderr.write(`probe server: ${(error as Error).stack ?? String(error)}\n`);
      if (!response.headersSent) writeJson(response, 500, { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'internal error' } });
      else response.destroy();
    });
  });
  return listenOnLoopback(server, options.port, async () => {
    if (current !== null) await current.world.close();
    current = null;
  });
}
