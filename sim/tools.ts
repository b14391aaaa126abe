// The simulator's tools and the provenance every message they produce carries, so that any target's
// deliveries can be judged from the outside: which epoch, session, call and position a message came from.

import type { JsonRpcMessage, ToolName, ToolStep } from '../targets/target.ts';

/** Where a server-emitted message came from. */
export interface Provenance {
  /** The server incarnation (1, 2, ...) that produced it. */
  readonly epoch: number;
  /** The session ID the server produced it in. */
  readonly sessionId: string;
  /** The call it belongs to; null for a standalone notification. */
  readonly callId: string | null;
  /** Its 1-based position among the messages of its call's execution (or of its session's standalone notifications). */
  readonly k: number;
  /**
   * Which execution of the call produced it: 1 for the first, 2 for a second one (a re-executed request), and so
   * on; 1 for standalone notifications. Positions are comparable only within one execution.
   */
  readonly execution: number;
  /** True for a call's result. */
  readonly result: boolean;
}

const PREFIX = 'rc ';

/**
 * The decoded provenance, kept on the message object itself under a symbol (JSON.stringify skips symbol keys, so
 * it never reaches the wire), so targets that
 * pass messages through unchanged are not made to parse text on every delivery. Targets that serialise messages
 * (the real SDK) lose it, and the text is parsed.
 */
const DECODED = Symbol('resumecheck provenance');

type Carrier = Readonly<Record<string, unknown>> & { [DECODED]?: Provenance };

// Text form: "rc <epoch> <k> <execution> <callId or -> <sessionId>", the session ID last: the only free-form field.
function encode(provenance: Provenance): string {
  return `${PREFIX}${provenance.epoch} ${provenance.k} ${provenance.execution} ${provenance.callId ?? '-'} ${provenance.sessionId}`;
}

function decode(text: unknown, result: boolean): Provenance | null {
  if (typeof text !== 'string' || !text.startsWith(PREFIX)) return null;
  const fields = text.slice(PREFIX.length).split(' ');
  if (fields.length < 5) return null;
  const epoch = Number(fields[0]);
  const k = Number(fields[1]);
  const execution = Number(fields[2]);
  if (!Number.isSafeInteger(epoch) || !Number.isSafeInteger(k) || !Number.isSafeInteger(execution)) return null;
  const callId = fields[3] === '-' ? null : fields[3]!;
  return { epoch, sessionId: fields.slice(4).join(' '), callId, k, execution, result };
}

/** How many progress notifications each tool sends before its result. */
export function progressStepsOf(tool: ToolName, workProgressSteps: number): number {
  return tool === 'work' ? workProgressSteps : 0;
}

/** The k-th step of a call: a progress notification, or the result when k is past the progress steps. */
export function toolStep(provenance: Omit<Provenance, 'result'>, progressSteps: number): ToolStep {
  const { epoch, sessionId, callId, k, execution } = provenance;
  if (k <= progressSteps) {
    const full: Provenance = { epoch, sessionId, callId, k, execution, result: false };
    const message = {
      jsonrpc: '2.0' as const,
      method: 'notifications/progress',
      params: { progressToken: callId, progress: k, total: progressSteps + 1, message: encode(full) },
      [DECODED]: full,
    };
    return { kind: 'notification', message };
  }
  const full: Provenance = { epoch, sessionId, callId, k, execution, result: true };
  return { kind: 'result', result: { content: [{ type: 'text', text: encode(full) }], [DECODED]: full } };
}

/** A server-initiated notification for a session's standalone stream. */
export function standaloneNotification(provenance: Omit<Provenance, 'result' | 'callId' | 'execution'>): JsonRpcMessage {
  const full: Provenance = { epoch: provenance.epoch, sessionId: provenance.sessionId, callId: null, k: provenance.k, execution: 1, result: false };
  return { jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: encode(full) }, [DECODED]: full };
}

/**
 * A copy of a result message whose provenance was read by a target from what the server echoed (a black-box server's
 * echo tool, targets/wire/echo-marker.ts): the message as the server sent it, the provenance kept beside it, as a
 * simulated tool's result keeps its own.
 */
