// 2026-07-28 has no session, whatever headers a proxy attaches: no Mcp-Session-Id in a modern response, and a modern
// request's tool never run in a session. (That a modern exchange carries only its own request's messages is a MUST of
// its own: modern-exchange-own-messages.)
import { MODERN_ONLY_BACKWARD_COMPATIBILITY } from './source.ts';
import { MODERN, type Property } from './property.ts';

export const modernExchangeStateless: Property = {
  name: 'modern-exchange-stateless',
  statement:
    'A 2026-07-28 request is served with no session, whatever Mcp-Session-Id a proxy attached: its response carries no Mcp-Session-Id, and its tool runs in no session.',
  source: MODERN_ONLY_BACKWARD_COMPATIBILITY,
  background: 'The list that follows: "An Mcp-Session-Id header on a request: ignore it, and do not mint or echo session IDs."; "A Last-Event-ID header: ignore it; streams are not resumable."',
  kind: 'safety',
  severity: 'warning',
  underClientFault: 'server',
  revisions: MODERN,
  onResponse(_world, connection) {
    if (connection.sessionIdAnswered === null) return null;
    return `the 2026-07-28 ${connection.purpose} request on connection #${connection.index} was answered with Mcp-Session-Id ${connection.sessionIdAnswered}: the modern era has no session`;
  },
  onExecution(_world, execution) {
    if (execution.call === null || execution.sessionIdSeen === '') return null;
    return `the tool of 2026-07-28 request ${execution.callId} (${execution.tool}, execution ${execution.index + 1}) ran in session ${execution.sessionIdSeen}: the server took a proxy-attached Mcp-Session-Id for a session`;
  },
};
