// No client ever receives a message produced in another session.
import { NO_REPLAY_ACROSS_STREAMS } from './source.ts';
import { LEGACY, type Property, describeMessage } from './property.ts';

export const noCrossSessionDelivery: Property = {
  name: 'no-cross-session-delivery',
  statement: 'A message produced in one session is delivered only on connections of that session.',
  // A failure, not advice: a stream belongs to one session, so a message of another session was meant for a stream
  // of that session, and delivering it here delivers a message "that would have been delivered on a different
  // stream". The sentence speaks of replay, which is how a resumable server reaches another session's messages (a
  // resume whose cursor the store resolves into them). Seed 004 tells the same case as advice ("a Last-Event-ID from a
  // dead session can be replayed against a new session's event buffer"); the MUST NOT is the source the severity follows.
  source: NO_REPLAY_ACROSS_STREAMS,
  background:
    'Seed 004: "Physical presence in a buffer is not authorization to deliver." The same page\'s Multiple Connections section: "The server MUST send each of its JSON-RPC messages on only one of the connected streams; that is, it MUST NOT broadcast the same message across multiple streams." A server that sends every message to every session\'s transport (mcp-framework 0.2.22) breaks it live, with nothing replayed: two sessions\' calls under one request ID at once (callTogether) show it.',
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  revisions: LEGACY,
  onArrival(_world, arrival) {
    const session = arrival.connection.session;
    if (session !== null && session.id === arrival.provenance.sessionId) return null;
    // A stateless server's clients are in unnamed sessions, which are the simulator's names and no server's: it has no
    // session to keep a message in, and a resume with another client's cursor is a resume of that cursor's stream.
    // What reaches which stream there is no-cross-stream-replay's to judge.
    if (session !== null && session.unnamed) return null;
    // A 2026-07-28 exchange's message (no session, ID '') on a legacy stream is era isolation's to judge.
    if (arrival.provenance.sessionId === '') return null;
    const where = session === null ? 'a request without a session' : `session ${session.id}`;
    return `${describeMessage(arrival)} was delivered to ${where} on connection ${arrival.connection.index}`;
  },
};
