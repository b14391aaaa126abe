// No client ever receives a message produced in another session.
import { LEGACY, type Property, describeMessage } from './property.ts';

export const noCrossSessionDelivery: Property = {
  name: 'no-cross-session-delivery',
  statement: 'A message produced in one session is delivered only on connections of that session.',
  source: 'Seed 004: "a Last-Event-ID from a dead session can be replayed against a new session\'s event buffer"; "Physical presence in a buffer is not authorization to deliver."',
  kind: 'safety',
  severity: 'advice',
  revisions: LEGACY,
  onArrival(_world, arrival) {
    const session = arrival.connection.session;
    if (session !== null && session.id === arrival.provenance.sessionId) return null;
    // A 2026-07-28 exchange's message (no session, ID '') on a legacy stream is era isolation's to judge.
    if (arrival.provenance.sessionId === '') return null;
    const where = session === null ? 'a request without a session' : `session ${session.id}`;
    return `${describeMessage(arrival)} was delivered to ${where} on connection ${arrival.connection.index}`;
  },
};
