// A result reaches only the request that caused it, including when request IDs are reused.
import { type Arrival, type World, isModernClient } from '../sim/world.ts';
import { ALL_REVISIONS, type Property } from './property.ts';

export const resultToItsRequest: Property = {
  name: 'result-to-its-request',
  statement: 'A result delivered with request ID r is the result of the call the client sent as r in that session (2026-07-28: of the request its own exchange carried).',
  source: {
    kind: 'seed',
    file: '000_318af8320b77c7d3.txt',
    quote: "the client's dispatcher treated the replayed result as belonging to a newly issued tools/call with the same request id",
  },
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'triggered',
  needsClientFault: 'On the legacy revisions it can fire only after a client reused a request ID in its session (request IDs name one call per session otherwise; another session\'s result is no-cross-session-delivery\'s).',
  revisions: ALL_REVISIONS,
  onArrival(world, arrival) {
    if (!arrival.provenance.result) return null;
    const client = world.clients[arrival.connection.client]!;
    // A 2026-07-28 exchange is its own: its result is that of the execution its request started, whatever request
    // ID another exchange carries (two clients, or one re-sending, may use the same ID; a proxy-attached session
    // header names another's session).
    if (isModernClient(client)) return modernExchangeResult(world, arrival);
    const session = arrival.connection.session;
    if (session === null) return null;
    const requestId = arrival.message['id'];
    for (const call of session.calls) {
      if (call.requestId !== requestId) continue;
      if (call.id === arrival.provenance.callId) return null;
      return `the result of ${arrival.provenance.callId} arrived as the answer to request ${String(requestId)}, which the client sent for ${call.id} (connection ${arrival.connection.index})`;
    }
    return null;
  },
};

/** A 2026-07-28 result arrived: it must be the result of an execution its own exchange's request started. */
function modernExchangeResult(world: World, arrival: Arrival): string | null {
  const { provenance, connection } = arrival;
  for (const execution of world.executions) {
    if (execution.callId !== provenance.callId || execution.ordinal !== provenance.execution || execution.epoch !== provenance.epoch) continue;
    if (execution.connection < 0 || execution.connection === connection.index) return null;
    return `the result of ${provenance.callId} (execution ${execution.index + 1}, started by the request on connection #${execution.connection}) arrived on connection #${connection.index}, another 2026-07-28 exchange, as the answer to its request ${String(arrival.message['id'])}`;
  }
  return null;
}
