// After a 404 for its session, a client starts a new session: it never sends that session's ID again.

import type { ClientProperty } from './client-property.ts';
import { SESSION_REVISIONS } from './client-property.ts';

/** No request carries a session ID the server answered 404 for; the next session starts with initialize. */
export const clientReinitializesAfter404: ClientProperty = {
  name: 'client-reinitializes-after-404',
  statement: 'Once a request carrying a session ID is answered 404, the client sends no further request with that session ID: it starts a new session with initialize.',
  source: {
    kind: 'spec',
    revisions: ['2025-03-26'],
    page: 'basic/transports',
    section: 'Session Management',
    quote: 'When a client receives HTTP 404 in response to a request containing an Mcp-Session-Id, it MUST start a new session by sending a new InitializeRequest without a session ID attached.',
    keyword: 'MUST',
  },
  background: '2025-11-25 says the same of an MCP-Session-Id.',
  severity: 'failure',
  revisions: SESSION_REVISIONS,
  kind: 'safety',
  onRequest(world, exchange) {
    if (exchange.sessionId === null || !world.sessions404.has(exchange.sessionId)) return null;
    const what = exchange.method === 'POST' ? `POST ${exchange.bodyMethod ?? ''}`.trim() : exchange.method;
    return `${what} #${exchange.index} carries session ${exchange.sessionId}, which the server answered 404 on #${world.sessions404.get(exchange.sessionId)}: the client MUST start a new session instead`;
  },
};
