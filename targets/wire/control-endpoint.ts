// The simulator's control endpoint: a small HTTP server on 127.0.0.1 that a server's probe tools call back, so their
// executions stay under the simulator's control over the wire exactly as in process (docs/probe-tools.md). A probe
// tool asks `start` for its execution number, then `next` for each step; `next` blocks until the simulator chooses
// to advance that execution, then answers the notification to send or the result to return. A tool the server cancelled
// says so with `cancelled`: it takes no step after, and the simulator stops offering steps of it. A tool that said at
// start that its result will be acknowledged (`acknowledges`: its app's transport tells, probe/probe-tools.ts'
// acknowledgeResults) calls `handled` once the server has been through sending that result (stored, written or refused).
// In a deployment of several nodes (`fuzz --serve-node`) each node's tools call back a URL of their own
// (`/run/TOKEN/node/K/...`), so each execution is started through the node that runs it and dies with that node.

import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonRpcMessage, TargetHost, ToolName } from '../target.ts';
import { TOOL_NAMES } from '../target.ts';

/** The largest control request body accepted, in bytes. */
const CONTROL_BODY_BYTES_MAX = 64 * 1024;
/** Steps one execution may take through the endpoint before it is refused as runaway. */
const EXECUTION_STEPS_MAX = 10_000;

interface ExecutionGate {
  /** The call it executes, as its tool said at start. */
  callId: string;
  /** The node whose tool runs it (0 on one node). */
  readonly node: number;
  credits: number;
  /** A notification step was answered and the tool has not come back for the next one yet. */
  unacknowledged: boolean;
  /** Its tool said at start that the server acknowledges its result (`handled`) once it has been through sending it. */
  readonly acknowledges: boolean;
  /** Its result was handed to an acknowledging tool, and `handled` has not come yet. */
  unhandled: boolean;
  waiter: ServerResponse | null;
  finished: boolean;
  steps: number;
}

interface Binding {
  readonly token: string;
  /** The simulator's host as each node up sees it (node 0 alone on one node). */
  readonly hosts: Map<number, TargetHost>;
  readonly gates: Map<number, ExecutionGate>;
}

/** The control endpoint of one wire target; runs bind to it one at a time. */
export interface ControlEndpoint {
  /**
   * The base URL probe tools get for the run bound now (`http://127.0.0.1:PORT/run/TOKEN`), or for node `node` of a
   * deployment of several (`.../run/TOKEN/node/K`).
   */
  urlFor(token: string, node?: number): string;
  /** Binds a run: callbacks with its token reach `host`; any other token is answered 410 Gone. */
  bind(token: string, host: TargetHost): void;
  /** In a deployment: node `node` (re)booted, and the executions its tools start reach `host`. */
  bindNode(node: number, host: TargetHost): void;
  /** Unbinds the run: its waiting probe tools are answered 410 and stop. */
  unbind(): void;
  /**
   * Forgets released steps and unacknowledged notifications: their tools died with the server (a restart), or with
   * node `node` alone (a node's crash or restart), whose executions then take no step again.
   */
  dropPending(node?: number): void;
  /** Forgets the results not acknowledged yet (a settle waited its bound out for them): none is waited for again. */
  forgetUnhandled(): void;
  /** Lets an execution take its next step (now, if its tool is waiting; else when it next asks). */
  release(execution: number): void;
  /** Steps released and not yet taken by their tools: the simulator waits for these before it looks. */
  readonly unconsumed: number;
  /**
   * Notifications handed to tools that have not asked for their next step yet. A tool asks right after it sent one, so
   * its next `next` is the acknowledgement that the notification is written: the simulator waits for these too.
   */
  readonly unacknowledged: number;
  /**
   * Results handed to tools whose server acknowledges them (`handled`) and has not yet: the server has not been through
   * sending them (storing them in its event store, above all, where a later resume reads them). Waited for as well.
   */
  readonly unhandled: number;
  /** Called on every control request and answer, so the target's settle sees the server is busy. */
  onActivity: () => void;
  /** Called when execution `execution` of call `callId` on `node` is handed its result, so the target can expect the result's frame. */
  onResult: (callId: string, node: number, execution: number) => void;
  /** Called when execution `execution` of call `callId` on `node` is handed a notification to send, so the target can expect its frame. */
  onNotification: (callId: string, message: JsonRpcMessage, node: number, execution: number) => void;
  /** Called once a started execution of call `callId` on `node` has its number (after executionStarted). */
  executionNumbered: (callId: string, execution: number, node: number) => void;
  /**
   * A probe tool started an execution of call `callId` (asked once, at its start): the session it is attributed to,
   * given the one its tool `reported`. The wire target stops waiting for the start, and answers from the call as it
   * sent it (the session it sent the call in), not from what the server says, since behind a proxy the server's
   * session is the proxy's own, not the client's. By default, the reported one.
   */
  executionStarted: (callId: string, reported: string, node: number) => string;
  /**
   * The first error the simulator's side threw while answering a tool (a harness assertion), or null. The tool was
   * answered 500; the run must stop with this error, not wait for a step that will never come.
   */
  readonly failure: Error | null;
  close(): Promise<void>;
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  if (response.writableEnded || response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function readJson(request: IncomingMessage): Promise<Record<string, unknown> | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > CONTROL_BODY_BYTES_MAX) {
        request.destroy();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', () => resolve(null));
    request.on('end', () => {
      try {
        const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve(typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
      } catch {
        resolve(null);
      }
    });
  });
}

