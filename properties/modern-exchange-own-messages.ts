// A 2026-07-28 exchange carries only its own request's messages: no other modern request's progress or result, whatever
// Last-Event-ID a proxy attached (a legacy session's message on it is era-isolation's to judge).
import { MODERN_RELATED_MESSAGES } from './source.ts';
import { MODERN, type Property, describeMessage, ownCallId } from './property.ts';

export const modernExchangeOwnMessages: Property = {
  name: 'modern-exchange-own-messages',
  statement: "A 2026-07-28 request's exchange carries only that request's messages: never another 2026-07-28 request's progress or result.",
  source: MODERN_RELATED_MESSAGES,
  background: 'The same section: "Resumable SSE streams via Last-Event-ID are not supported."',
  kind: 'safety',
  severity: 'failure',
  underClientFault: 'server',
  revisions: MODERN,
  onArrival(world, arrival) {
    const own = ownCallId(world, arrival.connection);
    // A legacy session's message on a modern exchange is era isolation's to judge; here, another modern request's.
    if (own === undefined || arrival.provenance.sessionId !== '' || arrival.provenance.callId === own) return null;
    return `${describeMessage(arrival)} arrived on connection ${arrival.connection.index}, the 2026-07-28 exchange of ${own ?? 'no call'}: a modern exchange carries only messages that relate to its own request`;
  },
};
