// 400 for a non-initialize request without a session header: a SHOULD of the specification, apart from status-codes'
// MUST (404 for a terminated session's ID).
import { LEGACY, type Property } from './property.ts';

export const missingSessionId400: Property = {
  name: 'missing-session-id-400',
  statement: 'A non-initialize request without Mcp-Session-Id, to a server that requires one, gets 400.',
  source: {
    kind: 'spec',
    revisions: ['2025-03-26'],
    page: 'basic/transports',
    section: 'Session Management',
    quote: 'Servers that require a session ID SHOULD respond to requests without an Mcp-Session-Id header (other than initialization) with HTTP 400 Bad Request.',
    keyword: 'SHOULD',
  },
  background: '2025-11-25 says the same of an MCP-Session-Id header.',
  kind: 'safety',
  severity: 'warning',
  underClientFault: 'server',
  revisions: LEGACY,
  onResponse(_world, connection) {
    if (connection.session !== null || connection.purpose === 'initialize' || connection.status === 400) return null;
    return `a ${connection.purpose} request without Mcp-Session-Id got ${connection.status}, expected 400 (connection ${connection.index})`;
  },
};
