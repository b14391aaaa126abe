// A client never receives the same message twice over all its connections of one session, whatever cursor it or a
// proxy presented: judged by provenance against what the client already received, not against the cursor.
import type { Arrival, SimClient, World } from '../sim/world.ts';
import { LEGACY, type Property, describeMessage } from './property.ts';

/** Positions below this are kept as bits of a number; later ones (and unusual provenance) in a set of keys. */
const MASK_POSITIONS = 31;

/**
 * Records the arrival as received by its client and tells whether it was received before. The fast path (a call's
 * first execution, or a standalone notification, of the client's own session, early positions) keeps a bit per
 * position on the call's view or on the session; everything else goes by a full key. Which path a message takes
 * depends on its provenance and the connection's session only, so one message always meets its own record.
 */
function receivedBefore(world: World, client: SimClient, arrival: Arrival): boolean {
  const { provenance, connection } = arrival;
  const session = connection.session;
  if (session !== null && provenance.execution === 1 && provenance.k < MASK_POSITIONS && provenance.epoch === session.epoch && provenance.sessionId === session.id) {
    const bit = 1 << provenance.k;
    if (provenance.callId === null) {
      if (session.client === client.index) {
        const seen = (session.notificationsReceived & bit) !== 0;
        session.notificationsReceived |= bit;
        return seen;
      }
    } else {
      const call = world.callsById.get(provenance.callId);
      if (call !== undefined && call.session === session && call.view >= 0) {
        const view = world.views[call.view]!;
        const seen = (view.deliveredMask & bit) !== 0;
        view.deliveredMask |= bit;
        return seen;
      }
    }
  }
  const key = `${session === null ? '-' : session.id}|${provenance.epoch} ${provenance.sessionId} ${provenance.callId ?? '-'} ${provenance.execution} ${provenance.k}`;
  const keys = (client.deliveredKeys ??= new Set());
  if (keys.has(key)) return true;
  keys.add(key);
  return false;
}

export const noDuplicateDelivery: Property = {
  name: 'no-duplicate-delivery',
  statement:
    'A client never receives the same message (same epoch, session, call, execution and position) twice over all its connections of one session, whatever cursor it or a proxy presented.',
  source: {
    kind: 'seed',
    file: '000_318af8320b77c7d3.txt',
    quote: "A tools/call result delivered twice, once on the dead stream and once on the resumed stream, with the client's correlation map collapsing them.",
  },
  kind: 'safety',
  severity: 'advice',
  underClientFault: 'triggered',
  revisions: LEGACY,
  onArrival(world, arrival) {
    const client = world.clients[arrival.connection.client]!;
    if (!receivedBefore(world, client, arrival)) return null;
    const cursor = arrival.connection.lastEventId === null ? 'no cursor' : `Last-Event-ID ${arrival.connection.lastEventId}`;
    return `${describeMessage(arrival)} arrived again on connection ${arrival.connection.index} (${arrival.connection.purpose}, ${cursor}); client ${client.index + 1} had already received it in this session`;
  },
};
