// Nothing produced by an earlier server incarnation is delivered to a session of a later one.
import { LEGACY, type Property, describeMessage } from './property.ts';

export const noCrossEpochReplay: Property = {
  name: 'no-cross-epoch-replay',
  statement: 'A message produced by one server incarnation is never delivered to a session of another, even when session IDs repeat.',
  source: 'Seed 004, condition 4: "The event ID has not been reused across a session reincarnation (restart, expiry, or explicit re-init)."',
  kind: 'safety',
  severity: 'advice',
  revisions: LEGACY,
  onArrival(_world, arrival) {
    const session = arrival.connection.session;
    if (session === null || session.epoch === arrival.provenance.epoch) return null;
    return `${describeMessage(arrival)} was delivered to session ${session.id} of epoch ${session.epoch} on connection ${arrival.connection.index}`;
  },
};
