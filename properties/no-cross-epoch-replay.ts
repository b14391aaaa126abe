// Nothing produced by an earlier server incarnation is delivered to a session of a later one.
import { NO_REPLAY_ACROSS_STREAMS } from './source.ts';
import { LEGACY, type Property, describeMessage } from './property.ts';

export const noCrossEpochReplay: Property = {
  name: 'no-cross-epoch-replay',
  statement: 'A message produced by one server incarnation is never delivered to a session of another, even when session IDs repeat.',
  // A failure: a session of a later incarnation is a new session even when its ID repeats (seed 004: "Session dead +
  // cursor present → the session is new"), so a message of the earlier one's streams replayed into it is a message
  // "that would have been delivered on a different stream".
  source: NO_REPLAY_ACROSS_STREAMS,
  background: 'Seed 004, condition 4: "The event ID has not been reused across a session reincarnation (restart, expiry, or explicit re-init)."',
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  revisions: LEGACY,
  onArrival(world, arrival) {
    const session = arrival.connection.session;
    // An unnamed session (a stateless server's client) lives in no incarnation's memory: it goes on across restarts.
    if (session === null || session.unnamed || session.epoch === arrival.provenance.epoch) return null;
    // A session of a server that keeps its sessions over restarts is the same session in every later incarnation: only
    // a message produced before it began is another's.
    if (world.run.sessionsOutliveRestart === true && arrival.provenance.epoch > session.epoch) return null;
    return `${describeMessage(arrival)} was delivered to session ${session.id} of epoch ${session.epoch} on connection ${arrival.connection.index}`;
  },
};