/** Starts a control endpoint on 127.0.0.1 on a free port. */
export async function startControlEndpoint(): Promise<ControlEndpoint> {
  let binding: Binding | null = null;
  let unconsumed = 0;
  let unacknowledged = 0;
  let unhandled = 0;
  let failure: Error | null = null;
  const server: Server = createServer();
  const endpoint: ControlEndpoint = {
    urlFor(token, node) {
      const { port } = server.address() as AddressInfo;
      return `http://127.0.0.1:${port}/run/${token}${node === undefined ? '' : `/node/${node}`}`;
    },
    bind(token, host) {
      endpoint.unbind();
      failure = null;
      binding = { token, hosts: new Map([[0, host]]), gates: new Map() };
    },
    bindNode(node, host) {
      binding?.hosts.set(node, host);
    },
    unbind() {
      const old = binding;
      binding = null;
      unconsumed = 0;
      unacknowledged = 0;
      unhandled = 0;
      if (old === null) return;
      for (const gate of old.gates.values()) if (gate.waiter !== null) answer(gate.waiter, 410, { error: 'the run is over' });
    },
    dropPending(node) {
      // Unbound, both counts are 0 already (unbind zeroes them).
      for (const gate of binding?.gates.values() ?? []) {
        if (node !== undefined && gate.node !== node) continue;
        unconsumed -= gate.credits;
        if (gate.unacknowledged) unacknowledged -= 1;
        if (gate.unhandled) unhandled -= 1;
        gate.credits = 0;
        gate.unacknowledged = false;
        gate.unhandled = false;
        // A node that went down took its tools with it: nothing of theirs is waited for, or answered, again.
        if (node !== undefined) gate.finished = true;
      }
      if (node === undefined) {
        unconsumed = 0;
        unacknowledged = 0;
        unhandled = 0;
      }
    },
    forgetUnhandled() {
      for (const gate of binding?.gates.values() ?? []) gate.unhandled = false;
      unhandled = 0;
    },
    release(execution) {
      if (binding === null) return;
      const gate = gateOf(binding, execution);
      // A step of an execution that returned its result or was cancelled is never taken: nothing to wait for.
      if (gate.finished) return;
      if (gate.waiter !== null) {
        const waiter = gate.waiter;
        gate.waiter = null;
        step(binding, execution, gate, waiter);
        return;
      }
      gate.credits += 1;
      unconsumed += 1;
    },
    get unconsumed() {
      return unconsumed;
    },
    get unacknowledged() {
      return unacknowledged;
    },
    get unhandled() {
      return unhandled;
    },
    onActivity: () => {},
    onResult: () => {},
    onNotification: () => {},
    executionStarted: (_callId, reported) => reported,
    executionNumbered: () => {},
    get failure() {
      return failure;
    },
    close() {
      endpoint.unbind();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };

  function gateOf(bound: Binding, execution: number, callId = '', node = 0, acknowledges = false): ExecutionGate {
    let gate = bound.gates.get(execution);
    if (gate === undefined) {
      gate = { callId, node, credits: 0, unacknowledged: false, acknowledges, unhandled: false, waiter: null, finished: false, steps: 0 };
      bound.gates.set(execution, gate);
    }
    return gate;
  }

  function step(bound: Binding, execution: number, gate: ExecutionGate, response: ServerResponse): void {
    gate.steps += 1;
    let next: ReturnType<TargetHost['nextStep']>;
    try {
      next = hostOf(bound, gate.node).nextStep(execution);
    } catch (error) {
      // The tool waiting for this step is answered whatever happens, and the error goes on to whoever asked.
      failure ??= error instanceof Error ? error : new Error(String(error));
      answer(response, 500, { error: `resumecheck failed answering this call: ${failure.message}` });
      throw error;
    }
    if (next.kind === 'result') {
      gate.finished = true;
      if (gate.acknowledges) {
        gate.unhandled = true;
        unhandled += 1;
      }
      endpoint.onResult(gate.callId, gate.node, execution);
    } else {
      gate.unacknowledged = true;
      unacknowledged += 1;
      endpoint.onNotification(gate.callId, next.message, gate.node, execution);
    }
    endpoint.onActivity();
    answer(response, 200, next);
  }

  /**
   * The server cancelled an execution (its tool saw its request's abort signal): nothing more is asked or given for it.
   * Steps released for it and not taken are taken back, a wait of its tool is ended, and the simulator is told.
   */
  function cancel(bound: Binding, execution: number, gate: ExecutionGate, response: ServerResponse): void {
    if (!gate.finished) {
      gate.finished = true;
      unconsumed -= gate.credits;
      gate.credits = 0;
      if (gate.unacknowledged) {
        gate.unacknowledged = false;
        unacknowledged -= 1;
      }
      if (gate.waiter !== null) answer(gate.waiter, 410, { error: `execution ${execution} was cancelled` });
      gate.waiter = null;
      hostOf(bound, gate.node).cancelled(execution);
    }
    endpoint.onActivity();
    answer(response, 200, {});
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    endpoint.onActivity();
    // Every call is answered, an error on the simulator's side included: a tool left waiting would stall the run and
    // be reported as the server's fault (a result never delivered). The error is kept for the run to rethrow.
    answerControl(request, response).catch((error: unknown) => {
      failure ??= error instanceof Error ? error : new Error(String(error));
      answer(response, 500, { error: `resumecheck failed answering this call: ${failure.message}` });
      endpoint.onActivity();
    });
  });

  async function answerControl(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const match = /^\/run\/([\w-]{1,64})(?:\/node\/(\d{1,2}))?\/(start|next|cancelled|handled)$/.exec(request.url ?? '');
    if (request.method !== 'POST' || match === null) return answer(response, 404, { error: 'POST /run/TOKEN/start, /run/TOKEN/next, /run/TOKEN/cancelled or /run/TOKEN/handled' });
    const body = await readJson(request);
    endpoint.onActivity();
    const bound = binding;
    if (bound === null || bound.token !== match[1]) return answer(response, 410, { error: 'not the run in progress' });
    if (body === null) return answer(response, 400, { error: 'the body must be a JSON object' });
    const verb = match[3]!;
    if (verb === 'start') {
      const node = Number(match[2] ?? 0);
      const host = bound.hosts.get(node);
      if (host === undefined) return answer(response, 410, { error: `node ${node} is not up in the run in progress` });
      const { callId, tool, sessionId, acknowledges } = body;
      if (typeof callId !== 'string' || typeof sessionId !== 'string' || !(TOOL_NAMES as readonly unknown[]).includes(tool) || (acknowledges !== undefined && typeof acknowledges !== 'boolean')) {
        return answer(response, 400, { error: 'start takes { callId: string, tool: "read" | "append" | "work", sessionId: string, acknowledges?: boolean }' });
      }
      // Attributed to the session the call was sent in (the IDs resumecheck put in the call), when it sent it.
      const execution = host.startExecution({ callId, tool: tool as ToolName, sessionId: endpoint.executionStarted(callId, sessionId, node) });
      gateOf(bound, execution, callId, node, acknowledges === true);
      endpoint.executionNumbered(callId, execution, node);
      return answer(response, 200, { execution });
    }
    const execution = body['execution'];
    const gate = typeof execution === 'number' ? bound.gates.get(execution) : undefined;
    if (gate === undefined || typeof execution !== 'number') return answer(response, 400, { error: `${verb} takes { execution } as start answered it` });
    if (verb === 'cancelled') return cancel(bound, execution, gate, response);
    if (verb === 'handled') {
      if (gate.unhandled) {
        gate.unhandled = false;
        unhandled -= 1;
      }
      return answer(response, 200, {});
    }
    if (gate.finished) return answer(response, 400, { error: `execution ${execution} already returned its result` });
    if (gate.unacknowledged) {
      gate.unacknowledged = false;
      unacknowledged -= 1;
    }
    if (gate.waiter !== null) return answer(response, 409, { error: `execution ${execution} is already waiting for its next step` });
    if (gate.steps >= EXECUTION_STEPS_MAX) return answer(response, 400, { error: `execution ${execution} took more than ${EXECUTION_STEPS_MAX} steps` });
    if (gate.credits > 0) {
      gate.credits -= 1;
      unconsumed -= 1;
      return step(bound, execution, gate, response);
    }
    gate.waiter = response;
    // A tool whose process died (a restart) never takes its step: forget its wait.
    response.on('close', () => {
      if (gate.waiter === response) gate.waiter = null;
    });
  }
  function hostOf(bound: Binding, node: number): TargetHost {
    const host = bound.hosts.get(node);
    if (host === undefined) throw new Error(`assertion: node ${node} has no host in the run`);
    return host;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return endpoint;
}
