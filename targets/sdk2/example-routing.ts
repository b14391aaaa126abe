// How the 2.x SDK's example servers route in front of their transports. simpleStreamableHttp keeps a session map and
// answers what it cannot place itself, with 400 (where the 1.32.2 example answered an unknown ID with 404);
// ssePollingExample hands such a request to a new transport, so the transport's own answer shows.

import type { SdkRouting } from '../sdk/index.ts';
import type { HttpResponse } from '../target.ts';

/**
 * simpleStreamableHttp (2.x): POST with an unknown session ID, or without one on a non-initialize, gets
 * 400 `Bad Request: No valid session ID provided` (JSON-RPC -32000); GET and DELETE get 400 with the text
 * `Invalid or missing session ID` (not JSON: no body the harness reads).
 */
function exampleAnswer(method: 'POST' | 'GET' | 'DELETE'): HttpResponse {
  if (method !== 'POST') return { status: 400, sessionId: null, streaming: false, body: null };
  return {
    status: 400,
    sessionId: null,
    streaming: false,
    body: { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null },
  };
}

/** The simpleStreamableHttp router: the application answers 400 for a request it cannot place. */
export const EXAMPLE_ROUTER: SdkRouting = { unplaced: 'answer', unknownSession: (request) => exampleAnswer(request.method) };

/** The ssePollingExample router: a request the map cannot place goes to a new transport, which answers. */
export const TRANSPORT_ANSWERS: SdkRouting = { unplaced: 'transport' };

/** The dual-era wiring of the 2.x documentation (`isLegacyRequest` in front), with the simpleStreamableHttp router. */
export const DUAL_EXAMPLE_ROUTER: SdkRouting = { ...EXAMPLE_ROUTER, dualEra: true };

/** The dual-era wiring with no answer of the application's own: the legacy transports answer everything. */
export const DUAL_TRANSPORT_ANSWERS: SdkRouting = { ...TRANSPORT_ANSWERS, dualEra: true };

/** The modern-only endpoint: every request goes to `createMcpHandler(factory, { legacy: 'reject' })`. */
export const MODERN_ONLY: SdkRouting = { unplaced: 'answer', modernOnly: true };
