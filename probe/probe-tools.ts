// The probe tools, ready to register on an McpServer of the MCP TypeScript SDK, 1.x (`@modelcontextprotocol/sdk`) or
// 2.x (`@modelcontextprotocol/server`), in one line: `registerProbeTools(server)`. They implement the contract in
// docs/probe-tools.md: `read`, `append` and `work` run under the control of resumecheck's control endpoint, whose URL
// each call carries in its `control` argument; `notify` sends a message on the session's standalone stream.

import { z } from 'zod';
import { controlCall } from './control-client.ts';

/** The probe tools' names: the simulator's three, and `notify`. */
export const PROBE_TOOLS = ['read', 'append', 'work', 'notify'] as const;

/** A tool result as both SDK lines accept it. */
interface ToolResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** A notification as both SDK lines send it. */
export interface ProbeNotification {
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

/**
 * What a tool handler gets as its second argument: 1.x's `extra` (`sessionId`, `sendNotification`) or 2.x's context
 * (`sessionId`, `mcpReq.notify`). Only these members are used.
 */
export interface ProbeToolContext {
  readonly sessionId?: string | undefined;
  readonly sendNotification?: (notification: never) => Promise<void>;
  /** 1.x: the request's `_meta`, with the progress token the client (or a proxy on its way) sent. */
  readonly _meta?: { readonly progressToken?: unknown } | undefined;
  readonly mcpReq?: { readonly id?: string | number; readonly notify?: (notification: never) => Promise<void>; readonly _meta?: { readonly progressToken?: unknown } | undefined; readonly signal?: AbortSignal };
  /** 1.x: the request's abort signal (2.x: `mcpReq.signal`), fired when the server cancels the request. */
  readonly signal?: AbortSignal;
  /** 1.x: the JSON-RPC ID of the request the tool runs for (2.x: `mcpReq.id`). */
  readonly requestId?: string | number;
}

/**
 * Sessions whose transport says when a response has been handed to it ({@link acknowledgeResults}), and, by session and
 * request ID, what to do once the response to a probe call is: tell the control endpoint that its result is handled.
 * A request re-sent while in flight (a proxy's retry) runs twice under one ID: its results are acknowledged in order.
 */
const acknowledging = new Set<string>();
const resultHandled = new Map<string, (() => void)[]>();

function requestKey(sessionId: string, requestId: string | number): string {
  return `${sessionId}\n${typeof requestId}:${requestId}`;
}

/** The part of a transport (1.x or 2.x) {@link acknowledgeResults} wraps. */
export interface AcknowledgedTransport {
  send(message: never, options?: never): Promise<void>;
}

/**
 * Makes the probe tools of session `sessionId` tell the control endpoint when their result has been through the
 * transport's `send` (stored in its event store, written to the call's stream if it has one, or refused): an app whose
 * store does I/O calls this on each session's transport, so that resumecheck waits for the result to be stored before
 * it takes its next step, not for a quiet interval that a loaded machine outlasts. Without it the tools work as before.
 */
export function acknowledgeResults(transport: AcknowledgedTransport, sessionId: string): void {
  acknowledging.add(sessionId);
  const send = transport.send.bind(transport) as (message: unknown, options?: unknown) => Promise<void>;
  transport.send = (async (message: unknown, options?: unknown) => {
    try {
      await send(message, options);
    } finally {
      const id = typeof message === 'object' && message !== null && ('result' in message || 'error' in message) ? (message as { id?: unknown }).id : undefined;
      const key = typeof id === 'string' || typeof id === 'number' ? requestKey(sessionId, id) : null;
      const waiting = key === null ? undefined : resultHandled.get(key);
      const handled = waiting?.shift();
      if (waiting?.length === 0) resultHandled.delete(key!);
      handled?.();
    }
  }) as AcknowledgedTransport['send'];
}

/**
 * Forgets session `sessionId`, whose transport closed: a result of it not sent yet never will be (the SDK drops the
 * response of a request its closing aborted), so it is acknowledged now, and nothing of the session again.
 */
export function forgetAcknowledgedSession(sessionId: string): void {
  acknowledging.delete(sessionId);
  for (const [key, waiting] of resultHandled) {
    if (!key.startsWith(`${sessionId}\n`)) continue;
    resultHandled.delete(key);
    for (const handled of waiting) handled();
  }
}

/** The progress token of the request the tool runs for, as it arrived, or undefined when it carried none. */
function progressTokenOf(context: ProbeToolContext): string | number | undefined {
  const token = context._meta?.progressToken ?? context.mcpReq?._meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/**
 * The notification to send: a progress notification carries the token its request arrived with (a proxy on the way
 * may have put its own in place of the client's, and maps only its own back); anything else as the simulator gave it.
 */
export function withReceivedProgressToken(message: ProbeNotification, token: string | number | undefined): ProbeNotification {
  if (message.method !== 'notifications/progress' || token === undefined) return message;
  return { ...message, params: { ...message.params, progressToken: token } };
}

/** The part of a 1.x or 2.x McpServer the helper uses. */
export interface ProbeToolServer {
  registerTool(name: string, config: { description?: string; inputSchema?: never }, handler: never): unknown;
  readonly server: { notification(notification: never): Promise<void> };
}

type Handler = (args: Record<string, unknown>, context: ProbeToolContext) => Promise<ToolResult>;

/** Steps one probe execution may take; the control endpoint bounds it too. */
const EXECUTION_STEPS_MAX = 10_000;

function refused(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Runs one call of `read`, `append` or `work` under the control endpoint at `control`. */
async function runUnderControl(tool: string, callId: string, control: string, context: ProbeToolContext): Promise<ToolResult> {
  const sessionId = context.sessionId ?? '';
  const send = (context.sendNotification ?? context.mcpReq?.notify) as ((notification: ProbeNotification) => Promise<void>) | undefined;
  const requestId = context.requestId ?? context.mcpReq?.id;
  // Whether this call's result will be acknowledged once its transport has it (acknowledgeResults), said at start.
  const acknowledges = requestId !== undefined && acknowledging.has(sessionId);
  const start = await controlCall(control, 'start', { callId, tool, sessionId, ...(acknowledges ? { acknowledges: true } : {}) });
  const execution = start?.['execution'];
  if (typeof execution !== 'number') return refused('resumecheck: the control endpoint did not start this execution');
  const onResult = (): void => {
    if (!acknowledges) return;
    const key = requestKey(sessionId, requestId);
    resultHandled.set(key, [...(resultHandled.get(key) ?? []), () => void controlCall(control, 'handled', { execution })]);
  };
  // The server cancels the request (2026-07-28: a client disconnect): the tool says so, and takes no step after.
  const signal = context.signal ?? context.mcpReq?.signal;
  let cancelled: Promise<unknown> | null = null;
  const onAbort = (): void => {
    cancelled ??= controlCall(control, 'cancelled', { execution });
  };
  if (signal?.aborted === true) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await stepUnderControl(execution, control, context, send, () => cancelled, onResult);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** Takes the execution's steps as the control endpoint gives them, until its result or its cancellation. */
async function stepUnderControl(
  execution: number,
  control: string,
  context: ProbeToolContext,
  send: ((notification: ProbeNotification) => Promise<void>) | undefined,
  cancelled: () => Promise<unknown> | null,
  onResult: () => void,
): Promise<ToolResult> {
  for (let steps = 0; steps < EXECUTION_STEPS_MAX; steps += 1) {
    const next = cancelled() === null ? await controlCall(control, 'next', { execution }) : null;
    const stopped = cancelled();
    if (stopped !== null) {
      await stopped;
      return refused('resumecheck: the server cancelled this call');
    }
    if (next === null) return refused('resumecheck: the control endpoint ended this execution (the run is over)');
    if (next['kind'] === 'result') {
      // Before the SDK sends it: its transport's send then acknowledges it (acknowledgeResults).
      onResult();
      return next['result'] as ToolResult;
    }
    try {
      // Related to this call's request: the SDK sends it on the call's stream, or stores it while disconnected.
      await send?.(withReceivedProgressToken(next['message'] as ProbeNotification, progressTokenOf(context)));
    } catch {
      // A transport that refuses (it lost the request's stream) is the server's behaviour under test: the tool goes
      // on to its result, and the client observes what is missing.
    }
  }
  return refused(`resumecheck: more than ${EXECUTION_STEPS_MAX} steps`);
}

/**
 * Registers the probe tools on a 1.x or 2.x `McpServer`. Register them in test mode only: a caller who knows the
 * control URL can make the server wait on it. Call once per McpServer (per session, when the app makes one per session).
 */
export function registerProbeTools(server: ProbeToolServer): void {
  const register = server.registerTool.bind(server) as (name: string, config: { description: string; inputSchema: unknown }, handler: Handler) => unknown;
  const controlled = z.object({ callId: z.string(), control: z.string() });
  for (const tool of ['read', 'append', 'work'] as const) {
    register(tool, { description: `resumecheck probe tool ${tool} (test mode)`, inputSchema: controlled }, async (args, context) =>
      runUnderControl(tool, String(args['callId']), String(args['control']), context),
    );
  }
  register(
    'notify',
    { description: 'resumecheck probe tool notify: sends a message on the standalone stream (test mode)', inputSchema: z.object({ message: z.record(z.string(), z.unknown()) }) },
    async (args) => {
      // No related request: the transport sends it on the session's standalone (GET) stream, or stores it.
      await (server.server.notification as (notification: ProbeNotification) => Promise<void>)(args['message'] as unknown as ProbeNotification);
      return { content: [] };
    },
  );
}
