// A connection carries only messages of the stream it is for.
import { NO_REPLAY_ACROSS_STREAMS } from './source.ts';
import { LEGACY, type Property, describeMessage, ownCallId } from './property.ts';

export const noCrossStreamReplay: Property = {
  name: 'no-cross-stream-replay',
  statement: 'A connection carries only messages of its own stream: a new request\'s stream only its own, a resumed stream only the cursor\'s.',
  // Triggered, not charged, after a client reuses a request ID in flight: the ID then names two calls, and a server
  // that routes a result by its ID sends it to the other call's connection without replaying anything.
  source: NO_REPLAY_ACROSS_STREAMS,
  background:
    'Seed 000: a stale cursor replayed into a new POST. The same page\'s Multiple Connections section: "The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams." A server that sends every message to every session\'s transport (mcp-framework 0.2.22) breaks it live, with nothing replayed: two sessions\' calls under one request ID at once (callTogether) show it.',
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'triggered',
  revisions: LEGACY,
  onArrival(world, arrival) {
    const own = ownCallId(world, arrival.connection);
    if (own === undefined || own === arrival.provenance.callId) return null;
    // A 2026-07-28 request's message (no session, ID '') on a legacy stream is era isolation's to judge.
    if (arrival.provenance.sessionId === '') return null;
    const expected = own === null ? 'the standalone stream' : `the stream of ${own}`;
    return `${describeMessage(arrival)} arrived on connection ${arrival.connection.index}, which carries ${expected}`;
  },
  onEventId(_world, connection, eventId, own, owner) {
    if (owner === undefined || owner.session !== own.session || owner.stream === own.stream) return null;
    const name = (stream: string) => (stream === 'standalone' ? 'the standalone stream' : `the stream of ${stream}`);
    return `event ${eventId} of ${name(owner.stream)} arrived on connection ${connection.index}, which carries ${name(own.stream)}`;
  },
};
