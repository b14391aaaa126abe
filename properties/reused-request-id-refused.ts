// A request under a request id still in flight in the session, with other content, is refused and never executed,
// and the first call keeps its result.
import { LEGACY, type Property } from './property.ts';

export const reusedRequestIdRefused: Property = {
  name: 'reused-request-id-refused',
  statement:
    'A POST under a request ID still in flight in its session, with other content, is refused with an error status and never executed; the first call keeps its result.',
  source: {
    kind: 'design',
    rule: 'a POST under a request ID still in flight in its session, with other content, is refused with an error status and never executed',
    reason: 'the duty is the requestor\'s (2025-06-18 basic/index: "The request ID MUST NOT have been previously used by the requestor within the same session."), and MCP gives the server no rule for it; once the server answers both calls the ID names two results, which no client can tell apart',
  },
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'server',
  needsClientFault: 'It fires only on a request that reuses a request ID still in flight: a client\'s own fault, which it judges the server\'s answer to.',
  // Not 2026-07-28: there the ID is the requestor's duty, and a server without sessions cannot tell requestors apart
  // (each exchange carries its own result; result-to-its-request judges that).
  revisions: LEGACY,
  onResponse(_world, connection) {
    if (connection.purpose !== 'reuse' || connection.status >= 400) return null;
    return `a POST on connection #${connection.index} reusing a request ID still in flight, with other content, got ${connection.status} instead of being refused`;
  },
  onExecution(_world, execution) {
    const reused = execution.call?.reuses ?? null;
    if (reused === null) return null;
    return `${execution.tool} ${execution.callId} executed under request ${reused.requestId}, still in flight for ${reused.id} (${reused.tool}): the request ID now names two calls`;
  },
};
