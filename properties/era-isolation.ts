// Dual-era endpoints: a modern exchange never carries a legacy session's messages, and a legacy session's streams
// never carry a modern exchange's.
import { ALL_REVISIONS, type Property, describeMessage } from './property.ts';
import { MODERN_RELATED_MESSAGES } from './source.ts';

export const eraIsolation: Property = {
  name: 'era-isolation',
  statement:
    "On an endpoint serving both eras, a 2026-07-28 exchange never carries a legacy session's messages, and a legacy session's streams never carry a 2026-07-28 request's.",
  // A failure: a 2026-07-28 response stream carries only what relates to its own request, and a legacy session's
  // message is not that; the other way, a modern request's message on a legacy stream "would have been delivered on a
  // different stream" (2025-11-25: MUST NOT replay it there).
  source: MODERN_RELATED_MESSAGES,
  background: 'basic/versioning: a dual-era server picks the era per request (the _meta envelope: stateless; initialize: legacy, scoped to the session).',
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  revisions: ALL_REVISIONS,
  onArrival(world, arrival) {
    const modern = world.clients[arrival.connection.client]!.revision === '2026-07-28';
    const fromModern = arrival.provenance.sessionId === '';
    if (modern === fromModern) return null;
    if (modern) return `${describeMessage(arrival)}, a legacy session's message, arrived on connection ${arrival.connection.index}, a 2026-07-28 exchange`;
    const session = arrival.connection.session;
    return `${describeMessage(arrival)}, a 2026-07-28 request's message, arrived on connection ${arrival.connection.index} of ${session === null ? 'a legacy request without a session' : `legacy session ${session.id}`}`;
  },
};
