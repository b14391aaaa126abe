// 2026-07-28 has no session and no resumption, whatever headers a proxy attaches: no Mcp-Session-Id in a modern
// response, no other request's message on a modern exchange, and a modern request's tool never run in a session.
import { MODERN_ONLY_BACKWARD_COMPATIBILITY } from './source.ts';
import { MODERN, type Property, describeMessage, ownCallId } from './property.ts';

export const modernExchangeStateless: Property = {
  name: 'modern-exchange-stateless',
  statement:
    'A 2026-07-28 request is served with no session and no replay, whatever Mcp-Session-Id or Last-Event-ID a proxy attached: its response carries no Mcp-Session-Id, its exchange carries only its own messages, and its tool runs in no session.',
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
  onArrival(world, arrival) {
    const own = ownCallId(world, arrival.connection);
    // A legacy session's message on a modern exchange is era isolation's to judge; here, another modern request's.
    if (own === undefined || arrival.provenance.sessionId !== '' || arrival.provenance.callId === own) return null;
    return `${describeMessage(arrival)} arrived on connection ${arrival.connection.index}, the 2026-07-28 exchange of ${own ?? 'no call'}: a modern exchange carries only its own request's messages`;
  },
  onExecution(_world, execution) {
    if (execution.call === null || execution.sessionIdSeen === '') return null;
    return `the tool of 2026-07-28 request ${execution.callId} (${execution.tool}, execution ${execution.index + 1}) ran in session ${execution.sessionIdSeen}: the server took a proxy-attached Mcp-Session-Id for a session`;
  },
};
