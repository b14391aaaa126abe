// Black-box reach for a server without the probe tools: its own tool that echoes its input. Each simulated tool call is
// sent as a call of that tool whose one argument is a marker naming the run, the server incarnation, the call and the
// session the call was sent in; whatever the server sends back that carries the marker is that call's result, wherever
// it arrives. So a result that reaches another session or stream is seen by its payload, as the probe tools' are.
//
// The marker uses only characters JSON and SSE leave as they are (base64url fields between dots), so it is found in a
// result however the tool wraps it ("Echo: …", a JSON object of the arguments, structured content).

import type { JsonRpcMessage } from '../target.ts';
import type { Provenance } from '../../sim/tools.ts';

/** A server's tool that echoes a string argument, and that argument's name. */
export interface EchoTool {
  readonly name: string;
  readonly argument: string;
}

/** What a marker names: the call and the session it was sent in, in which run and incarnation. */
export interface MarkerFields {
  readonly run: string;
  readonly epoch: number;
  readonly callId: string;
  /** The Mcp-Session-Id the call was sent with; '' for none (a 2026-07-28 call). */
  readonly sessionId: string;
}

const MARKER = /rcm\.([A-Za-z0-9_-]+)\.(\d+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)\./;

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
const unb64 = (text: string): string => Buffer.from(text, 'base64url').toString('utf8');

/** The marker text for a call. */
export function echoMarker(fields: MarkerFields): string {
  return `rcm.${b64(fields.run)}.${fields.epoch}.${b64(fields.callId)}.${b64(fields.sessionId)}.`;
}

/** The fields of the first marker in `text`, or null. */
export function readMarker(text: string): MarkerFields | null {
  const match = MARKER.exec(text);
  if (match === null) return null;
  const epoch = Number(match[2]);
  if (!Number.isSafeInteger(epoch)) return null;
  return { run: unb64(match[1]!), epoch, callId: unb64(match[3]!), sessionId: unb64(match[4]!) };
}

/**
 * The provenance of a result the server sent that carries a marker, read in run `run`: the call's result (its first
 * execution's only message; an echo has no progress). A marker of another run names a call of that run, never one of
 * this run's calls, though their IDs are alike.
 */
export function markedProvenance(message: JsonRpcMessage | null, run: string): Provenance | null {
  if (message === null || message['result'] === undefined || message['result'] === null) return null;
  const fields = readMarker(JSON.stringify(message['result']));
  if (fields === null) return null;
  const callId = fields.run === run ? fields.callId : `${fields.run}/${fields.callId}`;
  return { epoch: fields.epoch, sessionId: fields.sessionId, callId, k: 1, execution: 1, result: true };
}

/**
 * A call's JSON-RPC ID on a server with neither the probe tools nor an echo (whose answers carry nothing of the call
 * but their ID): the simulator's numeric ID with the run, incarnation and session it was sent in. Two calls under one
 * ID in one session (a client's reuse) have one marked ID, as they had one number.
 */
export interface RequestIdFields {
  readonly run: string;
  readonly epoch: number;
  readonly sessionId: string;
  readonly id: number;
}

const REQUEST_ID_MARKER = /^rci\.([A-Za-z0-9_-]+)\.(\d+)\.([A-Za-z0-9_-]+)\.(\d+)$/;

/** The marked request ID of a call. */
export function requestIdMarker(fields: RequestIdFields): string {
  return `rci.${b64(fields.run)}.${fields.epoch}.${b64(fields.sessionId)}.${fields.id}`;
}

/** The fields a marked request ID names, or null for any other ID. */
export function readRequestIdMarker(id: unknown): RequestIdFields | null {
  if (typeof id !== 'string') return null;
  const match = REQUEST_ID_MARKER.exec(id);
  if (match === null) return null;
  const epoch = Number(match[2]);
  const number = Number(match[4]);
  if (!Number.isSafeInteger(epoch) || !Number.isSafeInteger(number)) return null;
  return { run: unb64(match[1]!), epoch, sessionId: unb64(match[3]!), id: number };
}

/** A tools/call request rewritten as a call of the echo tool with the marker as its argument (ID and _meta kept). */
export function echoCall(body: JsonRpcMessage, echo: EchoTool, marker: string): JsonRpcMessage {
  const params = body['params'] as { _meta?: unknown };
  return { ...body, params: { name: echo.name, arguments: { [echo.argument]: marker }, ...(params._meta === undefined ? {} : { _meta: params._meta }) } };
}

interface ListedTool {
  readonly name?: unknown;
  readonly inputSchema?: { readonly properties?: Record<string, { readonly type?: unknown }>; readonly required?: unknown };
}

/** The string argument a tool can be called with alone: its one required argument, or its one argument; else null. */
function loneStringArgument(tool: ListedTool): string | null {
  const properties = tool.inputSchema?.properties ?? {};
  const required = Array.isArray(tool.inputSchema?.required) ? (tool.inputSchema.required as unknown[]).filter((name): name is string => typeof name === 'string') : [];
  const names = required.length > 0 ? required : Object.keys(properties);
  if (names.length !== 1) return null;
  const only = names[0]!;
  return properties[only]?.type === 'string' ? only : null;
}

/**
 * The tools worth trying as an echo, in order, from a tools/list result: the one named `named` (a user's choice), or
 * else every tool whose name says it echoes; each with the lone string argument it takes. Nothing else is called.
 */
export function echoCandidates(listed: unknown, named: string | null): EchoTool[] {
  const tools = (listed as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return [];
  const candidates: EchoTool[] = [];
  for (const tool of tools as ListedTool[]) {
    if (typeof tool?.name !== 'string') continue;
    if (named === null ? !/echo/i.test(tool.name) : tool.name !== named) continue;
    const argument = loneStringArgument(tool);
    if (argument !== null) candidates.push({ name: tool.name, argument });
  }
  return candidates;
}
