// The protocol-revision headers a simulated request carries on the wire, for every harness that turns an HttpRequest
// into a real HTTP request (the in-process SDK harness and the wire target), so that both send the same bytes.

import { type Revision, sendsVersionHeader } from '../../sim/config.ts';
import { PROTOCOL_VERSION } from '../../sim/tools.ts';
import type { HttpRequest, JsonRpcMessage } from '../target.ts';

/** The revision whose requests mirror their method and name into headers (SEP-2243). */
const MODERN_REVISION = '2026-07-28';
/** The params field each method's `Mcp-Name` header mirrors (the 2.x SDK's `MCP_NAME_HEADER_SOURCE`). */
const NAME_SOURCE: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
/** A header value that needs no encoding: visible ASCII, no surrounding space. */
const PLAIN_HEADER_VALUE = /^[\x21-\x7e]+$/;

/** What the headers depend on: the method, a POST's body, and the revision the request names. */
export type RevisionedRequest =
  | (Pick<Extract<HttpRequest, { method: 'POST' }>, 'method' | 'protocolVersion'> & { readonly body: JsonRpcMessage })
  | Pick<Extract<HttpRequest, { method: 'GET' | 'DELETE' }>, 'method' | 'protocolVersion'>;

/**
 * The revision headers of `request`, lower-case names. `MCP-Protocol-Version` is the request's revision
 * (`request.protocolVersion`; absent: 2025-11-25, what the simulator's clients speak), except that a 2025-03-26
 * request has none (2025-06-18 basic/transports introduced "the client MUST include the `MCP-Protocol-Version`
 * header on all subsequent requests") and an `initialize` has none (not a subsequent request: its body negotiates).
 * A 2026-07-28 JSON-RPC request also mirrors its method into `Mcp-Method` and, for a tool call, the tool's name into
 * `Mcp-Name`, as the 2.x client does (`_applyBodyDerivedHeaders`) and the 2.x server requires
 * (`validateStandardRequestHeaders`); the harness's tool names need no encoding.
 */
export function revisionHeadersOf(request: RevisionedRequest): Record<string, string> {
  const revision = request.protocolVersion ?? PROTOCOL_VERSION;
  const headers: Record<string, string> = {};
  // 2025-03-26 predates the header; 2025-06-18 says a server that gets none "SHOULD assume protocol version 2025-03-26".
  if (!sendsVersionHeader(revision as Revision)) return headers;
  const body = request.method === 'POST' ? request.body : null;
  const method = body?.['method'];
  if (typeof method === 'string' && method === 'initialize' && body !== null && 'id' in body) return headers;
  headers['mcp-protocol-version'] = revision;
  if (revision !== MODERN_REVISION || body === null || typeof method !== 'string' || !('id' in body)) return headers;
  headers['mcp-method'] = method;
  const field = NAME_SOURCE[method];
  const value = field === undefined ? undefined : (body['params'] as Record<string, unknown> | undefined)?.[field];
  if (typeof value === 'string' && PLAIN_HEADER_VALUE.test(value)) headers['mcp-name'] = value;
  return headers;
}
