// How the 2.x targets route in front of their transports. The routing of the 2.x repository's sessionful examples as
// they are today (main at 3924de99df834302d89f5997a1b64ca268282284: `examples/sse-polling/server.ts`,
// `examples/repl/server.ts`, `examples/legacy-routing/server.ts`, `examples/standalone-get/server.ts`): a session map;
// a known `Mcp-Session-Id` reaches its transport, an initialize without one makes a new transport, an unknown ID gets
// 404 `Session not found` (JSON-RPC -32001) "so the client knows to re-initialize", and no ID on anything else gets
// 400 `Bad Request: Session ID required` (-32000), for every method. (The repository's earlier simpleStreamableHttp
// and ssePollingExample answered an unknown ID with 400 or handed it to a new transport; both are gone from main.)

import type { SdkRouting } from '../sdk/index.ts';
import type { HttpRequest, HttpResponse } from '../target.ts';

/** The answer of the 2.x repository's examples to a request their session map cannot place. */
function repositoryAnswer(request: HttpRequest): HttpResponse {
  const [status, code, message] = request.sessionId === null ? [400, -32000, 'Bad Request: Session ID required'] : [404, -32001, 'Session not found'];
  return { status, sessionId: null, streaming: false, body: { jsonrpc: '2.0', error: { code, message }, id: null } };
}

/** The 2.x repository's example router (today): 404 for an unknown session ID, 400 without one. */
export const REPOSITORY_ROUTER: SdkRouting = { unplaced: 'answer', unknownSession: repositoryAnswer };

/** The dual-era wiring of the 2.x package's documentation (`isLegacyRequest` in front), its legacy leg routed as the repository's examples route. */
export const DUAL_REPOSITORY_ROUTER: SdkRouting = { ...REPOSITORY_ROUTER, dualEra: true };

/**
 * The dual-era wiring with no answer of the application's own: a legacy request the map cannot place goes to a new
 * transport, which answers it itself (what a bare 2.x transport says; no example of the repository routes so).
 */
export const DUAL_TRANSPORT_ANSWERS: SdkRouting = { unplaced: 'transport', dualEra: true };

/** The modern-only endpoint: every request goes to `createMcpHandler(factory, { legacy: 'reject' })`. */
export const MODERN_ONLY: SdkRouting = { unplaced: 'answer', modernOnly: true };
