// A result reaches only the request that caused it, including when request IDs are reused.
import { isModernClient } from '../sim/world.ts';
import { ALL_REVISIONS, type Property } from './property.ts';

export const resultToItsRequest: Property = {
  name: 'result-to-its-request',
  statement: 'A result delivered with request ID r is the result of the call the client sent as r in that session.',
  source: 'Seed 000: "the client\'s dispatcher treated the replayed result as belonging to a newly issued tools/call with the same request id".',
  kind: 'safety',
  severity: 'seed advice',
  revisions: ALL_REVISIONS,
  onArrival(world, arrival) {
    if (!arrival.provenance.result) return null;
    // A 2026-07-28 client's requests are its own (no session; a proxy-attached session header names another's).
    const client = world.clients[arrival.connection.client]!;
    const modern = isModernClient(client);
    const session = arrival.connection.session;
    if (session === null && !modern) return null;
    const requestId = arrival.message['id'];
    for (const call of modern ? client.modernCalls : session!.calls) {
      if (call.requestId !== requestId) continue;
      if (call.id === arrival.provenance.callId) return null;
      return `the result of ${arrival.provenance.callId} arrived as the answer to request ${String(requestId)}, which the client sent for ${call.id} (connection ${arrival.connection.index})`;
    }
    return null;
  },
};