export function withProvenance(message: JsonRpcMessage, provenance: Provenance): JsonRpcMessage {
  // An error answer has no result to carry it (over the wire, an answer known by its marked request ID): the message does.
  if (message['result'] === undefined) return { ...message, [DECODED]: provenance } as JsonRpcMessage;
  const result = message['result'] as Record<string, unknown>;
  return { ...message, result: { ...result, [DECODED]: provenance } };
}

/** Reads the provenance of a server-to-client message; null when it carries none (priming, errors, resets). */
export function provenanceOf(message: JsonRpcMessage | null): Provenance | null {
  if (message === null) return null;
  const carried = (message as Carrier)[DECODED];
  if (carried !== undefined) return carried;
  const params = message['params'] as Record<string, unknown> | undefined;
  if (message['method'] === 'notifications/progress') return decode(params?.['message'], false);
  if (message['method'] === 'notifications/message') return decode(params?.['data'], false);
  const result = message['result'] as ({ content?: Array<{ text?: unknown }> } & Carrier) | undefined;
  if (result === undefined || result === null) return null;
  if (result[DECODED] !== undefined) return result[DECODED];
  if (Array.isArray(result.content)) return decode(result.content[0]?.text, true);
  return null;
}

/** The JSON-RPC request of a tool call as the simulator's client sends it. */
export function callRequest(requestId: number, tool: ToolName, callId: string): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id: requestId,
    method: 'tools/call',
    params: { name: tool, arguments: { callId }, _meta: { progressToken: callId } },
  };
}

/** The protocol version the simulator's client speaks (with priming events and polling). */
export const PROTOCOL_VERSION = '2025-11-25';

/** The keys of the per-request envelope a 2026-07-28 request carries in `params._meta` (no initialize, no session). */
export const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';
export const CLIENT_CAPABILITIES_META_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * A tool call as a 2026-07-28 client sends it: the call of {@link callRequest} with the per-request envelope (the
 * revision and the client's capabilities) in `params._meta`; the request carries `MCP-Protocol-Version: 2026-07-28`
 * (HttpRequest.protocolVersion) and no `Mcp-Session-Id`.
 */
export function modernCallRequest(requestId: number, tool: ToolName, callId: string): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id: requestId,
    method: 'tools/call',
    params: {
      name: tool,
      arguments: { callId },
      _meta: { progressToken: callId, [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_CAPABILITIES_META_KEY]: {} },
    },
  };
}

/**
 * True when a request body is of the 2026-07-28 era: it carries the per-request `_meta` envelope, as a dual-era
 * server tells the eras apart (an initialize, without one, is the legacy era's).
 */
export function isModernBody(body: JsonRpcMessage | null): boolean {
  const params = body?.['params'] as { _meta?: Record<string, unknown> } | undefined;
  return params?._meta?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/** The initialize request of the simulator's client. */
export function initializeRequest(requestId: number, protocolVersion: string = PROTOCOL_VERSION): JsonRpcMessage {
  return {
    jsonrpc: '2.0',
    id: requestId,
    method: 'initialize',
    params: { protocolVersion, capabilities: {}, clientInfo: { name: 'resumecheck', version: '0.1.0' } },
  };
}

/** The protocol version an initialize result gives (`result.protocolVersion`), or null when `message` is none with one. */
export function negotiatedVersion(message: JsonRpcMessage | null): string | null {
  const result = message?.['result'] as { protocolVersion?: unknown } | undefined;
  return typeof result?.protocolVersion === 'string' ? result.protocolVersion : null;
}

/** True for a JSON-RPC response: an ID and a result or an error, no method (a request has one). */
export function isResponse(message: JsonRpcMessage): boolean {
  return !('method' in message) && 'id' in message && ('result' in message || 'error' in message);
}

/** The notification a client sends once initialized. */
export const INITIALIZED_NOTIFICATION: JsonRpcMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** The reset frame's message: an explicit signal that the client lost events it cannot get back. */
export function resetMessage(detail: Readonly<Record<string, unknown>>): JsonRpcMessage {
  return { jsonrpc: '2.0', method: 'notifications/resumecheck/reset', params: detail };
}
